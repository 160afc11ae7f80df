import { sql } from 'drizzle-orm';
import type { TPsaType } from '@switchboard/contracts';
import { psaTickets, type TDatabase } from '@switchboard/db';

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
  for (let start = 0; start < tickets.length; start += BATCH_SIZE) {
    const rows = tickets.slice(start, start + BATCH_SIZE).map((ticket) => ({
      mspId,
      psaType,
      externalId: String(ticket.externalId),
      ticketNumber: ticket.ticketNumber ?? null,
      summary: ticket.summary,
      description: ticket.description ?? null,
      boardExternalId: idOf(ticket.board),
      boardName: nameOf(ticket.board),
      typeExternalId: idOf(ticket.type),
      typeName: nameOf(ticket.type),
      subtypeExternalId: idOf(ticket.subtype),
      subtypeName: nameOf(ticket.subtype),
      itemExternalId: idOf(ticket.item),
      itemName: nameOf(ticket.item),
      priorityExternalId: idOf(ticket.priority),
      priorityName: nameOf(ticket.priority),
      statusExternalId: idOf(ticket.status),
      statusName: nameOf(ticket.status),
      companyExternalId: idOf(ticket.company),
      companyName: nameOf(ticket.company),
      contactExternalId: idOf(ticket.contact),
      contactName: nameOf(ticket.contact),
      ownerExternalId: idOf(ticket.owner),
      ownerName: nameOf(ticket.owner),
      isClosed: ticket.isClosed,
      resolution: ticket.resolution ?? null,
      timeSpentMinutes: ticket.timeSpentMinutes ?? null,
      psaCreatedAt: ticket.createdAt ?? null,
      psaUpdatedAt: ticket.updatedAt ?? null,
      psaClosedAt: ticket.closedAt ?? null,
      syncedAt: now,
    }));
    const result = await db
      .insert(psaTickets)
      .values(rows)
      .onConflictDoUpdate({
        target: [psaTickets.mspId, psaTickets.psaType, psaTickets.externalId],
        set: Object.fromEntries([...COPIED_COLUMNS, ['syncedAt', 'synced_at'] as const].map(([key, column]) => [key, sql.raw(`excluded.${column}`)])),
        // An older copy never overwrites a newer one, and a copy equal in every field is left as it is: its synced_at
        // stays, so the queue's incremental refresh (synced_at since its last pass) does not read it again.
        setWhere: sql`(${psaTickets.psaUpdatedAt} is null or excluded.psa_updated_at is null or excluded.psa_updated_at >= ${psaTickets.psaUpdatedAt}) and (${sql.raw(
          COPIED_COLUMNS.map(([, column]) => `psa_tickets.${column}`).join(', '),
        )}) is distinct from (${sql.raw(COPIED_COLUMNS.map(([, column]) => `excluded.${column}`).join(', '))})`,
      })
      .returning({ id: psaTickets.id });
    written += result.length;
  }
  return written;
}
