import { EMAIL_CONNECTOR_MESSAGES, EMAIL_MAIL_MESSAGES, type TEmailConnectorMail, type TFileEmailMailBody } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import { userAuditFields } from '../../lib/audit';
import type { TActor } from '../../plugins/access';
import { findIntegration } from '../integrations/integrations.repository';
import { presentEmailMail } from './email-connector.presenter';
import { chooseEmailFiling, findEmailConnector, findFilingRecords, findListedEmailMessage } from './email-connector.repository';
import { EMAIL_CONNECTOR_QUEUE } from './email-tickets.service';

const MESSAGES = EMAIL_MAIL_MESSAGES.fileUnder;

/**
 * "Make a ticket…" (decision 036): a person files one skipped mail under a company of their choosing, and optionally one
 * of its contacts, without changing the MSP's default company or the PSA's contacts. The choice is kept on the message
 * row; the next reading of the mailbox takes the mail again and files it there, through the outbox like any mail ticket.
 */
export function createEmailFileUnderService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now' | 'jobQueue'>) {
  const db = deps.database.db;

  return {
    /** Stores where one skipped mail goes and asks for a reading; the mail as the list then shows it (waiting). */
    async fileUnder(actor: TActor, id: string, body: TFileEmailMailBody): Promise<TEmailConnectorMail> {
      const mspId = actor.mspId;
      const message = await findListedEmailMessage(db, mspId, id);
      if (!message) throw notFound(MESSAGES.mailNotFound);
      if (message.state !== 'skipped') throw conflict(MESSAGES.notSkipped);
      // Only a connected mailbox is read again: without one the choice would wait for ever.
      if (!(await findEmailConnector(db, mspId))) throw conflict(EMAIL_CONNECTOR_MESSAGES.notConfigured);

      // The companies of the MSP's PSA as the ticket form lists them (decision 028): synchronized and active.
      const psaType = (await findIntegration(db, mspId))?.psaType ?? null;
      const contactId = body.contactId ?? null;
      const records = psaType ? await findFilingRecords(db, mspId, psaType, body.companyId, contactId) : { company: null, contact: null };
      const { company, contact } = records;
      if (!psaType || !company) throw validation(MESSAGES.companyNotFound, [{ name: 'companyId', reason: MESSAGES.companyNotFound }]);
      if (contactId !== null && !contact) throw validation(MESSAGES.contactNotOfCompany, [{ name: 'contactId', reason: MESSAGES.contactNotOfCompany }]);

      const stored = await db.transaction(async (tx) => {
        const row = await chooseEmailFiling(tx, mspId, id, { psaType, companyId: body.companyId, contactId }, deps.now());
        // A reading took it (or another person's choice did) since it was read above.
        if (!row) return null;
        await deps.audit.record(tx, {
          ...userAuditFields(actor),
          action: 'email_connector.file_under',
          target: row.id,
          outcome: 'success',
          details: {
            from: row.fromAddress,
            subject: row.subject,
            messageId: row.messageId,
            company: body.companyId,
            companyName: company.name,
            contact: contactId,
            contactName: contact?.name ?? null,
          },
        });
        return row;
      });
      if (!stored) throw conflict(MESSAGES.notSkipped);

      // After the commit: the same "read this mailbox" job the interval asks for (one waiting per MSP), so the mail is
      // filed within moments rather than at the next interval. Should the queue refuse, that interval's reading files it.
      await deps.jobQueue.send(EMAIL_CONNECTOR_QUEUE, { mspId }, { singletonKey: mspId }).catch(() => null);

      // As stored by this choice (the reading just asked for may already be taking it).
      return presentEmailMail({ ...stored, fileCompanyName: company.name, fileContactName: contact?.name ?? null });
    },
  };
}
