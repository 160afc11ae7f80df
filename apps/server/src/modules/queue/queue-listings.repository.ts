import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import { iso, rowsOf } from './queue-sql';
import { TICKET_COLUMNS, TICKET_JOINS, toTicketRow, type TQueueTicketRow } from './queue-tickets.repository';

/** The queue's lists: what a technician could be given and is working on, the MSP's queue page, and user names. */

/** Eligibility of `q` for a technician (the claim's own conditions; queue_claim_batch in migration 0017 repeats them: change both). */
function eligibleFor(techId: string, tierRank: number, now: Date): SQL {
  return sql`q.state = 'queued' and q.tier_rank <= ${tierRank}
    and (q.hold_until is null or q.hold_until <= ${iso(now)}::timestamptz)
    and (not q.is_reserved or q.assigned_tech_id = ${techId})
    and not exists (select 1 from queue_rejections r where r.msp_id = q.msp_id and r.queue_ticket_id = q.id and r.tech_id = ${techId} and r.until > ${iso(now)}::timestamptz)`;
}

/** A-124: the tickets the technician could be given, best first, one page. */
export async function listEligibleTickets(db: TDatabase, mspId: string, techId: string, tierRank: number, now: Date, offset: number, limit: number): Promise<TQueueTicketRow[]> {
  const rows = await rowsOf(
    db,
    sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS}
      where q.msp_id = ${mspId} and ${eligibleFor(techId, tierRank, now)}
      order by q.tier_rank desc, q.rank_key desc limit ${limit} offset ${offset}`,
  );
  return rows.map(toTicketRow);
}

/** A-123: the technician's claimed and in-progress tickets, oldest claim first. */
export async function listWorkingTickets(db: TDatabase, mspId: string, techId: string): Promise<TQueueTicketRow[]> {
  const rows = await rowsOf(
    db,
    sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS}
      where q.msp_id = ${mspId} and q.assigned_tech_id = ${techId} and q.state in ('claimed', 'working')
      order by q.claimed_at asc nulls last, q.rank_key desc`,
  );
  return rows.map(toTicketRow);
}

export interface TQueueListFilter {
  boardId?: number | undefined;
  categoryId?: number | undefined;
  subCategoryId?: number | undefined;
  priorityId?: number | undefined;
  search?: string | undefined;
  sort: 'newest' | 'score';
  show: 'open' | 'all';
}

/** A-015: one page of the MSP's queue with the total. */
export async function listQueuePage(db: TDatabase, mspId: string, filter: TQueueListFilter, offset: number, limit: number): Promise<{ rows: TQueueTicketRow[]; total: number }> {
  const conditions: SQL[] = [sql`q.msp_id = ${mspId}`];
  if (filter.show === 'open') conditions.push(sql`q.state in ('queued', 'claimed', 'working')`);
  if (filter.boardId !== undefined) conditions.push(sql`q.board_id = ${filter.boardId}`);
  if (filter.categoryId !== undefined) conditions.push(sql`t.type_external_id = ${String(filter.categoryId)}`);
  if (filter.subCategoryId !== undefined) conditions.push(sql`t.subtype_external_id = ${String(filter.subCategoryId)}`);
  if (filter.priorityId !== undefined) conditions.push(sql`t.priority_external_id = ${String(filter.priorityId)}`);
  if (filter.search !== undefined && filter.search !== '') {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(t.summary ilike ${pattern} or t.ticket_number ilike ${pattern} or t.company_name ilike ${pattern} or q.psa_ticket_id::text = ${filter.search})`);
  }
  const where = sql.join(conditions, sql` and `);
  const order = filter.sort === 'newest' ? sql`q.ticket_created_at desc, q.id` : sql`q.tier_rank desc, q.rank_key desc`;
  const [countRow] = await rowsOf(db, sql`select count(*)::int as n from queue_tickets q join psa_tickets t on t.msp_id = q.msp_id and t.id = q.ticket_row_id where ${where}`);
  const rows = await rowsOf(db, sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS} where ${where} order by ${order} limit ${limit} offset ${offset}`);
  return { rows: rows.map(toTicketRow), total: Number(countRow?.n ?? 0) };
}

/** Display names of the MSP's users by id. */
export async function listUserNames(db: TDatabase, mspId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf(db, sql`select id, trim(first_name || ' ' || last_name) as name from users where msp_id = ${mspId} and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return new Map(rows.map((row) => [String(row.id), String(row.name)]));
}
