import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import type { TQueueState, TQueueTier } from '@switchboard/contracts';
import { asDate, asText, iso, rowsOf, type TRow } from './queue-sql';

/** One queue ticket: its row shape and select list (shared by every ticket read), its reads by id, and its writes. */

/** A queue ticket joined to its PSA copy and assignee, as the presenter takes it. */
export interface TQueueTicketRow {
  mspId: string;
  id: string;
  /** The psa_tickets row (the PSA-outbox target of this ticket's writes). */
  ticketRowId: string;
  psaTicketId: number;
  ticketNumber: string | null;
  companyName: string | null;
  contactName: string | null;
  summary: string;
  description: string | null;
  typeExternalId: string | null;
  typeName: string | null;
  subtypeExternalId: string | null;
  subtypeName: string | null;
  boardId: number | null;
  boardName: string | null;
  priorityExternalId: string | null;
  priorityName: string | null;
  statusExternalId: string | null;
  statusName: string | null;
  impact: 'Low' | 'Medium' | 'High' | null;
  severity: 'Low' | 'Medium' | 'High' | null;
  tier: TQueueTier;
  state: TQueueState;
  slaHours: number | null;
  slaDueAt: Date | null;
  ticketCreatedAt: Date | null;
  assignedTechId: string | null;
  assignedTechName: string | null;
  isReserved: boolean;
  claimedAt: Date | null;
  startedAt: Date | null;
  holdUntil: Date | null;
  completedAt: Date | null;
  closedAt: Date | null;
  rankKey: number;
  /** Set by the claim statement: claimed by this call (false: already the technician's). */
  isNew?: boolean;
}

/** The select list every ticket read shares; `q` is queue_tickets (or a CTE of its rows), `t` psa_tickets, `u` users. */
export const TICKET_COLUMNS = sql.raw(`
  q.msp_id, q.id, q.ticket_row_id, q.psa_ticket_id, t.ticket_number, t.company_name, t.contact_name, t.summary, t.description,
  t.type_external_id, t.type_name, t.subtype_external_id, t.subtype_name, q.board_id, t.board_name,
  t.priority_external_id, t.priority_name, t.status_external_id, t.status_name, q.impact, q.severity,
  q.tier, q.state, q.sla_hours, q.sla_due_at, q.ticket_created_at, q.assigned_tech_id,
  case when u.id is null then null else trim(u.first_name || ' ' || u.last_name) end as assigned_tech_name,
  q.is_reserved, q.claimed_at, q.started_at, q.hold_until, q.completed_at, q.closed_at, q.rank_key`);
export const TICKET_JOINS = sql.raw(`
  join psa_tickets t on t.msp_id = q.msp_id and t.id = q.ticket_row_id
  left join users u on u.msp_id = q.msp_id and u.id = q.assigned_tech_id`);

export function toTicketRow(row: TRow): TQueueTicketRow {
  return {
    mspId: String(row.msp_id),
    id: String(row.id),
    ticketRowId: String(row.ticket_row_id),
    psaTicketId: Number(row.psa_ticket_id),
    ticketNumber: asText(row.ticket_number),
    companyName: asText(row.company_name),
    contactName: asText(row.contact_name),
    summary: asText(row.summary) ?? '',
    description: asText(row.description),
    typeExternalId: asText(row.type_external_id),
    typeName: asText(row.type_name),
    subtypeExternalId: asText(row.subtype_external_id),
    subtypeName: asText(row.subtype_name),
    boardId: row.board_id === null || row.board_id === undefined ? null : Number(row.board_id),
    boardName: asText(row.board_name),
    priorityExternalId: asText(row.priority_external_id),
    priorityName: asText(row.priority_name),
    statusExternalId: asText(row.status_external_id),
    statusName: asText(row.status_name),
    impact: asText(row.impact) as TQueueTicketRow['impact'],
    severity: asText(row.severity) as TQueueTicketRow['severity'],
    tier: String(row.tier) as TQueueTier,
    state: String(row.state) as TQueueState,
    slaHours: row.sla_hours === null || row.sla_hours === undefined ? null : Number(row.sla_hours),
    slaDueAt: asDate(row.sla_due_at),
    ticketCreatedAt: asDate(row.ticket_created_at),
    assignedTechId: asText(row.assigned_tech_id),
    assignedTechName: asText(row.assigned_tech_name),
    isReserved: row.is_reserved === true,
    claimedAt: asDate(row.claimed_at),
    startedAt: asDate(row.started_at),
    holdUntil: asDate(row.hold_until),
    completedAt: asDate(row.completed_at),
    closedAt: asDate(row.closed_at),
    rankKey: Number(row.rank_key),
    ...(row.is_new === undefined ? {} : { isNew: row.is_new === true }),
  };
}

/** One queue ticket by the PSA's ticket id (the newest row when a PSA switch left two). */
export async function findTicketByPsaId(db: TDatabase, mspId: string, psaTicketId: number, lock = false): Promise<TQueueTicketRow | undefined> {
  const rows = await rowsOf(
    db,
    sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS}
      where q.msp_id = ${mspId} and q.psa_ticket_id = ${psaTicketId}
      order by q.ticket_created_at desc limit 1 ${lock ? sql`for update of q` : sql``}`,
  );
  const [row] = rows;
  return row ? toTicketRow(row) : undefined;
}

/** One queue ticket by its own id. */
export async function findTicketById(db: TDatabase, mspId: string, id: string, lock = false): Promise<TQueueTicketRow | undefined> {
  const rows = await rowsOf(db, sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS} where q.msp_id = ${mspId} and q.id = ${id} ${lock ? sql`for update of q` : sql``}`);
  const [row] = rows;
  return row ? toTicketRow(row) : undefined;
}

