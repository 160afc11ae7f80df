import type { TSlaAlertList } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { createIntervalLoop } from '../../lib/interval-loop';
import type { TActor } from '../../plugins/access';
import { countUnreadSlaAlerts, insertReachedSlaAlerts, listSlaAlerts, markSlaAlertsRead, releaseSlaMails, takeUnsentSlaMails, type TSlaMailKey, type TSlaMailRow } from './sla-alerts.repository';

const ALERT_LIST_LIMIT = 50;
const MAIL_BATCH = 50;

function mailOf(mail: TSlaMailRow, publicUrl: string | undefined) {
  const due = mail.slaDueAt ? ` It is due ${mail.slaDueAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.` : '';
  const reached = mail.threshold >= 100 ? 'has passed its SLA' : `has used ${mail.threshold} % of its SLA`;
  return {
    mspId: mail.mspId,
    to: mail.to,
    subject: `SLA ${mail.threshold} %: ticket #${mail.psaTicketId} ${mail.title}`.slice(0, 200),
    text: `Ticket #${mail.psaTicketId} "${mail.title}" (with ${mail.technicianName || 'a technician'}) ${reached}.${due}${publicUrl ? `\n\nOpen the dispatcher's board: ${publicUrl}` : ''}\n`,
  };
}

/**
 * SLA alerts (issue #10, beyond the spec): at 50, 75, 90 and 100 % of a ticket's SLA its technician
 * sees an alert; at 90 and 100 % the technician and the MSP's dispatchers get one e-mail each.
 */
export function createSlaAlertsService(deps: TAppDeps) {
  const db = deps.database.db;

  /**
   * One sweep over every MSP: new alerts, then the mails nobody has sent. Each mail is sent once or kept for a later
   * sweep: a failed send is put back at once and the sweep goes on with the others (one bad address blocks nobody), and
   * what a stopped or broken sweep took but did not send is put back too. `onMailError` hears each failed send.
   */
  async function sweep(options: { signal?: AbortSignal; onMailError?: (error: unknown) => void } = {}): Promise<{ alerts: number; mails: number; failed: number }> {
    const alerts = await insertReachedSlaAlerts(db, deps.now());
    let mails = 0;
    let failed = 0;
    let after: TSlaMailKey | undefined;
    while (!options.signal?.aborted) {
      const batch = await takeUnsentSlaMails(db, deps.now(), MAIL_BATCH, after);
      const unsent = [...batch];
      try {
        for (const mail of batch) {
          if (options.signal?.aborted) break;
          try {
            await deps.mailer.send(mailOf(mail, deps.config.publicUrl));
            mails += 1;
          } catch (error) {
            failed += 1;
            await releaseSlaMails(db, [mail]);
            options.onMailError?.(error);
          }
          unsent.shift();
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
   * The caller's alerts, newest first, and how many are unread. The thresholds their tickets have reached since the last
   * sweep are alerted first (the sweep still sends the mails), so a ticket taken past its SLA is flagged at once.
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
 * the unique keys and SKIP LOCKED keep them from alerting or mailing twice; a mail that failed is logged and tried next sweep).
 */
export function createSlaSweepLoop(service: TSlaAlertsService, options: { intervalMs: number; log: (error: unknown) => void }) {
  return createIntervalLoop({ intervalMs: options.intervalMs, run: (signal) => service.sweep({ signal, onMailError: options.log }), onError: options.log });
}
