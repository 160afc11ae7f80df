import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { psaTickets } from './boards';
import { msps, users } from './tenancy';

const at = (name: string) => timestamp(name, { withTimezone: true });
const tierText = (name: string) => text(name, { enum: ['Tier1', 'Tier2', 'Tier3', 'NoTier'] });

/**
 * The technician queue (issue #10, DESIGN §8): one row per open ticket copy of a configured board.
 *
 * Ordering is by `rank_key`, kept so that an index gives the order without computing anything per
 * row: the documented score (contracts ZQueueSettings) is linear in the current time, so
 * score(now) = rank_key + (slaWeight + ageWeight) × hours since the epoch, and the order of
 * rank_key is the order of the score at every moment. The partial index on queued rows by
 * (tier_rank, rank_key) is what `nextTickets` walks with FOR UPDATE SKIP LOCKED.
 */
export const queueTickets = pgTable(
  'queue_tickets',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    /** The synchronized PSA ticket copy (psa_tickets); title, company and the like are read from it. */
    ticketRowId: uuid('ticket_row_id').notNull(),
    /** The PSA's ticket id (ConnectWise ticket id, Autotask ticket id): the spec's `ticketId`. */
    psaTicketId: integer('psa_ticket_id').notNull(),
    boardId: integer('board_id'),
    tier: tierText('tier').notNull().default('Tier1'),
    /** 1..3 for Tier1..Tier3 (NoTier tickets are 4: nobody is given them by "next"). */
    tierRank: smallint('tier_rank').notNull().default(1),
    /** The tier was set by a requeue (newTier) or an edit; the board's subtype tier no longer applies. */
    isTierPinned: boolean('is_tier_pinned').notNull().default(false),
    impact: text('impact', { enum: ['Low', 'Medium', 'High'] }),
    severity: text('severity', { enum: ['Low', 'Medium', 'High'] }),
    priorityScore: integer('priority_score').notNull().default(0),
    subtypeScore: integer('subtype_score').notNull().default(0),
    slaHours: integer('sla_hours'),
    slaDueAt: at('sla_due_at'),
    ticketCreatedAt: at('ticket_created_at').notNull(),
    rankKey: doublePrecision('rank_key').notNull().default(0),
    state: text('state', { enum: ['queued', 'claimed', 'working', 'completed', 'closed'] }).notNull().default('queued'),
    /** A requeue's hold: not given out before this time. */
    holdUntil: at('hold_until'),
    /** The technician the ticket is with (claimed / working / completed by), or reserved for (queued + isReserved). */
    assignedTechId: uuid('assigned_tech_id'),
    /** Requeued with assignedFlag: only `assignedTechId` is given it. */
    isReserved: boolean('is_reserved').notNull().default(false),
    claimedAt: at('claimed_at'),
    startedAt: at('started_at'),
    completedAt: at('completed_at'),
    closedAt: at('closed_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('queue_tickets_ticket_uq').on(t.mspId, t.ticketRowId),
    index('queue_tickets_psa_id_idx').on(t.mspId, t.psaTicketId),
    index('queue_tickets_next_idx').on(t.mspId, t.tierRank, t.rankKey).where(sql`${t.state} = 'queued'`),
    index('queue_tickets_tech_idx').on(t.mspId, t.assignedTechId, t.state),
    index('queue_tickets_created_idx').on(t.mspId, t.ticketCreatedAt),
    foreignKey({ name: 'queue_tickets_ticket_fk', columns: [t.mspId, t.ticketRowId], foreignColumns: [psaTickets.mspId, psaTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_tickets_tech_fk', columns: [t.mspId, t.assignedTechId], foreignColumns: [users.mspId, users.id] }),
  ],
);

/** The MSP's queue weights and release rules (one row per MSP; defaults until an admin saves). */
export const queueSettings = pgTable('queue_settings', {
  mspId: uuid('msp_id')
    .primaryKey()
    .references(() => msps.id, { onDelete: 'cascade' }),
  priorityWeight: doublePrecision('priority_weight').notNull(),
  subtypeWeight: doublePrecision('subtype_weight').notNull(),
  slaWeight: doublePrecision('sla_weight').notNull(),
  ageWeight: doublePrecision('age_weight').notNull(),
  rejectCooldownMinutes: integer('reject_cooldown_minutes').notNull(),
  idleReleaseMinutes: integer('idle_release_minutes').notNull(),
  releaseOnSignOut: boolean('release_on_sign_out').notNull(),
  /** The IANA time zone whose midnight a timer session is flagged at (the MSP's working day). */
  timeZone: text('time_zone').notNull().default('UTC'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A technician handed a claimed ticket back with a reason: not offered to them again until `until`. */
export const queueRejections = pgTable(
  'queue_rejections',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    techId: uuid('tech_id').notNull(),
    reason: text('reason').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    until: at('until').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    index('queue_rejections_ticket_idx').on(t.mspId, t.queueTicketId, t.techId, t.until),
    foreignKey({ name: 'queue_rejections_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_rejections_tech_fk', columns: [t.mspId, t.techId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/**
 * What happened to a queue ticket, in order (claimed, picked, released, rejected, requeued with its
 * hold and new tier, completed, marked incomplete, closed, edited, reopened in the PSA): the activities reads and the
 * dashboards read it.
 */
export const queueEvents = pgTable(
  'queue_events',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    techId: uuid('tech_id'),
    kind: text('kind', { enum: ['claimed', 'picked', 'released', 'rejected', 'requeued', 'completed', 'incomplete', 'closed', 'edited', 'reopened'] }).notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    index('queue_events_at_idx').on(t.mspId, t.at),
    index('queue_events_ticket_idx').on(t.mspId, t.queueTicketId),
    foreignKey({ name: 'queue_events_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_events_tech_fk', columns: [t.mspId, t.techId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/**
 * A technician's timer on a ticket (02 §4 "Timer per ticket"): running or paused until completed.
 * At most one open (not completed) timer per technician and ticket.
 */
export const queueTimers = pgTable(
  'queue_timers',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    techId: uuid('tech_id').notNull(),
    state: text('state', { enum: ['running', 'paused', 'completed'] }).notNull(),
    startedAt: at('started_at').notNull(),
    completedAt: at('completed_at'),
    notes: text('notes'),
    /** The PSA's time entry id once the completion's time entry was delivered. */
    psaTimeEntryId: integer('psa_time_entry_id'),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('queue_timers_open_uq').on(t.mspId, t.queueTicketId, t.techId).where(sql`${t.state} <> 'completed'`),
    index('queue_timers_tech_idx').on(t.mspId, t.techId, t.state),
    foreignKey({ name: 'queue_timers_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_timers_tech_fk', columns: [t.mspId, t.techId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/**
 * One stretch of work (02 §3 Timer session): from a start or resume to a pause, completion or the
 * start of another timer. ONE RUNNING SESSION PER TECHNICIAN is held by the partial unique index
 * on open sessions, so two concurrent starts cannot both win.
 */
export const queueTimerSessions = pgTable(
  'queue_timer_sessions',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    timerId: uuid('timer_id').notNull(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    techId: uuid('tech_id').notNull(),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
    /** Ran across midnight (UTC) or for over 12 hours: shown for the technician to confirm. */
    flag: text('flag', { enum: ['pastMidnight', 'overTwelveHours'] }),
    confirmedAt: at('confirmed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('queue_timer_sessions_running_uq').on(t.mspId, t.techId).where(sql`${t.endedAt} is null`),
    index('queue_timer_sessions_ticket_idx').on(t.mspId, t.queueTicketId, t.techId),
    index('queue_timer_sessions_started_idx').on(t.mspId, t.startedAt),
    // The sessions still going after an instant (queue-events.repository findLatestWorkBefore; review s29 #3).
    index('queue_timer_sessions_ended_idx').on(t.mspId, t.endedAt),
    foreignKey({ name: 'queue_timer_sessions_timer_fk', columns: [t.mspId, t.timerId], foreignColumns: [queueTimers.mspId, queueTimers.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_timer_sessions_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_timer_sessions_tech_fk', columns: [t.mspId, t.techId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    check('queue_timer_sessions_order_ck', sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
  ],
);

/** A note written through Switchboard, kept until and after the PSA has it. */
export const queueNotes = pgTable(
  'queue_notes',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    psaTicketId: integer('psa_ticket_id').notNull(),
    kind: text('kind', { enum: ['description', 'internal', 'resolution'] }).notNull(),
    noteType: integer('note_type'),
    info: text('info').notNull().default(''),
    text: text('text').notNull(),
    createdBy: uuid('created_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    /** The PSA's note id once delivered. */
    psaNoteId: integer('psa_note_id'),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    index('queue_notes_ticket_idx').on(t.mspId, t.queueTicketId, t.createdAt),
    foreignKey({ name: 'queue_notes_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'queue_notes_author_fk', columns: [t.mspId, t.createdBy], foreignColumns: [users.mspId, users.id] }),
  ],
);
