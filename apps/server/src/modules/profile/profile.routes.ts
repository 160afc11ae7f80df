import { MSP_USER_COLLECTIONS, ZClientEditBody, ZEditUserResponse, ZGetUserByIdQuery, ZGetUserByIdResponse, ZMspParams, ZTechnicianEditBody } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { mspUserOf, requestMeta } from '../../plugins/access';
import { USER_KIND_OF } from '../auth/auth-request';
import { createProfileService } from './profile.service';

/** Read one user and edit profiles. */
export const registerProfileRoutes: TModule = (app, deps) => {
  const profile = createProfileService(deps);
  for (const collection of MSP_USER_COLLECTIONS) {
    const kind = USER_KIND_OF[collection];
    app.get(
      `/db/:msp/${collection}/getById`,
      {
        config: { access: { principal: 'user', tenant: 'path' } },
        schema: { tags: [collection], operationId: `${collection}GetById`, summary: `A-00${kind === 'technician' ? 1 : 2}: one ${kind} user`, security: [{ session: [] }], params: ZMspParams, querystring: ZGetUserByIdQuery, response: { 200: ZGetUserByIdResponse } },
      },
      async (request) => profile.getUserById(mspUserOf(request), kind, request.query.id),
    );
  }

  app.put(
    '/db/:msp/technicianUsers/edit',
    {
      config: { access: { principal: 'user', tenant: 'path' } },
      schema: { tags: ['technicianUsers'], operationId: 'technicianUsersEdit', summary: 'A-036: edit a technician (own profile, or any with technicianUserManagement)', security: [{ session: [] }], params: ZMspParams, body: ZTechnicianEditBody, response: { 200: ZEditUserResponse } },
    },
    async (request) => ({ user: await profile.editUser(mspUserOf(request), 'technician', request.body, requestMeta(request)) }),
  );

  app.put(
    '/db/:msp/clientUsers/edit',
    {
      config: { access: { principal: 'user', tenant: 'path' } },
      schema: { tags: ['clientUsers'], operationId: 'clientUsersEdit', summary: 'A-037: edit a client user (own profile, or any with clientUserManagement)', security: [{ session: [] }], params: ZMspParams, body: ZClientEditBody, response: { 200: ZEditUserResponse } },
    },
    async (request) => ({ user: await profile.editUser(mspUserOf(request), 'client', request.body, requestMeta(request)) }),
  );
};
