import { sql } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import type { TQueueTier } from '@switchboard/contracts';
import { asText, rowsOf } from './queue-sql';
import { TICKET_COLUMNS, TICKET_JOINS, toTicketRow, type TQueueTicketRow } from './queue-tickets.repository';

/** A ticket the board shows under its technician: claimed, in progress, or queued and reserved for them. */
const HELD_BY_TECHNICIAN = sql.raw(`(q.state in ('claimed', 'working') or (q.state = 'queued' and q.is_reserved))`);

/** The dispatcher's board: every claimed, in-progress or reserved ticket of the MSP with its technician. */
export async function listAssignedOpenTickets(db: TDatabase, mspId: string): Promise<TQueueTicketRow[]> {
  const rows = await rowsOf(
    db,
    sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS}
      where q.msp_id = ${mspId} and q.assigned_tech_id is not null and ${HELD_BY_TECHNICIAN}
      order by q.sla_due_at asc nulls last, q.claimed_at asc nulls last`,
  );
  return rows.map(toTicketRow);
}

/** Queued tickets nobody holds or has reserved, the nearest SLA first, and how many there are. */
export async function listUnassignedBySla(db: TDatabase, mspId: string, limit: number): Promise<{ rows: TQueueTicketRow[]; total: number }> {
  const where = sql`q.msp_id = ${mspId} and q.state = 'queued' and q.assigned_tech_id is null`;
  const [countRow] = await rowsOf(db, sql`select count(*)::int as n from queue_tickets q where ${where}`);
  const rows = await rowsOf(db, sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS} where ${where} order by q.sla_due_at asc nulls last, q.rank_key desc limit ${limit}`);
  return { rows: rows.map(toTicketRow), total: Number(countRow?.n ?? 0) };
}

export interface TDispatchTechnicianRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  tierLevel: TQueueTier | null;
  isActive: boolean;
  runningTicketId: number | null;
}

/**
 * The board's technicians with the ticket their timer runs on (one statement): the MSP's active technicians, and
 * deactivated ones while they still hold tickets (claimed, in progress or reserved), so the dispatcher can unassign those.
 */
export async function listDispatchTechnicians(db: TDatabase, mspId: string): Promise<TDispatchTechnicianRow[]> {
  const rows = await rowsOf(
    db,
    sql`select u.id, u.first_name, u.last_name, u.email, u.tier_level, u.is_active,
        (select q.psa_ticket_id from queue_timer_sessions s join queue_tickets q on q.msp_id = s.msp_id and q.id = s.queue_ticket_id
          where s.msp_id = u.msp_id and s.tech_id = u.id and s.ended_at is null limit 1) as running_ticket_id
      from users u where u.msp_id = ${mspId} and u.kind = 'technician'
        and (u.is_active or exists (select 1 from queue_tickets q where q.msp_id = u.msp_id and q.assigned_tech_id = u.id and ${HELD_BY_TECHNICIAN}))
      order by u.first_name, u.last_name, u.id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    firstName: asText(row.first_name) ?? '',
    lastName: asText(row.last_name) ?? '',
    email: asText(row.email) ?? '',
    tierLevel: (asText(row.tier_level) as TQueueTier | null) ?? null,
    isActive: row.is_active === true,
    runningTicketId: row.running_ticket_id === null || row.running_ticket_id === undefined ? null : Number(row.running_ticket_id),
  }));
}
