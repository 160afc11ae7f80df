import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

/**
 * Every write to the PSA, kept durably until the PSA has it (decision 013): ticket creates, notes,
 * time entries, assignments, updates, closes, contact creates. A PSA that is slow, limiting or down
 * loses nothing: the row waits with its next attempt time and the retry loop resends it; the
 * adapters look up before resending a create, and a resubmitted request with the same idempotency
 * key is the same row, so nothing is duplicated. The screens read the rows not yet done to show
 * "pending in the PSA".
 */
export const psaOutbox = pgTable(
  'psa_outbox',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    /** Send order: a write waits for the earlier writes about the same target (a note after its ticket's create). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    /** Which write this is (a kind defined with definePsaWrite, e.g. 'ticket.note'). */
    kind: text('kind').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** What the write is about, for the "pending in the PSA" badges (e.g. 'ticket' + the ticket copy's id). */
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker holds the row; a claim older than the lease is taken over (a crashed replica). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** What the PSA answered (e.g. the new ticket's id), once done. */
    result: jsonb('result').$type<unknown>(),
    createdBy: uuid('created_by'),
    /**
     * The MSP's PSA connection the write was stored for (the integrations' identity key, as `sync_runs.psa_connection`;
     * `none` when no PSA was connected): a write whose connection is not the MSP's current one is never sent (decision
     * 013). Null on rows stored before the column existed, which are sent as before.
     */
    psaConnection: text('psa_connection'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /**
     * When an admin discarded the write (review s29): only a failed one, which keeps its status; it is never sent
     * again and leaves the admin's list and the tickets' counts. A column, not a status, so a server of the previous
     * release (which knows no such status) still reads the row as failed (docs/operations.md §7).
     */
    discardedAt: timestamp('discarded_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('psa_outbox_key_uq').on(t.mspId, t.idempotencyKey),
    index('psa_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('psa_outbox_target_idx').on(t.mspId, t.targetType, t.targetId, t.status),
  ],
);
