import { sql } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';
import { rowsOf } from './queue-sql';

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/**
 * A ticket its technician holds: claimed, in progress, or queued and kept for them (a requeue with the assigned flag, or
 * a dispatcher's assignment to someone signed out). A kept ticket still runs against its SLA, so it is alerted too.
 */
const HELD = sql.raw(`(q.state in ('claimed', 'working') or (q.state = 'queued' and q.is_reserved))`);

/**
 * SLA alert SQL (issue #10). The sweep is one statement for all MSPs: every ticket a technician holds (`HELD`: claimed,
 * in progress, or kept for them) with a known SLA that is still open in the PSA (its copy; the upkeep closes the queue row later) gets an
 * alert per threshold it has reached, once per technician (the unique key), and the 90 % and 100 % alerts get one
 * mail row per recipient in the same statement: the assignee, and each of the MSP's dispatchers unless they already have
 * a mail of that ticket and threshold that stands (decision 018: once per ticket and threshold, however often the ticket
 * changes technician). A mail stands if it is sent (or being sent under a live lease) or its alert's technician still
 * holds the ticket; an unsent one whose technician let the ticket go is moot (`dropMootSlaMails` drops it) and does not
 * count, so the next holder's alert tells the dispatchers, naming them, even when the ticket changed hands between two
 * sweeps. `of` limits it to one technician's tickets (their alert list reads theirs first, so a ticket past its SLA is
 * flagged the moment they take it, not at the next sweep).
 */
export async function insertReachedSlaAlerts(db: TDatabase, now: Date, of?: { mspId: string; techId: string }): Promise<number> {
  const at = now.toISOString();
  const ofTechnician = of ? sql`and q.msp_id = ${of.mspId} and q.assigned_tech_id = ${of.techId}` : sql``;
  const rows = await rowsOf(
    db,
    sql`with reached as (
        insert into sla_alerts (msp_id, queue_ticket_id, tech_id, threshold, created_at)
        select q.msp_id, q.id, q.assigned_tech_id, th.threshold, ${at}::timestamptz
        from queue_tickets q
        join psa_tickets p on p.msp_id = q.msp_id and p.id = q.ticket_row_id and not p.is_closed
        cross join (values (50), (75), (90), (100)) as th(threshold)
        where ${HELD} and q.assigned_tech_id is not null
          and q.sla_due_at is not null and q.sla_hours > 0
          -- Measured over the SLA's own hours, from its start: the ticket's creation, or its reopen in the PSA (the
          -- upkeep restarts the clock there), not from creation, which had a reopened ticket's 90 % long gone.
          and ${at}::timestamptz >= q.sla_due_at - q.sla_hours * interval '1 hour' * (1 - th.threshold / 100.0)
          ${ofTechnician}
        on conflict do nothing
        returning msp_id, id, queue_ticket_id, tech_id, threshold
      ), mails as (
        -- sla_alerts and sla_alert_mails read here hold only the rows from before this statement (its snapshot), not
        -- those of reached or of this insert.
        insert into sla_alert_mails (msp_id, alert_id, user_id)
        select distinct r.msp_id, r.id, u.id
        from reached r join users u on u.msp_id = r.msp_id and u.is_active
        left join roles ro on ro.msp_id = u.msp_id and ro.id = u.role_id
        where r.threshold >= 90 and (u.id = r.tech_id or (u.kind = 'technician'
          and (ro.permissions ->> 'adminPortal' = 'true' or ro.permissions ->> 'technicianUserManagement' = 'true')
          and not exists (select 1 from sla_alerts e join sla_alert_mails em on em.msp_id = e.msp_id and em.alert_id = e.id
            join queue_tickets q on q.msp_id = e.msp_id and q.id = e.queue_ticket_id
            where e.msp_id = r.msp_id and e.queue_ticket_id = r.queue_ticket_id and e.threshold = r.threshold and em.user_id = u.id
              and ((em.sent_at is not null and (em.lease_expires_at is null or em.lease_expires_at > ${at}::timestamptz))
                or (${HELD} and q.assigned_tech_id = e.tech_id)))))
        on conflict do nothing
        returning alert_id
      )
      select (select count(*)::int from reached) as alerts, (select count(*)::int from mails) as mails`,
  );
  return Number(rows[0]?.alerts ?? 0);
}

/**
 * How long a taken mail is held for the process that took it. A process that dies between taking and sending leaves its
 * mails leased; once the lease runs out, the next sweep of any process takes them again (decision 018).
 */
export const SLA_MAIL_LEASE_MS = 10 * 60_000;

export interface TSlaMailRow {
  mspId: string;
  alertId: string;
  userId: string;
  /** The lease this take holds: a put-back only frees the mail while it is still this take's. */
  leaseExpiresAt: Date;
  to: string;
  threshold: number;
  psaTicketId: number;
  title: string;
  technicianName: string;
  slaDueAt: Date | null;
  /** The MSP's time zone (queue settings; UTC until an admin saves one), in which the mail states the due time. */
  timeZone: string;
  /** The MSP's name: the mail says whose ticket it is (one address can have accounts at several MSPs). */
  mspName: string;
}

