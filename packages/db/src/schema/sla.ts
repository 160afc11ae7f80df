import { check, foreignKey, index, pgTable, primaryKey, smallint, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { queueTickets } from './queue';
import { msps, users } from './tenancy';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An SLA alert (issue #10, beyond the spec): a queue ticket with a technician reached 50, 75, 90 or
 * 100 % of its SLA. The unique key makes each threshold fire once per ticket and technician, however
 * many processes sweep at the same time.
 */
export const slaAlerts = pgTable(
  'sla_alerts',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    queueTicketId: uuid('queue_ticket_id').notNull(),
    techId: uuid('tech_id').notNull(),
    threshold: smallint('threshold').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('sla_alerts_once_uq').on(t.mspId, t.queueTicketId, t.techId, t.threshold),
    index('sla_alerts_tech_idx').on(t.mspId, t.techId, t.createdAt),
    check('sla_alerts_threshold_ck', sql`${t.threshold} in (50, 75, 90, 100)`),
    foreignKey({ name: 'sla_alerts_ticket_fk', columns: [t.mspId, t.queueTicketId], foreignColumns: [queueTickets.mspId, queueTickets.id] }).onDelete('cascade'),
    foreignKey({ name: 'sla_alerts_tech_fk', columns: [t.mspId, t.techId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/** The technician read the alert (kept apart so an alert row is never rewritten). */
export const slaAlertReads = pgTable(
  'sla_alert_reads',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').notNull(),
    userId: uuid('user_id').notNull(),
    readAt: at('read_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.alertId, t.userId] }),
    foreignKey({ name: 'sla_alert_reads_alert_fk', columns: [t.mspId, t.alertId], foreignColumns: [slaAlerts.mspId, slaAlerts.id] }).onDelete('cascade'),
    foreignKey({ name: 'sla_alert_reads_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);

/**
 * The e-mail of a 90 % or 100 % alert to one recipient (the assignee and the MSP's dispatchers):
 * written with the alert, so it exists exactly once. `sentAt` is set when a sweep takes it to send, with
 * `leaseExpiresAt`, and the lease is cleared once the mail server accepted it: a mail whose lease ran out was
 * taken by a process that died before sending, and is taken again (decision 018). Null `sentAt`: not taken.
 */
export const slaAlertMails = pgTable(
  'sla_alert_mails',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').notNull(),
    userId: uuid('user_id').notNull(),
    sentAt: at('sent_at'),
    leaseExpiresAt: at('lease_expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.alertId, t.userId] }),
    index('sla_alert_mails_unsent_idx').on(t.mspId).where(sql`${t.sentAt} is null`),
    index('sla_alert_mails_leased_idx').on(t.leaseExpiresAt).where(sql`${t.leaseExpiresAt} is not null`),
    foreignKey({ name: 'sla_alert_mails_alert_fk', columns: [t.mspId, t.alertId], foreignColumns: [slaAlerts.mspId, slaAlerts.id] }).onDelete('cascade'),
    foreignKey({ name: 'sla_alert_mails_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
  ],
);
