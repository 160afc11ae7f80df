import { sql, type SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import type { TQueueSettings } from '@switchboard/contracts';
import { DEFAULT_RANK_SLA_HOURS } from './queue.scoring';
import { QUEUE_WRITES } from './queue.psa-writes';
import { iso, rowsOf } from './queue-sql';

/** The reason of the 'closed' queue event of a row taken out of the queue for leaving the configured boards. */
const OFF_BOARD_REASON = 'offBoard';
/** The reason of the 'reopened' queue event of a row closed here whose close the PSA refused and an admin discarded. */
const CLOSE_DISCARDED_REASON = 'closeDiscarded';

/** The queue kept up to date with the ticket copies (queue.maintenance.ts runs it), and re-ranked when the weights change. */

/** The rank key in SQL (queue.scoring.ts rankKey): `due` and `created` are timestamptz expressions. */
function rankKeySql(settings: TQueueSettings, priority: SQL, subtype: SQL, due: SQL, created: SQL): SQL {
  return sql`(${settings.priorityWeight}::float8 * ${priority} + ${settings.subtypeWeight}::float8 * ${subtype}
    - ${settings.slaWeight}::float8 * (extract(epoch from ${due}) / 3600.0)
    - ${settings.ageWeight}::float8 * (extract(epoch from ${created}) / 3600.0))::float8`;
}

/**
 * Brings the queue up to date with the ticket copies: every open copy of a configured board of the
 * MSP's current PSA gets a queue row (scores, tier and SLA from the board configuration); rows of
 * tickets that are still open get their scores refreshed (a requeue's tier stays), and closed rows of tickets
 * reopened in the PSA are queued again. Tickets closed in the PSA are closed by `closeTicketsClosedInPsa`.
 * Returns how many rows were inserted or changed.
 */
export async function refreshQueue(db: TDatabase, mspId: string, settings: TQueueSettings, now: Date, changedSince: Date | null): Promise<number> {
  const created = sql.raw('src.created');
  const due = sql.raw(`src.created + coalesce(src.sla_hours, ${DEFAULT_RANK_SLA_HOURS}) * interval '1 hour'`);
  const sourceOf = (changedFilterSlot: SQL) => sql`src as (
      select s.*,
        case s.tier when 'Tier1' then 1 when 'Tier2' then 2 when 'Tier3' then 3 else 4 end as tier_rank,
        case when s.sla_hours is null then null else s.created + s.sla_hours * interval '1 hour' end as sla_due_at
      from (
        select t.msp_id, t.id as ticket_row_id, t.external_id::int as psa_ticket_id, bc.board_id,
          coalesce(st.tier, 'Tier1') as tier,
          coalesce(bp.priority_score, st.priority_score, 0) as priority_score,
          coalesce(st.subtype_score, 0) as subtype_score,
          st.sla_hours,
          coalesce(t.psa_created_at, t.synced_at) as created,
          t.synced_at as copy_synced_at
        from psa_tickets t
        join integrations i on i.msp_id = t.msp_id and i.psa_type = t.psa_type
        join board_configs bc on bc.msp_id = t.msp_id and bc.psa_type = t.psa_type and t.board_external_id = bc.board_id::text
        left join board_subtypes st on st.msp_id = t.msp_id and st.psa_type = t.psa_type and st.board_id = bc.board_id
          and st.type_id::text = t.type_external_id and st.subtype_id::text = t.subtype_external_id
        left join board_priorities bp on bp.msp_id = t.msp_id and bp.psa_type = t.psa_type and bp.board_id = bc.board_id
          and bp.priority_id::text = t.priority_external_id
        where t.msp_id = ${mspId} and not t.is_closed and t.external_id ~ '^[0-9]{1,9}$' ${changedFilterSlot}
      ) s
    )`;
  const key = rankKeySql(settings, sql.raw('src.priority_score'), sql.raw('src.subtype_score'), due, created);
  // Only copies or boards changed since the last pass are compared (a full pass when `changedSince` is null).
  // A board configuration rarely changes: a cheap look at the MSP's boards decides whether the pass needs
  // the board clause at all, so the usual pass is `synced_at >= …` alone, which psa_tickets_synced_idx
  // answers without reading every copy of the MSP (the OR with a joined column cannot use an index).
  const changedFilter =
    changedSince === null
      ? sql``
      : (await hasBoardConfigChangedSince(db, mspId, changedSince))
        ? sql`and (t.synced_at >= ${iso(changedSince)}::timestamptz or bc.updated_at >= ${iso(changedSince)}::timestamptz)`
        : sql`and t.synced_at >= ${iso(changedSince)}::timestamptz`;
  // New copies: inserted; existing rows are only probed in the unique index, never locked or rewritten
  // (DO NOTHING), so no row a claim wants is held here. (An anti-join against queue_tickets would rescan
  // the rows this very statement inserts, quadratic on a first pass over a large MSP.)
  const inserted = await rowsOf(
    db,
    sql`with ${sourceOf(changedFilter)}
    insert into queue_tickets (msp_id, ticket_row_id, psa_ticket_id, board_id, tier, tier_rank, priority_score, subtype_score,
      sla_hours, sla_due_at, ticket_created_at, rank_key, state, updated_at)
    select src.msp_id, src.ticket_row_id, src.psa_ticket_id, src.board_id, src.tier, src.tier_rank, src.priority_score, src.subtype_score,
      src.sla_hours, src.sla_due_at, src.created, ${key}, 'queued', ${iso(now)}::timestamptz
    from src
    on conflict (msp_id, ticket_row_id) do nothing
    returning id`,
  );
  // A bulk insert (first pass over a large MSP) leaves the planner's row estimates stale: refresh them.
  if (inserted.length > 1000) await db.execute(sql`analyze queue_tickets`);
  // The SLA clock of an existing row starts where its due time and hours put it: at the ticket's creation, or at its
  // reopen in the PSA (below), which a later refresh (new SLA hours, a new priority) must not move back to creation.
  const slaStartOfRow = sql.raw(`greatest(src.created, q.sla_due_at - q.sla_hours * interval '1 hour')`);
  // What a refresh sets from the source row, in the update and the reopen below (a requeue's pinned tier stays), the
  // SLA counted from `slaStart`; without SLA hours the rank's due time is counted from creation, as rerankQueue does.
  const rescoredFrom = (slaStart: SQL) => {
    const slaDue = sql`case when src.sla_hours is null then null else ${slaStart} + src.sla_hours * interval '1 hour' end`;
    const rankDue = sql`coalesce(${slaDue}, src.created + ${DEFAULT_RANK_SLA_HOURS} * interval '1 hour')`;
    const rankKey = rankKeySql(settings, sql.raw('src.priority_score'), sql.raw('src.subtype_score'), rankDue, created);
    return {
      key: rankKey,
      set: sql`
      board_id = src.board_id,
      tier = case when q.is_tier_pinned then q.tier else src.tier end,
      tier_rank = case when q.is_tier_pinned then q.tier_rank else src.tier_rank end,
      priority_score = src.priority_score, subtype_score = src.subtype_score, sla_hours = src.sla_hours,
      sla_due_at = ${slaDue}, ticket_created_at = src.created, rank_key = ${rankKey}, updated_at = ${iso(now)}::timestamptz`,
    };
  };
  const rescored = rescoredFrom(slaStartOfRow);
  // Changed configuration or copy: only rows whose values differ are updated (and locked); a
  // requeue's tier stays.
  const changed = await rowsOf(
    db,
    sql`with ${sourceOf(changedFilter)}
    update queue_tickets q set ${rescored.set}
    from src
    where q.msp_id = ${mspId} and q.ticket_row_id = src.ticket_row_id and q.state in ('queued', 'claimed', 'working')
      and (q.board_id, q.priority_score, q.subtype_score, q.sla_hours, q.ticket_created_at, q.rank_key, q.tier)
        is distinct from (src.board_id, src.priority_score, src.subtype_score, src.sla_hours, src.created, ${rescored.key}, case when q.is_tier_pinned then q.tier else src.tier end)
    returning q.id`,
  );
  // Reopened in the PSA: a closed row whose copy is open again (on a configured board) goes back to the queue, for
  // anyone, scored afresh. Not a row closed here (A-113 logs a 'closed' event at its closed_at) until the PSA shows
  // it open after that close's write landed: while the write is pending, or the copy was read before it landed, an
  // open copy only means the PSA has not heard of the close yet (a failed close keeps the row closed too, for the
  // integrations screen's resend). Once an admin discards that failed close (the latest one stored at or after the
  // row's close; review s29 #2), nobody will close it in the PSA, where it is open: it comes back too.
  // A reopen restarts the SLA clock, as a help desk counts it: due the subtype's hours after the reopen (when the sync
  // read the copy open), not after creation, which put the ticket back already breached and alerted at 100 % at once.
  // Its earlier alerts belong to the SLA that ended with the close: they go (their mails and read marks with them), so
  // they neither stand for the new ones (once per ticket, technician and threshold) nor show on a list again. The reopen
  // is kept in the ticket's queue events. A row that was never closed in the PSA keeps the SLA it had and its alerts:
  // one that only left the configured boards (closeTicketsOffConfiguredBoards) and is back on one, or one whose close
  // the PSA refused and an admin discarded (its reopen is logged with that reason).
  const reopenedAt = sql`least(src.copy_synced_at, ${iso(now)}::timestamptz)`;
  const reopenedSla = rescoredFrom(sql`case when c.is_board_return or c.is_close_discarded then ${slaStartOfRow} else ${reopenedAt} end`);
  const reopened = await rowsOf(
    db,
    sql`with ${sourceOf(changedFilter)},
    closed_rows as (
      select q.id,
        exists (select 1 from queue_events e where e.msp_id = q.msp_id and e.queue_ticket_id = q.id and e.kind = 'closed'
          and e.at = q.closed_at and e.details ->> 'reason' = ${OFF_BOARD_REASON}) as is_board_return,
        exists (select 1 from queue_events e where e.msp_id = q.msp_id and e.queue_ticket_id = q.id and e.kind = 'closed'
          and e.at = q.closed_at and e.tech_id is not null) as is_closed_here,
        exists (select 1 from psa_outbox o where o.msp_id = q.msp_id and o.target_type = 'ticket' and o.target_id = q.ticket_row_id::text
          and o.kind = ${QUEUE_WRITES.close} and o.status = 'done' and o.created_at >= q.closed_at and src.copy_synced_at > o.done_at) as is_close_landed,
        coalesce((select o.status = 'failed' and o.discarded_at is not null from psa_outbox o
          where o.msp_id = q.msp_id and o.target_type = 'ticket' and o.target_id = q.ticket_row_id::text
            and o.kind = ${QUEUE_WRITES.close} and o.created_at >= q.closed_at
          order by o.seq desc limit 1), false) as is_close_discarded
      from queue_tickets q join src on q.ticket_row_id = src.ticket_row_id
      where q.msp_id = ${mspId} and q.state = 'closed'
    ), candidates as (
      select id, is_board_return, is_close_discarded from closed_rows where not is_closed_here or is_close_landed or is_close_discarded
    ), reopened as (
      update queue_tickets q set
        state = 'queued', closed_at = null, completed_at = null, assigned_tech_id = null, is_reserved = false,
        hold_until = null, claimed_at = null, started_at = null, ${reopenedSla.set}
      from src, candidates c
      where q.msp_id = ${mspId} and q.id = c.id and q.ticket_row_id = src.ticket_row_id and q.state = 'closed'
      returning q.id, q.sla_due_at, c.is_board_return, c.is_close_discarded
    ), earlier_alerts as (
      delete from sla_alerts a using reopened r where a.msp_id = ${mspId} and a.queue_ticket_id = r.id and not r.is_board_return and not r.is_close_discarded
    ), logged as (
      insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, details, at)
      select ${mspId}, r.id, null, 'reopened',
        case when r.is_close_discarded then jsonb_build_object('slaDueAt', r.sla_due_at, 'reason', ${CLOSE_DISCARDED_REASON}::text) else jsonb_build_object('slaDueAt', r.sla_due_at) end,
        ${iso(now)}::timestamptz
      from reopened r where not r.is_board_return
    )
    select id from reopened`,
  );
  return inserted.length + changed.length + reopened.length;
}

/**
 * Closes the queue rows of tickets closed in the PSA (their copies changed since `changedSince`, or all when null), in
 * the caller's transaction, which completes the timers left on them (timers.service completeTimersOfClosedTickets).
 * Returns the ids of the rows it closed.
 */
export async function closeTicketsClosedInPsa(tx: TDatabase, mspId: string, now: Date, changedSince: Date | null): Promise<string[]> {
  const rows = await rowsOf(
    tx,
    sql`update queue_tickets q set state = 'closed', closed_at = coalesce(t.psa_closed_at, ${iso(now)}::timestamptz), updated_at = ${iso(now)}::timestamptz
      from psa_tickets t
      where q.msp_id = ${mspId} and t.msp_id = q.msp_id and t.id = q.ticket_row_id and t.is_closed and q.state in ('queued', 'claimed', 'working', 'completed')
        ${changedSince === null ? sql`` : sql`and t.synced_at >= ${iso(changedSince)}::timestamptz`}
      returning q.id`,
  );
  return rows.map((row) => String(row.id));
}

/**
 * Takes queued rows (reserved ones too) whose copy is on a board the MSP has not configured (moved in the PSA, or the
 * board's configuration removed) out of the queue, in the caller's transaction: closed, as `closeTicketsClosedInPsa`
 * closes a ticket that left, so `refreshQueue` queues it again if its board is configured again. Claimed and working
 * rows stay with their technician, who is working on them. Like the close, only copies changed since `changedSince`
 * (null: all, on the upkeep's full pass, which also catches a board whose configuration was removed). Returns the ids
 * of the rows it closed.
 */
export async function closeTicketsOffConfiguredBoards(tx: TDatabase, mspId: string, now: Date, changedSince: Date | null): Promise<string[]> {
  // Kept as a 'closed' event with its reason and no technician, so that `refreshQueue` tells the ticket's return to a
  // configured board (its SLA runs on) from a reopen in the PSA (its SLA restarts).
  const rows = await rowsOf(
    tx,
    sql`with closed as (
        update queue_tickets q set state = 'closed', closed_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
        from psa_tickets t
        where q.msp_id = ${mspId} and q.state = 'queued' and t.msp_id = q.msp_id and t.id = q.ticket_row_id
          ${changedSince === null ? sql`` : sql`and t.synced_at >= ${iso(changedSince)}::timestamptz`}
          and not exists (select 1 from board_configs bc where bc.msp_id = t.msp_id and bc.psa_type = t.psa_type and bc.board_id::text = t.board_external_id)
        returning q.id
      ), logged as (
        insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, details, at)
        select ${mspId}, c.id, null, 'closed', jsonb_build_object('reason', ${OFF_BOARD_REASON}::text), ${iso(now)}::timestamptz from closed c
      )
      select id from closed`,
  );
  return rows.map((row) => String(row.id));
}

/** Whether any board configuration of the MSP changed at or after `since` (one primary-key range read). */
async function hasBoardConfigChangedSince(db: TDatabase, mspId: string, since: Date): Promise<boolean> {
  const rows = await rowsOf(db, sql`select 1 from board_configs where msp_id = ${mspId} and updated_at >= ${iso(since)}::timestamptz limit 1`);
  return rows.length > 0;
}

/** Recomputes every open row's rank key after the weights changed. */
export async function rerankQueue(db: TDatabase, mspId: string, settings: TQueueSettings): Promise<void> {
  const due = sql.raw(`coalesce(q.sla_due_at, q.ticket_created_at + ${DEFAULT_RANK_SLA_HOURS} * interval '1 hour')`);
  await db.execute(
    sql`update queue_tickets q set rank_key = ${rankKeySql(settings, sql.raw('q.priority_score'), sql.raw('q.subtype_score'), due, sql.raw('q.ticket_created_at'))}
      where q.msp_id = ${mspId} and q.state in ('queued', 'claimed', 'working')`,
  );
}
