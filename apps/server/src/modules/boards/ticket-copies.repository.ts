import { sql } from 'drizzle-orm';
import type { TPsaType } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';

/** One PSA ticket as the sync writes it: PSA ids as strings (or numbers), with the names the PSA gave. */
export interface TTicketCopy {
  externalId: string | number;
  ticketNumber?: string | null;
  summary: string;
  description?: string | null;
  board?: TRef | null;
  type?: TRef | null;
  subtype?: TRef | null;
  item?: TRef | null;
  priority?: TRef | null;
  status?: TRef | null;
  company?: TRef | null;
  contact?: TRef | null;
  owner?: TRef | null;
  isClosed: boolean;
  resolution?: string | null;
  timeSpentMinutes?: number | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  closedAt?: Date | null;
}
export interface TRef {
  id: string | number | null;
  name?: string | null;
}

/** Rows per INSERT statement (one JSON parameter each): what one statement holds in memory on both sides. */
const BATCH_SIZE = 500;

/** Every column the PSA's ticket fills (property, column): what an update writes and what "unchanged" compares. */
const COPIED_COLUMNS = [
  ['ticketNumber', 'ticket_number'],
  ['summary', 'summary'],
  ['description', 'description'],
  ['boardExternalId', 'board_external_id'],
  ['boardName', 'board_name'],
  ['typeExternalId', 'type_external_id'],
  ['typeName', 'type_name'],
  ['subtypeExternalId', 'subtype_external_id'],
  ['subtypeName', 'subtype_name'],
  ['itemExternalId', 'item_external_id'],
  ['itemName', 'item_name'],
  ['priorityExternalId', 'priority_external_id'],
  ['priorityName', 'priority_name'],
  ['statusExternalId', 'status_external_id'],
  ['statusName', 'status_name'],
  ['companyExternalId', 'company_external_id'],
  ['companyName', 'company_name'],
  ['contactExternalId', 'contact_external_id'],
  ['contactName', 'contact_name'],
  ['ownerExternalId', 'owner_external_id'],
  ['ownerName', 'owner_name'],
  ['isClosed', 'is_closed'],
  ['resolution', 'resolution'],
  ['timeSpentMinutes', 'time_spent_minutes'],
  ['psaCreatedAt', 'psa_created_at'],
  ['psaUpdatedAt', 'psa_updated_at'],
  ['psaClosedAt', 'psa_closed_at'],
] as const;

const idOf = (ref: TRef | null | undefined) => (ref?.id === null || ref?.id === undefined ? null : String(ref.id));
const nameOf = (ref: TRef | null | undefined) => ref?.name ?? null;

/**
 * Inserts or updates synchronized ticket copies keyed by (msp_id, psa_type, external_id): running
 * it again with the same tickets changes nothing (not even synced_at), so a repeated or resumed sync makes no
 * duplicates. An older copy never overwrites a newer one (`updatedAt` from the PSA decides when both have it).
 * Returns how many rows were inserted or changed.
 */
export async function upsertTicketCopies(db: TDatabase, mspId: string, psaType: TPsaType, tickets: readonly TTicketCopy[], now: Date = new Date()): Promise<number> {
  let written = 0;
  const syncedAt = now.toISOString();
  for (let start = 0; start < tickets.length; start += BATCH_SIZE) {
    const batch = tickets.slice(start, start + BATCH_SIZE);
    // The whole batch is one JSON parameter, an array per ticket (external id, then COPIED_COLUMNS in order), not one
    // parameter per value (15,500 for 500 rows) nor one array per column: JSON.stringify is native where the driver
    // escapes every element of an array parameter in JavaScript, and positions instead of keys keep the JSON small and
    // PostgreSQL's reading of it cheap (issue #7: the sync's CPU per ticket).
    const result: unknown = await db.execute(sql`
      with written as (
      insert into psa_tickets (msp_id, psa_type, external_id, ${sql.raw(COLUMN_LIST)}, synced_at)
      select ${mspId}::uuid, ${psaType}, r ->> 0, ${sql.raw(ROW_CELLS)}, ${syncedAt}::timestamptz
      from jsonb_array_elements(${JSON.stringify(batch.map(rowOf))}::jsonb) as e(r)
      on conflict (msp_id, psa_type, external_id) do update set ${sql.raw([...COLUMNS.map((column) => `${column} = ${incoming(column)}`), 'synced_at = excluded.synced_at', 'notes_read_at = null'].join(', '))}
      -- An older copy never overwrites a newer one, and a copy equal in every field is left as it is: its synced_at
      -- stays, so the queue's incremental refresh (synced_at since its last pass) does not read it again. A changed copy's
      -- notes are read again (notes_read_at null: ConnectWise's description and resolution are notes).
      where (psa_tickets.psa_updated_at is null or excluded.psa_updated_at is null or excluded.psa_updated_at >= psa_tickets.psa_updated_at)
        and (${sql.raw(COLUMNS.map((column) => `psa_tickets.${column}`).join(', '))}) is distinct from (${sql.raw(COLUMNS.map(incoming).join(', '))})
      returning 1)
      select count(*)::int as written from written`);
    // node-postgres and PGlite both answer { rows }; one row with the count, not a row per ticket written.
    written += Number((result as { rows: { written: number }[] }).rows[0]?.written ?? 0);
  }
  return written;
}

