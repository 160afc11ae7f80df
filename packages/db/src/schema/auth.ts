import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, msps, users } from './tenancy';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Server-side sessions; the cookie holds a random token, only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    principalKind: text('principal_kind', { enum: ['user', 'account'] }).notNull(),
    mspId: uuid('msp_id').references(() => msps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id'),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    authMethod: text('auth_method', { enum: ['password', 'google', 'microsoft'] }).notNull().default('password'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_user_idx').on(t.mspId, t.userId),
    // A user session names its MSP and user; an account session has neither (MATCH SIMPLE skips it).
    foreignKey({ name: 'sessions_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    check('sessions_principal_ck', sql`(${t.principalKind} = 'user' and ${t.mspId} is not null and ${t.userId} is not null and ${t.accountId} is null) or (${t.principalKind} = 'account' and ${t.accountId} is not null and ${t.mspId} is null and ${t.userId} is null)`),
  ],
);

/**
 * One-time codes: the sign-in 2FA code, the password-reset code and the technician invitation
 * (decision 019: a long secret in a link, 72 hours). Hashed, with an expiry and a
 * try counter (DESIGN §4: 10 minutes, 5 tries).
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').notNull().defaultRandom(),
    purpose: text('purpose', { enum: ['sign_in', 'password_reset', 'invitation'] }).notNull(),
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    index('verification_codes_user_idx').on(t.mspId, t.userId, t.purpose),
    foreignKey({ name: 'verification_codes_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/** Per-key failure counters for throttling that must hold across replicas (sign-in, 2FA, reset). */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Who did what, in which tenant, with what outcome (DESIGN §4). */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mspId: uuid('msp_id'),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: ['success', 'failure'] }).notNull(),
    ip: text('ip'),
    requestId: text('request_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_events_msp_idx').on(t.mspId, t.createdAt)],
);

/** Mail captured when no SMTP is configured (and a copy of what SMTP sent), readable in non-production. */
export const outboxMail = pgTable(
  'outbox_mail',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mspId: uuid('msp_id'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    transport: text('transport', { enum: ['outbox', 'smtp'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_mail_to_idx').on(t.to, t.createdAt)],
);
