import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import type { TQueueTier } from '@switchboard/contracts';
import { QUEUE_WRITES } from './queue.psa-writes';
import { arrayLiteral, asText, iso, rowsOf } from './queue-sql';
import { TICKET_COLUMNS, TICKET_JOINS, toTicketRow, type TQueueTicketRow } from './queue-tickets.repository';

/** "Next" and "release": the technicians they are for, the claim statement, and handing claimed tickets back. */

/** A technician of the MSP (active or not), with what the queue needs. */
export interface TTechnicianRow {
  id: string;
  firstName: string;
  lastName: string;
  tierLevel: TQueueTier | null;
  psaMemberId: string | null;
  isActive: boolean;
}
/** A technician of the MSP (findTechnicians of one). */
export async function findTechnician(db: TDatabase, mspId: string, techId: string): Promise<TTechnicianRow | undefined> {
  const [row] = await findTechnicians(db, mspId, [techId]);
  return row;
}

/**
 * Technicians of the MSP by id, in one statement, in the order of `techIds`; undefined where none. No count of
 * their tickets: one read here is stale by the claim (decision 029), which counts them itself under a lock.
 */
export async function findTechnicians(db: TDatabase, mspId: string, techIds: string[]): Promise<(TTechnicianRow | undefined)[]> {
  const rows = await rowsOf(
    db,
    sql`select u.id, u.first_name, u.last_name, u.tier_level, u.psa_member_id, u.is_active
      from users u where u.msp_id = ${mspId} and u.id = any(${arrayLiteral(techIds)}::uuid[]) and u.kind = 'technician'`,
  );
  const byId = new Map<string, TTechnicianRow>(
    rows.map((row) => [
      String(row.id),
      {
        id: String(row.id),
        firstName: asText(row.first_name) ?? '',
        lastName: asText(row.last_name) ?? '',
        tierLevel: asText(row.tier_level) as TQueueTier | null,
        psaMemberId: asText(row.psa_member_id),
        isActive: row.is_active === true,
      },
    ]),
  );
  return techIds.map((techId) => byId.get(techId));
}

export interface TClaimInput {
  mspId: string;
  techId: string;
  tierRank: number;
  /** The most claimed and working tickets the technician may hold after the claim (the "next" limit). */
  limit: number;
  now: Date;
}

/** One technician's part of a batched claim. */
export interface TClaimRequest {
  techId: string;
  tierRank: number;
  /** Claims up to this many claimed and working tickets in all; what the technician holds already counts. */
  limit: number;
}

/**
 * "Next tickets" for several technicians of one MSP in ONE statement: each technician topped up to their
 * `limit` of claimed and working tickets from the top of the queue (queue_claim_up_to_limit, migration 0024:
 * each technician's lock, their tickets counted under it, then queue_claim_batch of migration 0017 — the
 * single-technician claim looped inside the statement, so no ticket goes to two technicians; rows other
 * sessions hold are skipped FOR UPDATE SKIP LOCKED, never waited on). Two calls for one technician that do
 * not share a batch (two tabs, two replicas, a PSA-linked technician's own transaction) never hold more than
 * `limit` together: the second waits for the first's commit and counts what it claimed. Order per technician:
 * own tier first, then lower tiers, then rank key — the partial index's order, so each walk stops early.
 * Answers each technician's tickets (the new ones, then the ones held before) in the order of `requests`.
 */
export async function claimNextTicketsBatch(db: TDatabase, mspId: string, requests: TClaimRequest[], now: Date): Promise<TQueueTicketRow[][]> {
  const techIds = sql`${arrayLiteral(requests.map((request) => request.techId))}::uuid[]`;
  const ranks = sql`${arrayLiteral(requests.map((request) => Math.floor(request.tierRank)))}::int[]`;
  const limits = sql`${arrayLiteral(requests.map((request) => Math.max(0, Math.floor(request.limit))))}::int[]`;
  // The function answers the held tickets itself, read after its lock: this statement's own snapshot is older
  // than the lock, so it would miss what a call the claim waited for had just claimed.
  const rows = await rowsOf(
    db,
    sql`with held as (select (c.ticket).*, c.is_new from queue_claim_up_to_limit(${mspId}, ${techIds}, ${ranks}, ${limits}, ${iso(now)}::timestamptz) c)
      select ${TICKET_COLUMNS}, q.is_new from held q ${TICKET_JOINS}`,
  );
  const byTech = new Map<string, TQueueTicketRow[]>();
  for (const row of rows.map(toTicketRow)) {
    const key = row.assignedTechId ?? '';
    byTech.set(key, [...(byTech.get(key) ?? []), row]);
  }
  // The new ones first, best first — the screen makes the first one active and starts its timer (R-294) — then the
  // ones the technician already had, oldest claim first.
  const order = (a: TQueueTicketRow, b: TQueueTicketRow) => {
    if ((a.isNew === true) !== (b.isNew === true)) return a.isNew === true ? -1 : 1;
    return a.isNew === true ? b.rankKey - a.rankKey : (a.claimedAt?.getTime() ?? 0) - (b.claimedAt?.getTime() ?? 0) || b.rankKey - a.rankKey;
  };
  return requests.map((request) => (byTech.get(request.techId) ?? []).sort(order));
}