export type TSlaMailKey = Pick<TSlaMailRow, 'mspId' | 'alertId' | 'userId'>;

const keyOf = (mail: TSlaMailKey) => sql`(${mail.mspId}::uuid, ${mail.alertId}::uuid, ${mail.userId}::uuid)`;

/**
 * Drops the moot mails unsent: a mail about a ticket that no longer needs it, one closed since its alert was raised (in
 * the PSA, or here), completed, or no longer held by the alert's technician (handed back, requeued for anyone, given to
 * someone else). One being sent right now keeps its lease. Dropped rather than marked sent, so the dispatchers' "once
 * per ticket and threshold" counts only mails sent or still due, and the next holder's alert tells them
 * (insertReachedSlaAlerts). The sweep runs it first, before it raises alerts and takes mails.
 */
export async function dropMootSlaMails(db: TDatabase, now: Date): Promise<void> {
  await db.execute(sql`delete from sla_alert_mails m
    using sla_alerts a, queue_tickets q, psa_tickets p
    where a.msp_id = m.msp_id and a.id = m.alert_id
      and q.msp_id = a.msp_id and q.id = a.queue_ticket_id
      and p.msp_id = q.msp_id and p.id = q.ticket_row_id
      and (m.sent_at is null or m.lease_expires_at <= ${now.toISOString()}::timestamptz)
      and (p.is_closed or not ${HELD} or q.assigned_tech_id is distinct from a.tech_id)`);
}

/**
 * Takes up to `limit` mails to send, in key order after `after` (the last key this sweep has taken, so a mail put back
 * during a sweep is not taken again by the same sweep): the ones never taken and the ones whose lease ran out (their
 * taker died). Each is marked taken (sent_at) with a lease of SLA_MAIL_LEASE_MS in one statement under SKIP LOCKED, so
 * two processes never take the same mail at once. The caller sends each, then marks it sent (`markSlaMailSent`) or puts
 * it back (`releaseSlaMails`).
 */
export async function takeUnsentSlaMails(db: TDatabase, now: Date, limit: number, after?: TSlaMailKey): Promise<TSlaMailRow[]> {
  const afterKey = after ? sql`and (msp_id, alert_id, user_id) > ${keyOf(after)}` : sql``;
  const at = now.toISOString();
  const leaseExpiresAt = new Date(now.getTime() + SLA_MAIL_LEASE_MS);
  const rows = await rowsOf(
    db,
    sql`with taken as (
        update sla_alert_mails m set sent_at = ${at}::timestamptz, lease_expires_at = ${leaseExpiresAt.toISOString()}::timestamptz
        where (m.msp_id, m.alert_id, m.user_id) in (
          select msp_id, alert_id, user_id from sla_alert_mails
          where (sent_at is null or lease_expires_at <= ${at}::timestamptz) ${afterKey}
          order by msp_id, alert_id, user_id limit ${limit} for update skip locked)
        returning m.msp_id, m.alert_id, m.user_id
      )
      select t.msp_id, t.alert_id, t.user_id, u.email, a.threshold, q.psa_ticket_id, p.summary, q.sla_due_at,
        trim(tu.first_name || ' ' || tu.last_name) as technician_name, coalesce(s.time_zone, 'UTC') as time_zone, ms.name as msp_name
      from taken t
      join msps ms on ms.id = t.msp_id
      join users u on u.msp_id = t.msp_id and u.id = t.user_id
      join sla_alerts a on a.msp_id = t.msp_id and a.id = t.alert_id
      join users tu on tu.msp_id = a.msp_id and tu.id = a.tech_id
      join queue_tickets q on q.msp_id = a.msp_id and q.id = a.queue_ticket_id
      join psa_tickets p on p.msp_id = q.msp_id and p.id = q.ticket_row_id
      left join queue_settings s on s.msp_id = t.msp_id
      order by t.msp_id, t.alert_id, t.user_id`,
  );
  return rows.map((row) => ({
    mspId: String(row.msp_id),
    alertId: String(row.alert_id),
    userId: String(row.user_id),
    leaseExpiresAt,
    to: String(row.email),
    threshold: Number(row.threshold),
    psaTicketId: Number(row.psa_ticket_id),
    title: asText(row.summary),
    technicianName: asText(row.technician_name),
    slaDueAt: row.sla_due_at === null || row.sla_due_at === undefined ? null : asDate(row.sla_due_at),
    timeZone: asText(row.time_zone) || 'UTC',
    mspName: asText(row.msp_name),
  }));
}

