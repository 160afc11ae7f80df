import nodemailer from 'nodemailer';
import { outboxMail, type TDatabase } from '@switchboard/db';

export interface TMail {
  mspId?: string | null;
  to: string;
  subject: string;
  text: string;
}

export interface TMailer {
  send(mail: TMail): Promise<void>;
  /** For readiness: `ok` (SMTP answers), `unreachable` (it does not), `outbox` (no SMTP configured). */
  health(): Promise<'ok' | 'unreachable' | 'outbox'>;
}

/** Readiness probes arrive every few seconds; the SMTP server is asked at most this often. */
const SMTP_CHECK_INTERVAL_MS = 30_000;
const SMTP_CHECK_TIMEOUT_MS = 5_000;

/**
 * Sends through SMTP when configured; otherwise records the mail in the dev outbox so a person
 * (or a test) can read a 2FA code. SMTP mail is also recorded, minus nothing, only outside production.
 */
export function createMailer(deps: { db: TDatabase; smtpUrl: string | undefined; from: string; keepCopies: boolean }): TMailer {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  let lastCheck: { at: number; result: Promise<'ok' | 'unreachable'> } | undefined;
  const checkSmtp = async (): Promise<'ok' | 'unreachable'> => {
    if (!transport) return 'unreachable';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'unreachable'>((resolve) => {
      timer = setTimeout(() => resolve('unreachable'), SMTP_CHECK_TIMEOUT_MS);
    });
    try {
      return await Promise.race([transport.verify().then(() => 'ok' as const), timeout]);
    } catch {
      return 'unreachable';
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async health() {
      if (!transport) return 'outbox';
      const now = Date.now();
      if (!lastCheck || now - lastCheck.at > SMTP_CHECK_INTERVAL_MS) lastCheck = { at: now, result: checkSmtp() };
      return lastCheck.result;
    },
    async send(mail) {
      // RFC 3834: every mail of this product is automatic, so mail programs send no auto-reply to it and a help-desk
      // mailbox's connector (this one's, or another PSA's) makes no ticket of it: no mail loop (review s29).
      if (transport) await transport.sendMail({ from: deps.from, to: mail.to, subject: mail.subject, text: mail.text, headers: { 'Auto-Submitted': 'auto-generated' } });
      if (!transport || deps.keepCopies) {
        await deps.db.insert(outboxMail).values({
          mspId: mail.mspId ?? null,
          to: mail.to.toLowerCase(),
          subject: mail.subject,
          text: mail.text,
          transport: transport ? 'smtp' : 'outbox',
        });
      }
    },
  };
}
