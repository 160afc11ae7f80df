import type { TSlaAlertList } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { createIntervalLoop } from '../../lib/interval-loop';
import type { TActor } from '../../plugins/access';
import { countUnreadSlaAlerts, dropMootSlaMails, insertReachedSlaAlerts, listSlaAlerts, markSlaAlertsRead, markSlaMailSent, releaseSlaMails, SLA_MAIL_LEASE_MS, takeUnsentSlaMails, type TSlaMailKey, type TSlaMailRow } from './sla-alerts.repository';

/** Alerts in one list; unread ones take the places first (listSlaAlerts), and `unreadCount` tells how many there are in all. */
const ALERT_LIST_LIMIT = 50;
const MAIL_BATCH = 50;
/**
 * A sweep starts no send later than this after taking its batch, leaving the rest of the lease (SLA_MAIL_LEASE_MS) for
 * the send in progress: a mail is sent again by another process only if one send outlasts that (a mail server that
 * hangs for minutes), or if its process dies after the mail server accepted it and before it was marked sent.
 */
export const SLA_MAIL_SEND_WINDOW_MS = SLA_MAIL_LEASE_MS / 2;

/**
 * `at` as the MSP's screens show it, in its time zone and naming it: "30 Nov 2026 09:00 (America/New_York)". A zone
 * the runtime does not know (saved zones are checked, so only one an older server stored) falls back to UTC. The parts
 * are put together by hand so the month is always three letters (en-GB writes "Sept").
 */
export function formatDueTime(at: Date, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  let zone = timeZone;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone }).formatToParts(at);
  } catch {
    zone = 'UTC';
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone }).formatToParts(at);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')} ${part('hour')}:${part('minute')} (${zone})`;
}

function mailOf(mail: TSlaMailRow, publicUrl: string | undefined) {
  const due = mail.slaDueAt ? ` It is due ${formatDueTime(mail.slaDueAt, mail.timeZone)}.` : '';
  const reached = mail.threshold >= 100 ? 'has passed its SLA' : `has used ${mail.threshold} % of its SLA`;
  return {
    mspId: mail.mspId,
    to: mail.to,
    subject: `SLA ${mail.threshold} %: ticket #${mail.psaTicketId} ${mail.title}`.slice(0, 200),
    // The first line names the MSP: one address can have accounts at several MSPs (review s29); the subject stays as it was.
    text: `Ticket #${mail.psaTicketId} "${mail.title}"${mail.mspName ? ` at ${mail.mspName}` : ''} (with ${mail.technicianName || 'a technician'}) ${reached}.${due}${publicUrl ? `\n\nOpen the dispatcher's board: ${publicUrl}` : ''}\n`,
  };
}

/**
 * SLA alerts (issue #10, beyond the spec): at 50, 75, 90 and 100 % of a ticket's SLA its technician
 * sees an alert; at 90 and 100 % the technician and the MSP's dispatchers get one e-mail each.
 */
export function createSlaAlertsService(deps: TAppDeps) {
  const db = deps.database.db;

  /**
   * One sweep over every MSP: moot mails dropped, new alerts, then the mails nobody has sent. A mail is taken with a
   * lease, sent, then marked sent. A failed send is put back at once and the sweep goes on with the others (one bad address blocks nobody), and
   * what a stopped or broken sweep took but did not send is put back too. What a process that died (crash, deploy, a
   * replica killed) took is taken again by any process once its lease runs out, so no mail is lost; that mail is sent
   * at least once rather than exactly once, as a mail the server accepted just before its process died goes out twice.
   * A sweep stops sending past SLA_MAIL_SEND_WINDOW_MS after its take (the rest waits for the next sweep), so another
   * process does not send a mail this one is still sending. `onMailError` hears each failed send.
   */
  async function sweep(options: { signal?: AbortSignal; onMailError?: (error: unknown) => void } = {}): Promise<{ alerts: number; mails: number; failed: number }> {
    // Moot mails go first, so none is left to stand for a dispatcher when the ticket's next holder is alerted.
    await dropMootSlaMails(db, deps.now());
    const alerts = await insertReachedSlaAlerts(db, deps.now());
    let mails = 0;
    let failed = 0;
    let after: TSlaMailKey | undefined;
    let isWindowOver = false;
    while (!options.signal?.aborted && !isWindowOver) {
      const takenAt = deps.now();
      const batch = await takeUnsentSlaMails(db, takenAt, MAIL_BATCH, after);
      const unsent = [...batch];
      try {
        for (const mail of batch) {
          if (options.signal?.aborted) break;
          isWindowOver = deps.now().getTime() - takenAt.getTime() >= SLA_MAIL_SEND_WINDOW_MS;
          if (isWindowOver) break;
          let isSent = false;
          try {
            await deps.mailer.send(mailOf(mail, deps.config.publicUrl));
            isSent = true;
          } catch (error) {
            failed += 1;
            await releaseSlaMails(db, [mail]);
            options.onMailError?.(error);
          }
          unsent.shift();
          if (isSent) {
            mails += 1;
            // Should this fail, the mail keeps its lease and is sent again after it (at least once).
            await markSlaMailSent(db, mail, deps.now());
          }
        }
      } finally {
        await releaseSlaMails(db, unsent);
      }
      after = batch.at(-1);
      if (batch.length < MAIL_BATCH) break;
    }
    return { alerts, mails, failed };
  }

  /**
   * Up to ALERT_LIST_LIMIT of the caller's alerts, newest first, every unread one among them while they fit (then the
   * newest read ones), and how many are unread in all, so a screen can say when more are unread than listed. The
   * thresholds their tickets have reached since the last sweep are alerted first (the sweep still sends the mails), so a
   * ticket taken past its SLA is flagged at once.
   */
  async function list(actor: TActor): Promise<TSlaAlertList> {
    await insertReachedSlaAlerts(db, deps.now(), { mspId: actor.mspId, techId: actor.userId });
    return listOnly(actor);
  }

  async function listOnly(actor: TActor): Promise<TSlaAlertList> {
    const rows = await listSlaAlerts(db, actor.mspId, actor.userId, ALERT_LIST_LIMIT);
    return {
      alerts: rows.map((row) => ({
        id: row.id,
        queueTicketId: row.queueTicketId,
        ticketId: row.psaTicketId,
        title: row.title,
        threshold: row.threshold,
        slaDueAt: row.slaDueAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        isRead: row.isRead,
      })),
      unreadCount: await countUnreadSlaAlerts(db, actor.mspId, actor.userId),
    };
  }

  async function markRead(actor: TActor, ids: string[]): Promise<TSlaAlertList> {
    await markSlaAlertsRead(db, actor.mspId, actor.userId, ids, deps.now());
    return listOnly(actor);
  }

  return { sweep, list, markRead };
}
export type TSlaAlertsService = ReturnType<typeof createSlaAlertsService>;

/**
 * The sweep loop of one process, started with the app and stopped on close (every replica runs one;
 * the unique keys and SKIP LOCKED keep them from alerting or mailing twice; a mail that failed is logged and tried next sweep;
 * one a stopped replica took is sent by another once its lease runs out).
 */
export function createSlaSweepLoop(service: TSlaAlertsService, options: { intervalMs: number; log: (error: unknown) => void }) {
  return createIntervalLoop({ intervalMs: options.intervalMs, run: (signal) => service.sweep({ signal, onMailError: options.log }), onError: options.log });
}
