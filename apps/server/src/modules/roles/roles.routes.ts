import { z } from 'zod';
import { ZCustomDomain, ZDeleteRoleQuery, ZDeleteRoleResponse, ZRoleList, ZSaveRoleBody, ZSaveRoleResponse } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { TModule } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import { requirePermission, requireTenantUser } from '../../plugins/auth-context';
import { createRolesService, type TRoleActor } from './roles.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** Roles of an MSP (02 §3, §4, §6): A-013 list, A-061 create/edit (clone = create), A-062 delete. */
export const registerRolesRoutes: TModule = (app, deps) => {
  const service = createRolesService(deps);

  const roleManagerOf = (request: FastifyRequest, mspCustomDomain: string): TRoleActor => {
    const auth = requireTenantUser(request, mspCustomDomain);
    requirePermission(auth, 'roleManagement');
    return { mspId: auth.mspId, mspCustomDomain: auth.mspCustomDomain, userId: auth.userId, ip: request.ip, requestId: request.id };
  };

  app.get(
    '/db/:mspCustomDomain/roles/all',
    {
      schema: {
        tags: ['roles'],
        summary: 'A-013 List the MSP roles (any signed-in user of the MSP; permissions derive from them)',
        params: ZMspPathParams,
        response: { 200: ZRoleList },
      },
    },
    async (request) => {
      const auth = requireTenantUser(request, request.params.mspCustomDomain);
      return { roles: await service.listForMsp(auth.mspId, auth.mspCustomDomain) };
    },
  );

  app.post(
    '/db/:mspCustomDomain/roles/create',
    {
      schema: {
        tags: ['roles'],
        summary: 'A-061 Create a custom role, or edit one when id is present (needs roleManagement)',
        params: ZMspPathParams,
        body: ZSaveRoleBody,
        response: { 200: ZSaveRoleResponse },
      },
    },
    async (request) => {
      const actor = roleManagerOf(request, request.params.mspCustomDomain);
      // The body repeats the MSP (spec 001 §7); it must name the same tenant as the path and session.
      if (request.body.mspCustomDomain.toLowerCase() !== actor.mspCustomDomain) throw notFound();
      const role = await service.save(actor, { id: request.body.id, name: request.body.name, permissions: request.body.permissions });
      return { role };
    },
  );

  app.get(
    '/db/:mspCustomDomain/roles/delete',
    {
      schema: {
        tags: ['roles'],
        summary: 'A-062 Delete a custom role no user holds (needs roleManagement; state-changing GET)',
        params: ZMspPathParams,
        querystring: ZDeleteRoleQuery,
        response: { 200: ZDeleteRoleResponse },
      },
      config: { stateChangingGet: true },
    },
    async (request, reply) => {
      const actor = roleManagerOf(request, request.params.mspCustomDomain);
      await service.remove(actor, request.query.id);
      void reply.header('cache-control', 'no-store');
      return { deleted: true as const };
    },
  );
};
