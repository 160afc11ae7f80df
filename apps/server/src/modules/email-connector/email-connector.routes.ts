import { z } from 'zod';
import { ZCustomDomain, ZEmailConnectorSettings, ZSaveEmailConnectorBody } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createEmailConnectorService } from './email-connector.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** The same access as the PSA keys: the mailbox is another integration of the MSP. */
const MANAGE_EMAIL_CONNECTOR = { principal: 'user', tenant: 'path', anyPermission: ['mspIntegrations'] } as const;

/**
 * The email connector's settings (R-199, decisions.md #5, decision 036). Additions: the spec lists the
 * address and app password among the integration inputs but gives no call to save them.
 */
export const registerEmailConnectorRoutes: TModule = (app, deps) => {
  const service = createEmailConnectorService(deps);

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