/** "Next tickets" for one technician in one statement (claimNextTicketsBatch of one). */
export async function claimNextTickets(db: TDatabase, input: TClaimInput): Promise<TQueueTicketRow[]> {
  const [rows] = await claimNextTicketsBatch(db, input.mspId, [{ techId: input.techId, tierRank: input.tierRank, limit: input.limit }], input.now);
  return rows ?? [];
}

/** Released tickets: which technician had them, and what unassigning them in the PSA needs. */
export interface TReleasedTicket {
  id: string;
  psaTicketId: number;
  techId: string;
  /** The psa_tickets row (the outbox target). */
  ticketRowId: string;
  /** The board's new-ticket status name, for the unassign. */
  newStatusName: string | null;
  /** The queue assigned it in the PSA (its last ownership write is an assign, done or pending). */
  isAssignedInPsa: boolean;
}

/** Whether the queue assigned the ticket in the PSA (isAssignedInPsaByQueue in SQL): its last ownership write is an assign, done or pending. */
function assignedInPsaSql(mspId: string, ticketRowId: SQL): SQL {
  return sql`coalesce((select o.kind = ${QUEUE_WRITES.assign} and o.status <> 'failed' from psa_outbox o
          where o.msp_id = ${mspId} and o.target_type = 'ticket' and o.target_id = ${ticketRowId}::text
            and o.kind in (${QUEUE_WRITES.assign}, ${QUEUE_WRITES.unassign})
          order by o.seq desc limit 1), false)`;
}

/**
 * Technicians' release of the claimed tickets that need no PSA write (the queue never assigned them
 * there), for several technicians of one MSP in one statement without a transaction: technicians without
 * a PSA member hand back in one round trip, however many arrive together. Reports, per technician in the
 * order of `techIds`, how many went back and whether claimed tickets the queue did assign in the PSA are
 * left: those go back with releaseClaimedTickets in a transaction, beside their unassign write.
 */
export async function releaseTicketsNotAssignedInPsa(db: TDatabase, mspId: string, now: Date, techIds: string[]): Promise<{ released: number; hasAssignedInPsaLeft: boolean }[]> {
  const at = iso(now);
  const techs = sql`${arrayLiteral(techIds)}::uuid[]`;
  // Reads of this statement see the rows as they were before its update: `has_assigned_left` looks at
  // the claimed tickets it does not release because the PSA must hear of them.
  const rows = await rowsOf(
    db,
    sql`with candidates as (
        select q.id, q.assigned_tech_id as tech_id from queue_tickets q
        where q.msp_id = ${mspId} and q.state = 'claimed' and q.assigned_tech_id = any(${techs})
          and not ${assignedInPsaSql(mspId, sql.raw('q.ticket_row_id'))}
        for update of q skip locked
      ), released as (
        update queue_tickets q set state = 'queued', claimed_at = null,
          assigned_tech_id = case when q.is_reserved then q.assigned_tech_id else null end, updated_at = ${at}::timestamptz
        from candidates c where q.msp_id = ${mspId} and q.id = c.id
        returning q.id, c.tech_id
      ), events as (
        insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, at)
        select ${mspId}, id, tech_id, 'released', ${at}::timestamptz from released
      )
      select t.tech_id,
        (select count(*)::int from released r where r.tech_id = t.tech_id) as released,
        exists (select 1 from queue_tickets q where q.msp_id = ${mspId} and q.state = 'claimed' and q.assigned_tech_id = t.tech_id
          and ${assignedInPsaSql(mspId, sql.raw('q.ticket_row_id'))}) as has_assigned_left
      from unnest(${techs}) as t(tech_id)`,
  );
  const byTech = new Map(rows.map((row) => [String(row.tech_id), { released: Number(row.released ?? 0), hasAssignedInPsaLeft: row.has_assigned_left === true }]));
  return techIds.map((techId) => byTech.get(techId) ?? { released: 0, hasAssignedInPsaLeft: false });
}