/** The SQL type of each copied column that is not text (the JSON values are cast to it). */
const COLUMN_TYPES: Partial<Record<(typeof COPIED_COLUMNS)[number][1], string>> = {
  is_closed: 'boolean',
  time_spent_minutes: 'integer',
  psa_created_at: 'timestamptz',
  psa_updated_at: 'timestamptz',
  psa_closed_at: 'timestamptz',
};

const isoOf = (date: Date | null | undefined) => (date ? date.toISOString() : null);

const COLUMNS = COPIED_COLUMNS.map(([, column]) => column);
/**
 * Columns a PSA row may leave out: ConnectWise ticket rows never carry the description or the resolution (both are
 * notes, read by the notes reader), so a reread must not erase what the copy holds (the notes read, the demo's
 * history, a resolution written through the queue). A null from the PSA keeps what the copy knows; a value replaces it.
 */
const KEPT_WHEN_NOT_SENT = new Set<string>(['description', 'resolution']);
/** The value an upsert writes to a column of an existing copy. */
const incoming = (column: string) => (KEPT_WHEN_NOT_SENT.has(column) ? `coalesce(excluded.${column}, psa_tickets.${column})` : `excluded.${column}`);
const COLUMN_LIST = COLUMNS.join(', ');
/** Each copied column read from its position in a row of the batch's JSON (position 0 is the external id). */
const ROW_CELLS = COLUMNS.map((column, index) => `(r ->> ${index + 1})::${COLUMN_TYPES[column] ?? 'text'}`).join(', ');

/** One ticket as a row of the batch's JSON: its external id, then each copied column's value in COPIED_COLUMNS order. */
function rowOf(ticket: TTicketCopy): (string | number | boolean | null)[] {
  const row: (string | number | boolean | null)[] = [String(ticket.externalId)];
  for (const [key] of COPIED_COLUMNS) row.push(CELL[key](ticket));
  return row;
}

/** Each copied column's value for one ticket. */
const CELL: Record<(typeof COPIED_COLUMNS)[number][0], (ticket: TTicketCopy) => string | number | boolean | null> = {
  ticketNumber: (ticket) => ticket.ticketNumber ?? null,
  summary: (ticket) => ticket.summary,
  description: (ticket) => ticket.description ?? null,
  boardExternalId: (ticket) => idOf(ticket.board),
  boardName: (ticket) => nameOf(ticket.board),
  typeExternalId: (ticket) => idOf(ticket.type),
  typeName: (ticket) => nameOf(ticket.type),
  subtypeExternalId: (ticket) => idOf(ticket.subtype),
  subtypeName: (ticket) => nameOf(ticket.subtype),
  itemExternalId: (ticket) => idOf(ticket.item),
  itemName: (ticket) => nameOf(ticket.item),
  priorityExternalId: (ticket) => idOf(ticket.priority),
  priorityName: (ticket) => nameOf(ticket.priority),
  statusExternalId: (ticket) => idOf(ticket.status),
  statusName: (ticket) => nameOf(ticket.status),
  companyExternalId: (ticket) => idOf(ticket.company),
  companyName: (ticket) => nameOf(ticket.company),
  contactExternalId: (ticket) => idOf(ticket.contact),
  contactName: (ticket) => nameOf(ticket.contact),
  ownerExternalId: (ticket) => idOf(ticket.owner),
  ownerName: (ticket) => nameOf(ticket.owner),
  isClosed: (ticket) => ticket.isClosed,
  resolution: (ticket) => ticket.resolution ?? null,
  timeSpentMinutes: (ticket) => ticket.timeSpentMinutes ?? null,
  psaCreatedAt: (ticket) => isoOf(ticket.createdAt),
  psaUpdatedAt: (ticket) => isoOf(ticket.updatedAt),
  psaClosedAt: (ticket) => isoOf(ticket.closedAt),
};
