import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';
import { psaCompanies } from './psa';

/** What an add-contact asks the PSA for, kept until the PSA has it. */
export interface TContactOutboxPayload {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  emailTypeId: number | null;
  phoneTypeId: number | null;
}

/**
 * Contacts added through the admin screens, kept durably until the PSA has created them
 * (decision 013): a PSA that is down loses nothing; the retry loop resends with backoff and the
 * adapters look up before resending a create, so nothing is duplicated. Keyed by the caller's
 * idempotency key, so a resubmitted form is the same row.
 */
export const contactOutbox = pgTable(
  'contact_outbox',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    idempotencyKey: text('idempotency_key').notNull(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    companyRowId: uuid('company_row_id').notNull(),
    externalCompanyId: text('external_company_id').notNull(),
    payload: jsonb('payload').$type<TContactOutboxPayload>().notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker holds the row; a claim older than the lease is taken over (a crashed replica). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    externalContactId: text('external_contact_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('contact_outbox_key_uq').on(t.mspId, t.idempotencyKey),
    foreignKey({ columns: [t.mspId, t.companyRowId], foreignColumns: [psaCompanies.mspId, psaCompanies.id], name: 'contact_outbox_company_fk' }).onDelete('cascade'),
    index('contact_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('contact_outbox_company_idx').on(t.mspId, t.externalCompanyId, t.status),
  ],
);