/** Queue tickets by id (the activities reads). */
export async function listTicketsByIds(db: TDatabase, mspId: string, ids: string[]): Promise<TQueueTicketRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsOf(db, sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS} where q.msp_id = ${mspId} and q.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return rows.map(toTicketRow);
}

/** Sets the state columns of one queue ticket (only those given). */
export async function updateQueueTicket(
  db: TDatabase,
  mspId: string,
  id: string,
  values: {
    state?: TQueueState;
    assignedTechId?: string | null;
    isReserved?: boolean;
    claimedAt?: Date | null;
    startedAt?: Date | null;
    completedAt?: Date | null;
    closedAt?: Date | null;
    holdUntil?: Date | null;
    tier?: TQueueTier;
    tierRank?: number;
    isTierPinned?: boolean;
    impact?: 'Low' | 'Medium' | 'High' | null;
    severity?: 'Low' | 'Medium' | 'High' | null;
  },
  now: Date,
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = ${iso(now)}::timestamptz`];
  const dateOrNull = (value: Date | null) => (value === null ? sql`null` : sql`${iso(value)}::timestamptz`);
  if (values.state !== undefined) sets.push(sql`state = ${values.state}`);
  if (values.assignedTechId !== undefined) sets.push(sql`assigned_tech_id = ${values.assignedTechId}`);
  if (values.isReserved !== undefined) sets.push(sql`is_reserved = ${values.isReserved}`);
  if (values.claimedAt !== undefined) sets.push(sql`claimed_at = ${dateOrNull(values.claimedAt)}`);
  if (values.startedAt !== undefined) sets.push(sql`started_at = ${dateOrNull(values.startedAt)}`);
  if (values.completedAt !== undefined) sets.push(sql`completed_at = ${dateOrNull(values.completedAt)}`);
  if (values.closedAt !== undefined) sets.push(sql`closed_at = ${dateOrNull(values.closedAt)}`);
  if (values.holdUntil !== undefined) sets.push(sql`hold_until = ${dateOrNull(values.holdUntil)}`);
  if (values.tier !== undefined) sets.push(sql`tier = ${values.tier}`);
  if (values.tierRank !== undefined) sets.push(sql`tier_rank = ${values.tierRank}`);
  if (values.isTierPinned !== undefined) sets.push(sql`is_tier_pinned = ${values.isTierPinned}`);
  if (values.impact !== undefined) sets.push(sql`impact = ${values.impact}`);
  if (values.severity !== undefined) sets.push(sql`severity = ${values.severity}`);
  await db.execute(sql`update queue_tickets set ${sql.join(sets, sql`, `)} where msp_id = ${mspId} and id = ${id}`);
}

/** Optimistically applies an edit to the ticket copy, so reads show it before the next sync. */
export async function applyEditToTicketCopy(
  db: TDatabase,
  mspId: string,
  queueTicketId: string,
  edit: { summary?: string; description?: string; typeId?: number | null; typeName?: string | null; subtypeId?: number | null; subtypeName?: string | null; priorityId?: number | null; priorityName?: string | null; statusId?: number | null; statusName?: string | null },
): Promise<void> {
  const sets: SQL[] = [];
  const idText = (value: number | null) => (value === null ? null : String(value));
  if (edit.summary !== undefined) sets.push(sql`summary = ${edit.summary}`);
  if (edit.description !== undefined) sets.push(sql`description = ${edit.description}`);
  if (edit.typeId !== undefined) sets.push(sql`type_external_id = ${idText(edit.typeId)}`);
  if (edit.typeName !== undefined) sets.push(sql`type_name = ${edit.typeName}`);
  if (edit.subtypeId !== undefined) sets.push(sql`subtype_external_id = ${idText(edit.subtypeId)}`);
  if (edit.subtypeName !== undefined) sets.push(sql`subtype_name = ${edit.subtypeName}`);
  if (edit.priorityId !== undefined) sets.push(sql`priority_external_id = ${idText(edit.priorityId)}`);
  if (edit.priorityName !== undefined) sets.push(sql`priority_name = ${edit.priorityName}`);
  if (edit.statusId !== undefined) sets.push(sql`status_external_id = ${idText(edit.statusId)}`);
  if (edit.statusName !== undefined) sets.push(sql`status_name = ${edit.statusName}`);
  if (sets.length === 0) return;
  await db.execute(
    sql`update psa_tickets t set ${sql.join(sets, sql`, `)} from queue_tickets q where q.msp_id = ${mspId} and q.id = ${queueTicketId} and t.msp_id = q.msp_id and t.id = q.ticket_row_id`,
  );
}

/** The board's closing and new statuses (board_configs) for the MSP's current PSA. */
export async function findBoardStatuses(db: TDatabase, mspId: string, boardId: number): Promise<{ closingStatusId: number | null; closingStatusName: string | null; newStatusId: number | null; newStatusName: string | null } | undefined> {
  const [row] = await rowsOf(
    db,
    sql`select bc.closing_status_id, bc.closing_status_name, bc.new_status_id, bc.new_status_name
      from board_configs bc join integrations i on i.msp_id = bc.msp_id and i.psa_type = bc.psa_type
      where bc.msp_id = ${mspId} and bc.board_id = ${boardId} limit 1`,
  );
  if (!row) return undefined;
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return { closingStatusId: num(row.closing_status_id), closingStatusName: asText(row.closing_status_name), newStatusId: num(row.new_status_id), newStatusName: asText(row.new_status_name) };
}
