import { z } from 'zod';
import {
  ZAcceptInvitationBody,
  ZAcceptInvitationResponse,
  ZCustomDomain,
  ZEmployeeResponse,
  ZInvitationQuery,
  ZInvitationResponse,
  ZMspParams,
  ZSendInvitationBody,
  ZSendInvitationsResponse,
} from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { TModule } from '../../app-deps';
import { appOrigin } from '../../lib/app-origin';
import { actorOf, requestMeta } from '../../plugins/access';
import { authIpRateLimit, requireMsp } from '../auth/auth-request';
import { createInvitationsService } from './invitations.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const MANAGE_TECHNICIANS = { principal: 'technician', tenant: 'path', anyPermission: ['technicianUserManagement'] } as const;

/** Where the mailed link points: the configured public address, else the address this request came to (development). */
/** A refused invitation mail is answered (502) and audited; the mail server's own words go to the log for the operator. */
const logMailError = (request: FastifyRequest) => (error: unknown) => request.log.warn({ err: error }, 'invitation mail not sent');


/**
 * Technician invitations (decision 019; the catalogue has no call for them, so the paths follow
 * its technicianUsers family): send one, send to every uninvited technician, read and accept a link.
 */
export const registerInvitationsRoutes: TModule = (app, deps) => {
  const service = createInvitationsService(deps);

  app.post(
    '/db/:mspCustomDomain/technicianUsers/sendInvitation',
    {
      schema: { tags: ['technicians'], operationId: 'sendTechnicianInvitation', summary: 'Mail an invitation link (72 h) to an imported technician without an account', params: ZMspPathParams, body: ZSendInvitationBody, response: { 200: ZEmployeeResponse } },
      config: { access: MANAGE_TECHNICIANS },
    },
    async (request) => {
      const actor = actorOf(request);
      const msp = await requireMsp(deps, actor.mspCustomDomain);
      return { employee: await service.inviteOne(actor, msp, request.body.id, appOrigin(deps.config, request), logMailError(request)) };
    },
  );

  app.post(
    '/db/:mspCustomDomain/technicianUsers/sendInvitations',
    {
      schema: { tags: ['technicians'], operationId: 'sendTechnicianInvitations', summary: 'Mail invitation links to every active technician with neither an account nor an open invitation', params: ZMspPathParams, response: { 200: ZSendInvitationsResponse } },
      config: { access: MANAGE_TECHNICIANS },
    },
    async (request) => {
      const actor = actorOf(request);
      const msp = await requireMsp(deps, actor.mspCustomDomain);
      return service.inviteAllUninvited(actor, msp, appOrigin(deps.config, request), logMailError(request));
    },
  );

  app.get(
    '/db/:msp/technicianUsers/invitation',
    {
      config: { ...authIpRateLimit(deps.config), access: { public: true } },
      schema: { tags: ['technicians'], operationId: 'readTechnicianInvitation', summary: 'Whom an invitation link is for (does not use it up)', params: ZMspParams, querystring: ZInvitationQuery, response: { 200: ZInvitationResponse } },
    },
    async (request, reply) => {
      const msp = await requireMsp(deps, request.params.msp);
      void reply.header('cache-control', 'no-store');
      return service.readInvitation(msp, request.query.token);
    },
  );

  app.post(
    '/db/:msp/technicianUsers/acceptInvitation',
    {
      config: { ...authIpRateLimit(deps.config), access: { public: true } },
      schema: { tags: ['technicians'], operationId: 'acceptTechnicianInvitation', summary: 'Set the invited technician\'s password with the link\'s token (once)', params: ZMspParams, body: ZAcceptInvitationBody, response: { 200: ZAcceptInvitationResponse } },
    },
    async (request) => {
      const msp = await requireMsp(deps, request.params.msp);
      return service.acceptInvitation(msp, request.body, requestMeta(request));
    },
  );
};
