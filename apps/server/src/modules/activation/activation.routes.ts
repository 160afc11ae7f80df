import {
  ZActivationLookupQuery,
  ZActivationLookupResponse,
  ZClientCreateAccountBody,
  ZClientCreateAccountQuery,
  ZCreateAccountResponse,
  ZMspParams,
  ZTechnicianCreateAccountBody,
  MSP_USER_COLLECTIONS,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { TModule } from '../../app-deps';
import { appOrigin } from '../../lib/app-origin';
import { authIpRateLimit, requireMsp, USER_KIND_OF } from '../auth/auth-request';
import { createActivationService } from './activation.service';
import { activationPsaLookupFor, createLiveLookupBudget } from './activation-psa-lookup';
import { requestMeta } from '../../plugins/access';

/** Where the mailed sign-in link points: the configured public address, else the address this request came to (development), as invitations do. */

/** The account stands whatever the mail server says; its own words go to the log for the operator. */
const logMailError = (request: FastifyRequest) => (error: unknown) => request.log.warn({ err: error }, 'activation mail not sent');

/** Account activation under `…/activate`: find the PSA record of an email, then create the linked user (A-087…A-090). */
export const registerActivationRoutes: TModule = (app, deps) => {
  const activation = createActivationService(deps);
  const mailOf = (request: FastifyRequest) => ({ baseUrl: appOrigin(deps.config, request), onMailError: logMailError(request) });
  // Shared by the public look-ups and activations of this app (one per process): what they may spend of each MSP's PSA requests.
  const liveLookups = createLiveLookupBudget(deps.now);
  for (const collection of MSP_USER_COLLECTIONS) {
    const kind = USER_KIND_OF[collection];
    app.get(
      `/db/:msp/${collection}/signup`,
      {
        config: { rateLimit: { max: 20, timeWindow: 60_000 }, access: { public: true } },
        schema: { tags: [collection], operationId: `${collection}ActivationLookup`, summary: `A-08${kind === 'technician' ? 7 : 8}: PSA records of an activating ${kind}`, params: ZMspParams, querystring: ZActivationLookupQuery, response: { 200: ZActivationLookupResponse } },
      },
      async (request) => {
        const msp = await requireMsp(deps, request.params.msp);
        return activation.lookUpActivationRecords(activationPsaLookupFor(deps, liveLookups, request.log), msp, kind, request.query.email);
      },
    );
  }

  app.post(
    '/db/:msp/technicianUsers/createAccount',
    {
      config: { ...authIpRateLimit(deps.config), access: { public: true } },
      schema: { tags: ['technicianUsers'], operationId: 'technicianUsersCreateAccount', summary: 'A-089: activate a technician account', params: ZMspParams, body: ZTechnicianCreateAccountBody, response: { 201: ZCreateAccountResponse } },
    },
    async (request, reply) => {
      const msp = await requireMsp(deps, request.params.msp);
      const { email, password, psaMembersAutopilotDbId } = request.body;
      const created = await activation.activateAccount(activationPsaLookupFor(deps, liveLookups, request.log), msp, 'technician', { email, password, psaRecordRowId: psaMembersAutopilotDbId }, requestMeta(request), mailOf(request));
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/db/:msp/clientUsers/createAccount',
    {
      config: { ...authIpRateLimit(deps.config), access: { public: true } },
      schema: { tags: ['clientUsers'], operationId: 'clientUsersCreateAccount', summary: 'A-090: activate a client account', params: ZMspParams, querystring: ZClientCreateAccountQuery, body: ZClientCreateAccountBody, response: { 201: ZCreateAccountResponse } },
    },
    async (request, reply) => {
      const msp = await requireMsp(deps, request.params.msp);
      const { email, password, psaContactAutopilotDbId } = request.body;
      const created = await activation.activateAccount(
        activationPsaLookupFor(deps, liveLookups, request.log),
        msp,
        'client',
        { email, password, psaRecordRowId: psaContactAutopilotDbId, psaCompanyId: request.query.psaCompanyId },
        requestMeta(request),
        mailOf(request),
      );
      return reply.status(201).send(created);
    },
  );
};
