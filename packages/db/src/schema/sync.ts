import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

const phaseStatus = (name: string) => text(name, { enum: ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] });

/**
 * One batch board sync (A-058 / A-033): phase 1 reads the boards' reference data, phase 2 copies the tickets entered
 * in the date range into psa_tickets. The row is the durable state: the job queue only says "work on run X", so a
 * restarted worker resumes from `lastTicketId` and the upsert by PSA id makes a repeat harmless.
 */
export const syncRuns = pgTable(
  'sync_runs',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    boardIds: jsonb('board_ids').$type<number[]>().notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    requestedBy: uuid('requested_by'),
    phase1Status: phaseStatus('phase1_status').notNull().default('QUEUED'),
    phase1Processed: integer('phase1_processed').notNull().default(0),
    phase1Error: text('phase1_error'),
    phase1StartedAt: timestamp('phase1_started_at', { withTimezone: true }),
    phase1FinishedAt: timestamp('phase1_finished_at', { withTimezone: true }),
    /** Null until phase 1 has COMPLETED (A-033: phase2 may be absent). */
    phase2Status: phaseStatus('phase2_status'),
    phase2Processed: integer('phase2_processed').notNull().default(0),
    phase2Error: text('phase2_error'),
    phase2StartedAt: timestamp('phase2_started_at', { withTimezone: true }),
    phase2FinishedAt: timestamp('phase2_finished_at', { withTimezone: true }),
    /** Phase 1's names for phase 2 (Autotask rows carry ids only): board, status, priority, type, subtype by id. */
    referenceNames: jsonb('reference_names').$type<Record<string, Record<string, string>>>().notNull().default({}),
    /** Phase 2's checkpoint: tickets stream in id order, so a resumed run asks only for ids above this. */
    lastTicketId: integer('last_ticket_id').notNull().default(0),
    psaRequests: integer('psa_requests').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** Set by the worker while it holds the run; a stale one lets another worker take over. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /**
     * The PSA connection the run was started for (psaIdentityOf(...).key): a run retried after keys for another PSA
     * were saved fails instead of copying that PSA's tickets. Null on runs of earlier releases (the PSA type is compared).
     */
    psaConnection: text('psa_connection'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.id] }), index('sync_runs_open_idx').on(t.phase1Status, t.phase2Status)],
);

/**
 * One progressive clients/contacts load (A-059/A-060 `importJobId`, A-057 `jobId`). Kept in the database so a save
 * or a resumed stream may reach any replica; only the open stream itself is tied to one.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    kind: text('kind', { enum: ['clients', 'contacts'] }).notNull(),
    status: text('status', { enum: ['STREAMING', 'COMPLETE', 'CANCELLED', 'FAILED'] }).notNull().default('STREAMING'),
    fetched: integer('fetched').notNull().default(0),
    total: integer('total'),
    saved: integer('saved').notNull().default(0),
    /** Last PSA id sent; a resumed stream starts after it. */
    lastExternalId: integer('last_external_id').notNull().default(0),
    /**
     * The PSA connection the stream read (psaIdentityOf(...).key): its rows are saved, and the job resumed, only while the
     * MSP is still connected to it (decision 042). Null on jobs of earlier releases (the PSA connected at the save is taken).
     */
    psaConnection: text('psa_connection'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.id] })],
);

/**
 * The MSP's registered ticket webhook (ConnectWise callback / Autotask TicketWebhook), one per MSP
 * (docs/decisions/016-psa-events-and-reconcile.md). The PSA calls `POST /psa/events/{mspId}.{secret}`: only the
 * SHA-256 of the secret is kept, so a database read does not give the URL away; Autotask's signing secret is
 * AES-256-GCM encrypted like the keys.
 */
export const psaEventSubscriptions = pgTable('psa_event_subscriptions', {
  mspId: uuid('msp_id')
    .primaryKey()
    .references(() => msps.id, { onDelete: 'cascade' }),
  psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
  /** The PSA's id of the callback / webhook (what unregistering deletes). */
  webhookId: integer('webhook_id').notNull(),
  routeTokenHash: text('route_token_hash').notNull(),
  /** Autotask's X-Hook-Signature secret, encrypted; null on ConnectWise (it publishes its own signing key). */
  secretCiphertext: text('secret_ciphertext'),
  eventsReceived: integer('events_received').notNull().default(0),
  eventsRefused: integer('events_refused').notNull().default(0),
  lastEventAt: timestamp('last_event_at', { withTimezone: true }),
  /**
   * No longer read or written (the cursor is psa_reconcile_cursors since migration 0025); kept for one release because
   * servers of the previous release use it during a rolling restart (docs/operations.md §7). Drop it in the next one.
   */
  lastReconciledAt: timestamp('last_reconciled_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where the MSP's reconcile loop stands: the start of its last complete pass (docs/decisions/016-psa-events-and-reconcile.md).
 * Apart from the subscription, so it holds while the PSA refuses the webhook and across a re-registration.
 */
export const psaReconcileCursors = pgTable('psa_reconcile_cursors', {
  mspId: uuid('msp_id')
    .primaryKey()
    .references(() => msps.id, { onDelete: 'cascade' }),
  lastReconciledAt: timestamp('last_reconciled_at', { withTimezone: true }).notNull(),
  /**
   * A window the last pass left unfinished (its request budget ran out): where it read from, the last ticket id it
   * read (the next pass goes on after it), when its first pass started and the newest PSA change time it has seen.
   * All null when no window is open; the cursor above moves only when a window finishes.
   */
  windowSince: timestamp('window_since', { withTimezone: true }),
  windowAfterId: integer('window_after_id'),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
  windowLastUpdatedAt: timestamp('window_last_updated_at', { withTimezone: true }),
  /** The open copy the check for tickets deleted in the PSA reached (by ticket id); the next pass goes on after it, 0 starts over. */
  checkedAfterId: integer('checked_after_id').notNull().default(0),
});
