import { z } from 'zod';
import { ZCustomDomain, ZDeleteRoleQuery, ZDeleteRoleResponse, ZRoleList, ZSaveRoleBody, ZSaveRoleResponse } from '@switchboard/contracts';
import type { FastifyRequest } from 'fastify';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { createRolesService, type TRoleActor } from './roles.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** Roles of an MSP (02 §3, §4, §6): A-013 list, A-061 create/edit (clone = create), A-062 delete. */
export const registerRolesRoutes: TModule = (app, deps) => {
  const service = createRolesService(deps);

  const roleManagerOf = (request: FastifyRequest): TRoleActor => {
    const actor = actorOf(request);
    return { mspId: actor.mspId, mspCustomDomain: actor.mspCustomDomain, userId: actor.userId, permissions: actor.permissions, ip: actor.ip, requestId: actor.requestId };
  };

  app.get(
    '/db/:mspCustomDomain/roles/all',
    {
      schema: {
        tags: ['roles'],
        operationId: 'listRoles',
        summary: 'A-013 List the MSP roles (any signed-in user of the MSP; permissions derive from them)',
        params: ZMspPathParams,
        response: { 200: ZRoleList },
      },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => {
      const auth = mspUserOf(request);
      return { roles: await service.listForMsp(auth.mspId, auth.mspCustomDomain) };
    },
  );

  app.post(
    '/db/:mspCustomDomain/roles/create',
    {
      schema: {
        tags: ['roles'],
        operationId: 'saveRole',
        summary: 'A-061 Create a custom role, or edit one when id is present (needs roleManagement)',
        params: ZMspPathParams,
        body: ZSaveRoleBody,
        response: { 200: ZSaveRoleResponse },
      },
      // The body repeats the MSP (spec 001 §7); the access hook holds it to the session's tenant.
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['roleManagement'] } },
    },
    async (request) => {
      const actor = roleManagerOf(request);
      const role = await service.save(actor, { id: request.body.id, name: request.body.name, permissions: request.body.permissions });
      return { role };
    },
  );

  app.get(
    '/db/:mspCustomDomain/roles/delete',
    {
      schema: {
        tags: ['roles'],
        operationId: 'deleteRole',
        summary: 'A-062 Delete a custom role no user holds (needs roleManagement; state-changing GET)',
        params: ZMspPathParams,
        querystring: ZDeleteRoleQuery,
        response: { 200: ZDeleteRoleResponse },
      },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['roleManagement'], stateChanging: true } },
    },
    async (request, reply) => {
      const actor = roleManagerOf(request);
      await service.remove(actor, request.query.id);
      void reply.header('cache-control', 'no-store');
      return { deleted: true as const };
    },
  );
};
