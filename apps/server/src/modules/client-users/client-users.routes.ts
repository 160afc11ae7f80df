import { z } from 'zod';
import { ZClientUserList, ZClientUsersOfClientQuery, ZCustomDomain } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createClientUsersService } from './client-users.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** A-010 clientUsersOfEachClient: the Companies screen's Active/other employee toggle (01 §2). */
export const registerClientUsersRoutes: TModule = (app, deps) => {
  const service = createClientUsersService(deps);

  app.get(
    '/db/:mspCustomDomain/clientUsersOfEachClient',
    {
      schema: { tags: ['clientUsers'], operationId: 'clientUsersOfEachClient', summary: 'A-010 Client users of one client company (clientId: its company row id)', params: ZMspPathParams, querystring: ZClientUsersOfClientQuery, response: { 200: ZClientUserList } },
      // decisions #12: client people are managed with either user-management permission.
      config: { access: { principal: 'technician', tenant: 'path', anyPermission: ['technicianUserManagement', 'clientUserManagement'] } },
    },
    async (request) => ({ clientUsers: await service.listOfCompany(actorOf(request), request.query.clientId) }),
  );
};
