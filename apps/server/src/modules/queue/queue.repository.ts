import { eq, sql, type SQL } from 'drizzle-orm';
import { queueSettings, type TDatabase } from '@switchboard/db';
import type { TQueueSettings, TQueueState, TQueueTier } from '@switchboard/contracts';
import { DEFAULT_QUEUE_SETTINGS, DEFAULT_RANK_SLA_HOURS } from './queue.scoring';
import { QUEUE_WRITES } from './queue.psa-writes';

/**
 * Queue SQL (issue #10). Raw SQL where the claim must be one statement (FOR UPDATE SKIP LOCKED in a
 * data-modifying CTE) and where set-based work (refresh, release) is cheaper than row-by-row.
 * Every statement is scoped by msp_id first.
 */

type TRow = Record<string, unknown>;
async function rowsOf(db: TDatabase, query: SQL): Promise<TRow[]> {
  // node-postgres and PGlite both answer { rows }.
  const result: unknown = await db.execute<TRow>(query);
  return (result as { rows: TRow[] }).rows;
}
const iso = (date: Date) => date.toISOString();
/** A PostgreSQL array literal of uuids or integers (values validated before: zod uuids, ids read from the database, numbers). */
const arrayLiteral = (values: (string | number)[]) => `{${values.join(',')}}`;

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
const TICKET_COLUMNS = sql.raw(`
  q.msp_id, q.id, q.ticket_row_id, q.psa_ticket_id, t.ticket_number, t.company_name, t.contact_name, t.summary, t.description,
  t.type_external_id, t.type_name, t.subtype_external_id, t.subtype_name, q.board_id, t.board_name,
  t.priority_external_id, t.priority_name, t.status_external_id, t.status_name, q.impact, q.severity,
  q.tier, q.state, q.sla_hours, q.sla_due_at, q.ticket_created_at, q.assigned_tech_id,
  case when u.id is null then null else trim(u.first_name || ' ' || u.last_name) end as assigned_tech_name,
  q.is_reserved, q.claimed_at, q.started_at, q.hold_until, q.completed_at, q.closed_at, q.rank_key`);
const TICKET_JOINS = sql.raw(`
  join psa_tickets t on t.msp_id = q.msp_id and t.id = q.ticket_row_id
  left join users u on u.msp_id = q.msp_id and u.id = q.assigned_tech_id`);

const asDate = (value: unknown): Date | null => (value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null);
const asText = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : null);

