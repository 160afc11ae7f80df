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

/** Rows per INSERT: far below PostgreSQL's 65,535 bind parameters at 31 columns a row. */
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
    // The whole batch is one JSON parameter (one row object per ticket, read back by json_to_recordset), not one
    // parameter per value (15,500 for 500 rows) nor one array per column: JSON.stringify is native, where the driver
    // escapes every element of an array parameter in JavaScript (issue #7: the sync's CPU per ticket).
    const result: unknown = await db.execute(sql`
      insert into psa_tickets (msp_id, psa_type, external_id, ${sql.raw(COLUMN_LIST)}, synced_at)
      select ${mspId}::uuid, ${psaType}, r.external_id, ${sql.raw(COLUMNS.map((column) => `r.${column}`).join(', '))}, ${syncedAt}::timestamptz
      from json_to_recordset(${JSON.stringify(batch.map(rowOf))}::json) as r(${sql.raw(RECORD_TYPE)})
      on conflict (msp_id, psa_type, external_id) do update set ${sql.raw([...COLUMNS, 'synced_at'].map((column) => `${column} = excluded.${column}`).join(', '))}
      -- An older copy never overwrites a newer one, and a copy equal in every field is left as it is: its synced_at
      -- stays, so the queue's incremental refresh (synced_at since its last pass) does not read it again.
      where (psa_tickets.psa_updated_at is null or excluded.psa_updated_at is null or excluded.psa_updated_at >= psa_tickets.psa_updated_at)
        and (${sql.raw(COLUMNS.map((column) => `psa_tickets.${column}`).join(', '))}) is distinct from (${sql.raw(COLUMNS.map((column) => `excluded.${column}`).join(', '))})
      returning id`);
    // node-postgres and PGlite both answer { rows }.
    written += (result as { rows: unknown[] }).rows.length;
  }
  return written;
}

/** The SQL type of each copied column that is not text (json_to_recordset reads the JSON values as it). */
const COLUMN_TYPES: Partial<Record<(typeof COPIED_COLUMNS)[number][1], string>> = {
  is_closed: 'boolean',
  time_spent_minutes: 'integer',
  psa_created_at: 'timestamptz',
  psa_updated_at: 'timestamptz',
  psa_closed_at: 'timestamptz',
};

const isoOf = (date: Date | null | undefined) => (date ? date.toISOString() : null);

const COLUMNS = COPIED_COLUMNS.map(([, column]) => column);
const COLUMN_LIST = COLUMNS.join(', ');
/** json_to_recordset's column list: the key and SQL type of each field of a row object. */
const RECORD_TYPE = ['external_id text', ...COPIED_COLUMNS.map(([, column]) => `${column} ${COLUMN_TYPES[column] ?? 'text'}`)].join(', ');

/** One ticket as the row object of the batch's JSON, keyed by column. */
function rowOf(ticket: TTicketCopy): Record<string, string | number | boolean | null> {
  const row: Record<string, string | number | boolean | null> = { external_id: String(ticket.externalId) };
  for (const [key, column] of COPIED_COLUMNS) row[column] = CELL[key](ticket);
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
