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
}

/**
 * Sends through SMTP when configured; otherwise records the mail in the dev outbox so a person
 * (or a test) can read a 2FA code. SMTP mail is also recorded, minus nothing, only outside production.
 */
export function createMailer(deps: { db: TDatabase; smtpUrl: string | undefined; from: string; keepCopies: boolean }): TMailer {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  return {
    async send(mail) {
      if (transport) await transport.sendMail({ from: deps.from, to: mail.to, subject: mail.subject, text: mail.text });
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
