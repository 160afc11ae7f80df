import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import { asDate, iso, rowsOf } from './queue-sql';

/** The queue's history: events (claimed, released, completed …), hand-backs, and the completions read from the events. */

/** Whether the technician handed this ticket back recently (not offered again until then). */
export async function isRejectedBy(db: TDatabase, mspId: string, queueTicketId: string, techId: string, now: Date): Promise<boolean> {
  const rows = await rowsOf(db, sql`select 1 from queue_rejections where msp_id = ${mspId} and queue_ticket_id = ${queueTicketId} and tech_id = ${techId} and until > ${iso(now)}::timestamptz limit 1`);
  return rows.length > 0;
}

/** `reopened` is written by the upkeep (queue-upkeep.repository refreshQueue) when the PSA reopens a closed ticket. */
export type TQueueEventKind = 'claimed' | 'picked' | 'released' | 'rejected' | 'requeued' | 'completed' | 'incomplete' | 'closed' | 'edited' | 'reopened';

export async function insertQueueEvent(db: TDatabase, mspId: string, queueTicketId: string, techId: string | null, kind: TQueueEventKind, at: Date, details: Record<string, unknown> = {}): Promise<void> {
  await db.execute(
    sql`insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, details, at) values (${mspId}, ${queueTicketId}, ${techId}, ${kind}, ${JSON.stringify(details)}::jsonb, ${iso(at)}::timestamptz)`,
  );
}

export async function insertRejection(db: TDatabase, mspId: string, queueTicketId: string, techId: string, reason: string, now: Date, until: Date): Promise<void> {
  await db.execute(
    sql`insert into queue_rejections (msp_id, queue_ticket_id, tech_id, reason, created_at, until) values (${mspId}, ${queueTicketId}, ${techId}, ${reason}, ${iso(now)}::timestamptz, ${iso(until)}::timestamptz)`,
  );
}

/** A technician's completion of a queue ticket, with the SLA due time it was measured against. */
export interface TCompletionRow {
  queueTicketId: string;
  techId: string;
  completedAt: Date;
  slaDueAt: Date | null;
}

/** The completion event `e` was not undone by a mark incomplete (decisions #18) before the ticket's next completion. */
const COMPLETION_STANDS = sql`not exists (
    select 1 from queue_events u
    where u.msp_id = e.msp_id and u.queue_ticket_id = e.queue_ticket_id and u.kind = 'incomplete' and u.at >= e.at
      and not exists (
        select 1 from queue_events c
        where c.msp_id = e.msp_id and c.queue_ticket_id = e.queue_ticket_id and c.kind = 'completed' and c.at > e.at and c.at <= u.at))`;

/**
 * Completions in [from, to), of the MSP or one technician, oldest first, read from the `completed` queue events: the
 * ticket row's completed_at and assigned_tech_id are cleared by a reopen in the PSA, which must not rewrite a past day.
 * A completion undone by a mark incomplete (decisions #18) before the ticket's next completion does not count. The SLA
 * due time is the one the event kept at completion; an event written before events kept it falls back to the ticket's
 * current one. The day's events come from queue_events_at_idx (msp_id, at), each ticket's later ones from
 * queue_events_ticket_idx (msp_id, queue_ticket_id).
 */
export async function listCompletionsBetween(db: TDatabase, mspId: string, from: Date, to: Date, techId?: string): Promise<TCompletionRow[]> {
  const rows = await rowsOf(
    db,
    sql`select e.queue_ticket_id, e.tech_id, e.at,
        case when e.details -> 'slaDueAt' is not null then (e.details ->> 'slaDueAt')::timestamptz else q.sla_due_at end as sla_due_at
      from queue_events e
      join queue_tickets q on q.msp_id = e.msp_id and q.id = e.queue_ticket_id
      where e.msp_id = ${mspId} and e.at >= ${iso(from)}::timestamptz and e.at < ${iso(to)}::timestamptz
        and e.kind = 'completed' and e.tech_id is not null ${techId ? sql`and e.tech_id = ${techId}` : sql``}
        and ${COMPLETION_STANDS}
      order by e.at`,
  );
  return rows.map((row) => ({ queueTicketId: String(row.queue_ticket_id), techId: String(row.tech_id), completedAt: asDate(row.at) ?? from, slaDueAt: asDate(row.sla_due_at) }));
}

/**
 * The latest instant before `before` at which work was recorded (of the MSP, or of one technician): the last moment of a
 * timer session (one still running counts until `now`), or a completion that stands, as the activities reads count
 * them (listSessionsBetween, listCompletionsBetween), so the day it falls on shows that work. A session's end is
 * exclusive (one ended at midnight is not the next day's), hence the microsecond before it, never before its start.
 * Null when there is none.
 * Read without walking every earlier session (review s29 #3): the latest start before `before` first
 * (queue_timer_sessions_started_idx, newest first, one row); only a session that started then, or one that started
 * earlier and was still going after that start (running: the running-session index; ended after it:
 * queue_timer_sessions_ended_idx), can end later. The latest standing completion comes from queue_events_at_idx,
 * newest first.
 */
export async function findLatestWorkBefore(db: TDatabase, mspId: string, before: Date, now: Date, techId?: string): Promise<Date | null> {
  const ofSessions = techId ? sql`and s.tech_id = ${techId}` : sql``;
  const ofEvents = techId ? sql`and e.tech_id = ${techId}` : sql``;
  const beforeAt = sql`${iso(before)}::timestamptz`;
  const [latest] = await rowsOf(
    db,
    sql`select s.started_at from queue_timer_sessions s where s.msp_id = ${mspId} and s.started_at < ${beforeAt} ${ofSessions} order by s.started_at desc limit 1`,
  );
  const latestStart = asDate(latest?.started_at);
  // Passed as a value, not a subquery, so the planner weighs the ended-after range by its real bound (a start read to the
  // millisecond only widens the first range, so no session is missed).
  const lastMoment = sql`greatest(s.started_at, least(coalesce(s.ended_at, ${iso(now)}::timestamptz), ${beforeAt}) - interval '1 microsecond')`;
  const ofLatestSessions = (where: SQL) => sql`(select max(${lastMoment}) from queue_timer_sessions s where s.msp_id = ${mspId} and ${where} ${ofSessions})`;
  const fromSessions =
    latestStart === null
      ? sql`null::timestamptz`
      : sql`greatest(
          ${ofLatestSessions(sql`s.started_at >= ${iso(latestStart)}::timestamptz and s.started_at < ${beforeAt}`)},
          ${ofLatestSessions(sql`s.ended_at is null and s.started_at < ${iso(latestStart)}::timestamptz`)},
          ${ofLatestSessions(sql`s.ended_at > ${iso(latestStart)}::timestamptz and s.started_at < ${iso(latestStart)}::timestamptz`)})`;
  const rows = await rowsOf(
    db,
    sql`select greatest(${fromSessions},
        (select e.at from queue_events e
          where e.msp_id = ${mspId} and e.at < ${beforeAt} and e.kind = 'completed' and e.tech_id is not null ${ofEvents}
            and ${COMPLETION_STANDS}
          order by e.at desc limit 1)) as at`,
  );
  return asDate(rows[0]?.at);
}
