import { z } from 'zod';
import {
  ZCustomDomain,
  ZEmailConnectorMail,
  ZEmailConnectorMailList,
  ZEmailConnectorMailQuery,
  ZEmailConnectorSettings,
  ZEmailMailIdParams,
  ZFileEmailMailBody,
  ZSaveEmailConnectorBody,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createIntervalLoop } from '../../lib/interval-loop';
import { createEmailConnectorService } from './email-connector.service';
import { listConnectedMspIds, listRecentEmailMessages } from './email-connector.repository';
import { presentEmailMail } from './email-connector.presenter';
import { createEmailTicketsService, EMAIL_CONNECTOR_QUEUE } from './email-tickets.service';
import { createEmailFileUnderService } from './email-file-under.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const ZMailPathParams = ZMspPathParams.extend(ZEmailMailIdParams.shape);

/** The same access as the PSA keys: the mailbox is another integration of the MSP. */
const MANAGE_EMAIL_CONNECTOR = { principal: 'user', tenant: 'path', anyPermission: ['mspIntegrations'] } as const;
/**
 * Filing a skipped mail under a client company: the connector's own permission, and a technician's act — choosing a
 * client company is what the ticket form's lookups, which the screen uses for it, allow technicians only (decision 028).
 */
const FILE_EMAIL_MAIL = { principal: 'technician', tenant: 'path', anyPermission: ['mspIntegrations'] } as const;

/**
 * The email connector's settings (R-199, decisions.md #5, decision 036). Additions: the spec lists the
 * address and app password among the integration inputs but gives no call to save them.
 */
export const registerEmailConnectorRoutes: TModule = async (app, deps) => {
  const service = createEmailConnectorService(deps);
  const tickets = createEmailTicketsService(deps);
  const filing = createEmailFileUnderService(deps);

  // Each MSP's mailbox is read by a durable job (decision 036): whichever server's worker takes it, one waiting job per MSP.
  await deps.jobQueue.work<{ mspId: string }>(
    EMAIL_CONNECTOR_QUEUE,
    async (job, signal) => {
      const outcome = await tickets.readMailbox(job.mspId, signal, (error) => app.log.error({ err: error, mspId: job.mspId }, 'email-connector: a mail could not be stored'));
      if (outcome.problem) app.log.warn({ mspId: job.mspId }, `email-connector: ${outcome.problem}`);
      else if (outcome.created + outcome.notes + outcome.skipped > 0) app.log.info({ mspId: job.mspId, ...outcome }, 'email-connector: mailbox read');
    },
    { policy: 'short' },
  );
  const intervalMs = deps.config.emailConnectorIntervalMs;
  if (intervalMs > 0) {
    const loop = createIntervalLoop({
      intervalMs,
      run: async () => {
        for (const mspId of await listConnectedMspIds(deps.database.db)) await deps.jobQueue.send(EMAIL_CONNECTOR_QUEUE, { mspId }, { singletonKey: mspId });
      },
      onError: (error) => app.log.error({ err: error }, 'email-connector: could not ask for the mailboxes to be read'),
    });
    app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', async () => loop.stop());
  }

  app.get(
    '/db/:mspCustomDomain/integrations/email-connector',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'getEmailConnector',
        summary: 'The help-desk mailbox whose mail becomes tickets (address, IMAP server, last 4 of the app password, last reading); never the password',
        params: ZMspPathParams,
        response: { 200: ZEmailConnectorSettings },
      },
      config: { access: MANAGE_EMAIL_CONNECTOR },
    },
    async (request) => service.get(actorOf(request).mspId),
  );

  app.put(
    '/db/:mspCustomDomain/integrations/email-connector',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'saveEmailConnector',
        summary:
          'Save the help-desk mailbox after signing in to it over IMAP: { address, appPassword, imapHost?, imapPort? }. The IMAP server defaults for Microsoft 365, Outlook.com and Gmail; the password is encrypted at rest; leave it out to keep the stored one for the same address',
        params: ZMspPathParams,
        body: ZSaveEmailConnectorBody,
        response: { 200: ZEmailConnectorSettings },
      },
      config: { access: MANAGE_EMAIL_CONNECTOR },
    },
    async (request) => service.save(actorOf(request), request.body),
  );

  app.get(
    '/db/:mspCustomDomain/integrations/email-connector/mail',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'listEmailConnectorMail',
        summary: 'Ours: the messages read from the help-desk mailbox, newest first, and what became of each (a ticket, a note on a ticket, waiting for the PSA, or why it was not turned into a ticket)',
        params: ZMspPathParams,
        querystring: ZEmailConnectorMailQuery,
        response: { 200: ZEmailConnectorMailList },
      },
      config: { access: MANAGE_EMAIL_CONNECTOR },
    },
    async (request) => ({ mail: (await listRecentEmailMessages(deps.database.db, actorOf(request).mspId, request.query.limit)).map(presentEmailMail) }),
  );

  app.post(
    '/db/:mspCustomDomain/integrations/email-connector/mail/:id/file-under',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'fileEmailConnectorMail',
        summary:
          'Ours ("Make a ticket…"): file one skipped mail under a synchronized company of the PSA, and optionally one of its contacts — { companyId, contactId? }, PSA ids. The next reading of the mailbox (asked for at once) makes it a ticket there; the default company and the contacts stay as they are. Answers the mail as the list shows it',
        params: ZMailPathParams,
        body: ZFileEmailMailBody,
        response: { 200: ZEmailConnectorMail },
      },
      config: { access: FILE_EMAIL_MAIL },
    },
    async (request) => filing.fileUnder(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/db/:mspCustomDomain/integrations/email-connector',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'deleteEmailConnector',
        summary: 'Remove the help-desk mailbox and its password: mail is no longer turned into tickets',
        params: ZMspPathParams,
        response: { 200: ZEmailConnectorSettings },
      },
      config: { access: MANAGE_EMAIL_CONNECTOR },
    },
    async (request) => service.remove(actorOf(request)),
  );
};