/**
 * The mail server accepted the mail: it is sent for good (the lease cleared), whoever holds the lease now, so a process
 * that took it again after this one's lease ran out cannot put it back to be sent a third time.
 */
export async function markSlaMailSent(db: TDatabase, mail: TSlaMailKey, now: Date): Promise<void> {
  await db.execute(sql`update sla_alert_mails set sent_at = ${now.toISOString()}::timestamptz, lease_expires_at = null where (msp_id, alert_id, user_id) = ${keyOf(mail)}`);
}

/**
 * Mails taken but not sent (a failed send, or a sweep that stopped) go back to be taken by a later sweep, each only
 * while it still holds this take's lease (not one another process has taken since, nor one marked sent).
 */
export async function releaseSlaMails(db: TDatabase, mails: readonly Pick<TSlaMailRow, 'mspId' | 'alertId' | 'userId' | 'leaseExpiresAt'>[]): Promise<void> {
  if (mails.length === 0) return;
  const keys = sql.join(
    mails.map((mail) => sql`(${mail.mspId}::uuid, ${mail.alertId}::uuid, ${mail.userId}::uuid, ${mail.leaseExpiresAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(sql`update sla_alert_mails set sent_at = null, lease_expires_at = null where (msp_id, alert_id, user_id, lease_expires_at) in (${keys})`);
}

export interface TSlaAlertRow {
  id: string;
  queueTicketId: string;
  psaTicketId: number;
  title: string;
  threshold: number;
  slaDueAt: Date | null;
  createdAt: Date;
  isRead: boolean;
}

/**
 * Up to `limit` of the technician's alerts on tickets they still hold (claimed, worked, or kept for them) and open in the
 * PSA, with their read marks: the unread ones first (the newest when there are more), then the newest read ones to fill,
 * answered newest first. A ticket they completed, handed back or requeued for anyone, or one closed in the PSA, takes its
 * alerts off their list (they come back if the ticket comes back to them).
 */
export async function listSlaAlerts(db: TDatabase, mspId: string, techId: string, limit: number): Promise<TSlaAlertRow[]> {
  // Unread ones are chosen first so newer read ones never push them out of the list (review s28: the panel shows only
  // unread alerts, and "Mark all read" marks what it shows); the answer stays newest first, as the contract says.
  const rows = await rowsOf(
    db,
    sql`select * from (
        select a.id, a.queue_ticket_id, q.psa_ticket_id, p.summary, a.threshold, q.sla_due_at, a.created_at, (r.alert_id is not null) as is_read
        from sla_alerts a
        join queue_tickets q on q.msp_id = a.msp_id and q.id = a.queue_ticket_id
        join psa_tickets p on p.msp_id = q.msp_id and p.id = q.ticket_row_id and not p.is_closed
        left join sla_alert_reads r on r.msp_id = a.msp_id and r.alert_id = a.id and r.user_id = ${techId}
        where a.msp_id = ${mspId} and a.tech_id = ${techId} and ${HELD} and q.assigned_tech_id = a.tech_id
        order by (r.alert_id is not null), a.created_at desc, a.threshold desc limit ${limit}
      ) as listed
      order by created_at desc, threshold desc`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    queueTicketId: String(row.queue_ticket_id),
    psaTicketId: Number(row.psa_ticket_id),
    title: asText(row.summary),
    threshold: Number(row.threshold),
    slaDueAt: row.sla_due_at === null || row.sla_due_at === undefined ? null : asDate(row.sla_due_at),
    createdAt: asDate(row.created_at),
    isRead: row.is_read === true,
  }));
}

/** Marks the technician's own alerts read (ids of others are ignored); answers how many were theirs. */
export async function markSlaAlertsRead(db: TDatabase, mspId: string, techId: string, ids: string[], now: Date): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`insert into sla_alert_reads (msp_id, alert_id, user_id, read_at)
      select a.msp_id, a.id, ${techId}, ${now.toISOString()}::timestamptz from sla_alerts a
      where a.msp_id = ${mspId} and a.tech_id = ${techId} and a.id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
      on conflict do nothing returning alert_id`,
  );
  return rows.length;
}

/** Unread alerts of the technician, on the tickets `listSlaAlerts` shows (still held by them, open in the PSA). */
export async function countUnreadSlaAlerts(db: TDatabase, mspId: string, techId: string): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`select count(*)::int as n from sla_alerts a
      join queue_tickets q on q.msp_id = a.msp_id and q.id = a.queue_ticket_id
      join psa_tickets p on p.msp_id = q.msp_id and p.id = q.ticket_row_id and not p.is_closed
      left join sla_alert_reads r on r.msp_id = a.msp_id and r.alert_id = a.id and r.user_id = a.tech_id
      where a.msp_id = ${mspId} and a.tech_id = ${techId} and ${HELD} and q.assigned_tech_id = a.tech_id
        and r.alert_id is null`,
  );
  return Number(rows[0]?.n ?? 0);
}