function toTicketRow(row: TRow): TQueueTicketRow {
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

/** The MSP's queue settings (defaults until an admin saves). */
export async function findQueueSettings(db: TDatabase, mspId: string): Promise<TQueueSettings> {
  const [row] = await db.select().from(queueSettings).where(eq(queueSettings.mspId, mspId)).limit(1);
  if (!row) return DEFAULT_QUEUE_SETTINGS;
  return {
    priorityWeight: row.priorityWeight,
    subtypeWeight: row.subtypeWeight,
    slaWeight: row.slaWeight,
    ageWeight: row.ageWeight,
    rejectCooldownMinutes: row.rejectCooldownMinutes,
    idleReleaseMinutes: row.idleReleaseMinutes,
    releaseOnSignOut: row.releaseOnSignOut,
    timeZone: row.timeZone,
  };
}

/** The MSP's working-day time zone (queue settings), whose midnight flags a timer session. */
export async function queueTimeZoneOf(db: TDatabase, mspId: string): Promise<string> {
  const [row] = await db.select({ timeZone: queueSettings.timeZone }).from(queueSettings).where(eq(queueSettings.mspId, mspId)).limit(1);
  return row?.timeZone ?? DEFAULT_QUEUE_SETTINGS.timeZone;
}

export async function saveQueueSettings(db: TDatabase, mspId: string, settings: TQueueSettings, now: Date): Promise<void> {
  await db
    .insert(queueSettings)
    .values({ mspId, ...settings, updatedAt: now })
    .onConflictDoUpdate({ target: queueSettings.mspId, set: { ...settings, updatedAt: now } });
}

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
  // What a refresh sets from the source row, in the update and the reopen below (a requeue's pinned tier stays).
  const rescored = sql`
      board_id = src.board_id,
      tier = case when q.is_tier_pinned then q.tier else src.tier end,
      tier_rank = case when q.is_tier_pinned then q.tier_rank else src.tier_rank end,
      priority_score = src.priority_score, subtype_score = src.subtype_score, sla_hours = src.sla_hours,
      sla_due_at = src.sla_due_at, ticket_created_at = src.created, rank_key = ${key}, updated_at = ${iso(now)}::timestamptz`;
  // Changed configuration or copy: only rows whose values differ are updated (and locked); a
  // requeue's tier stays.
  const changed = await rowsOf(
    db,
    sql`with ${sourceOf(changedFilter)}
    update queue_tickets q set ${rescored}
    from src
    where q.msp_id = ${mspId} and q.ticket_row_id = src.ticket_row_id and q.state in ('queued', 'claimed', 'working')
      and (q.board_id, q.priority_score, q.subtype_score, q.sla_hours, q.ticket_created_at, q.rank_key, q.tier)
        is distinct from (src.board_id, src.priority_score, src.subtype_score, src.sla_hours, src.created, ${key}, case when q.is_tier_pinned then q.tier else src.tier end)
    returning q.id`,
  );
  // Reopened in the PSA: a closed row whose copy is open again (on a configured board) goes back to the queue, for
  // anyone, scored afresh. Not a row closed here (A-113 logs a 'closed' event at its closed_at) until the PSA shows
  // it open after that close's write landed: while the write is pending, or the copy was read before it landed, an
  // open copy only means the PSA has not heard of the close yet (a failed close keeps the row closed too, for the
  // integrations screen's resend).
  const reopened = await rowsOf(
    db,
    sql`with ${sourceOf(changedFilter)}
    update queue_tickets q set
      state = 'queued', closed_at = null, completed_at = null, assigned_tech_id = null, is_reserved = false,
      hold_until = null, claimed_at = null, started_at = null, ${rescored}
    from src
    where q.msp_id = ${mspId} and q.ticket_row_id = src.ticket_row_id and q.state = 'closed'
      and (not exists (select 1 from queue_events e where e.msp_id = q.msp_id and e.queue_ticket_id = q.id and e.kind = 'closed' and e.at = q.closed_at)
        or exists (select 1 from psa_outbox o where o.msp_id = q.msp_id and o.target_type = 'ticket' and o.target_id = q.ticket_row_id::text
          and o.kind = ${QUEUE_WRITES.close} and o.status = 'done' and o.created_at >= q.closed_at and src.copy_synced_at > o.done_at))
    returning q.id`,
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
  const rows = await rowsOf(
    tx,
    sql`update queue_tickets q set state = 'closed', closed_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
      from psa_tickets t
      where q.msp_id = ${mspId} and q.state = 'queued' and t.msp_id = q.msp_id and t.id = q.ticket_row_id
        ${changedSince === null ? sql`` : sql`and t.synced_at >= ${iso(changedSince)}::timestamptz`}
        and not exists (select 1 from board_configs bc where bc.msp_id = t.msp_id and bc.psa_type = t.psa_type and bc.board_id::text = t.board_external_id)
      returning q.id`,
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

/** Whether the technician handed this ticket back recently (not offered again until then). */
export async function isRejectedBy(db: TDatabase, mspId: string, queueTicketId: string, techId: string, now: Date): Promise<boolean> {
  const rows = await rowsOf(db, sql`select 1 from queue_rejections where msp_id = ${mspId} and queue_ticket_id = ${queueTicketId} and tech_id = ${techId} and until > ${iso(now)}::timestamptz limit 1`);
  return rows.length > 0;
}

export type TQueueEventKind = 'claimed' | 'picked' | 'released' | 'rejected' | 'requeued' | 'completed' | 'incomplete' | 'closed' | 'edited';

export async function insertQueueEvent(db: TDatabase, mspId: string, queueTicketId: string, techId: string | null, kind: TQueueEventKind, at: Date, details: Record<string, unknown> = {}): Promise<void> {
  await db.execute(
    sql`insert into queue_events (msp_id, queue_ticket_id, tech_id, kind, details, at) values (${mspId}, ${queueTicketId}, ${techId}, ${kind}, ${JSON.stringify(details)}::jsonb, ${iso(at)}::timestamptz)`,
  );
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

export async function insertRejection(db: TDatabase, mspId: string, queueTicketId: string, techId: string, reason: string, now: Date, until: Date): Promise<void> {
  await db.execute(
    sql`insert into queue_rejections (msp_id, queue_ticket_id, tech_id, reason, created_at, until) values (${mspId}, ${queueTicketId}, ${techId}, ${reason}, ${iso(now)}::timestamptz, ${iso(until)}::timestamptz)`,
  );
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

/** Queue tickets by id (the activities reads). */
export async function listTicketsByIds(db: TDatabase, mspId: string, ids: string[]): Promise<TQueueTicketRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsOf(db, sql`select ${TICKET_COLUMNS} from queue_tickets q ${TICKET_JOINS} where q.msp_id = ${mspId} and q.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return rows.map(toTicketRow);
}

/** A technician's completion of a queue ticket, with the SLA due time it was measured against. */
export interface TCompletionRow {
  queueTicketId: string;
  techId: string;
  completedAt: Date;
  slaDueAt: Date | null;
}

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
        and not exists (
          select 1 from queue_events u
          where u.msp_id = e.msp_id and u.queue_ticket_id = e.queue_ticket_id and u.kind = 'incomplete' and u.at >= e.at
            and not exists (
              select 1 from queue_events c
              where c.msp_id = e.msp_id and c.queue_ticket_id = e.queue_ticket_id and c.kind = 'completed' and c.at > e.at and c.at <= u.at))
      order by e.at`,
  );
  return rows.map((row) => ({ queueTicketId: String(row.queue_ticket_id), techId: String(row.tech_id), completedAt: asDate(row.at) ?? from, slaDueAt: asDate(row.sla_due_at) }));
}

/** Display names of the MSP's users by id. */
export async function listUserNames(db: TDatabase, mspId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf(db, sql`select id, trim(first_name || ' ' || last_name) as name from users where msp_id = ${mspId} and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return new Map(rows.map((row) => [String(row.id), String(row.name)]));
}

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