/** Whether the user has a session that is neither signed out nor expired at `now` (the release on sign-out's test). */
function liveSessionSql(mspId: SQL, userId: SQL, now: Date): SQL {
  return sql`exists (select 1 from sessions se where se.msp_id = ${mspId} and se.user_id = ${userId} and se.revoked_at is null and se.expires_at > ${iso(now)}::timestamptz)`;
}

/** Whether the technician is signed in (a live session) at `now`: without one, the release on sign-out hands their claims back. */
export async function hasLiveSession(db: TDatabase, mspId: string, userId: string, now: Date): Promise<boolean> {
  const [row] = await rowsOf(db, sql`select ${liveSessionSql(sql`${mspId}::uuid`, sql`${userId}::uuid`, now)} as is_live`);
  return row?.is_live === true;
}

/**
 * Puts claimed but unstarted tickets back in the queue: those of one technician (`techId`), or,
 * for the sweep, those whose technician signed out (no live session) or has been idle (no claim
 * and no timer activity for `idleMinutes`). A reserved ticket stays reserved for its technician.
 */
export async function releaseClaimedTickets(
  db: TDatabase,
  mspId: string,
  now: Date,
  scope: { techId: string } | { idleMinutes: number; releaseOnSignOut: boolean },
): Promise<TReleasedTicket[]> {
  const at = iso(now);
  let which: SQL;
  if ('techId' in scope) {
    which = sql`q.assigned_tech_id = ${scope.techId}`;
  } else {
    const reasons: SQL[] = [];
    if (scope.idleMinutes > 0) {
      const since = iso(new Date(now.getTime() - scope.idleMinutes * 60_000));
      reasons.push(sql`(q.claimed_at < ${since}::timestamptz
        and not exists (select 1 from queue_tickets o where o.msp_id = q.msp_id and o.assigned_tech_id = q.assigned_tech_id and o.claimed_at >= ${since}::timestamptz)
        and not exists (select 1 from queue_timer_sessions s where s.msp_id = q.msp_id and s.tech_id = q.assigned_tech_id and (s.ended_at is null or s.ended_at >= ${since}::timestamptz)))`);
    }
    if (scope.releaseOnSignOut) reasons.push(sql`not ${liveSessionSql(sql.raw('q.msp_id'), sql.raw('q.assigned_tech_id'), now)}`);
    if (reasons.length === 0) return [];
    which = sql`(${sql.join(reasons, sql` or `)})`;
  }
  const rows = await rowsOf(
    db,
    sql`with candidates as (
        select q.id, q.assigned_tech_id as tech_id from queue_tickets q
        where q.msp_id = ${mspId} and q.state = 'claimed' and ${which}
        for update of q skip locked
      ), released as (
        update queue_tickets q set state = 'queued', claimed_at = null,
          assigned_tech_id = case when q.is_reserved then q.assigned_tech_id else null end, updated_at = ${at}::timestamptz
        from candidates c where q.msp_id = ${mspId} and q.id = c.id
        returning q.id, q.psa_ticket_id, q.ticket_row_id, q.board_id, c.tech_id
      ), events as (
        insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, at)
        select ${mspId}, id, tech_id, 'released', ${at}::timestamptz from released
      )
      -- In the same statement, what the unassigns need (one round trip however many were released).
      select r.id, r.psa_ticket_id, r.ticket_row_id, r.tech_id,
        (select bc.new_status_name from board_configs bc join integrations i on i.msp_id = bc.msp_id and i.psa_type = bc.psa_type
          where bc.msp_id = ${mspId} and bc.board_id = r.board_id limit 1) as new_status_name,
        ${assignedInPsaSql(mspId, sql.raw('r.ticket_row_id'))} as is_assigned_in_psa
      from released r`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    psaTicketId: Number(row.psa_ticket_id),
    techId: String(row.tech_id),
    ticketRowId: String(row.ticket_row_id),
    newStatusName: asText(row.new_status_name),
    isAssignedInPsa: row.is_assigned_in_psa === true,
  }));
}
