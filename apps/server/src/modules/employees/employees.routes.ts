import { z } from 'zod';
import {
  ZAddPsaMembersBody,
  ZAddPsaMembersResponse,
  ZCustomDomain,
  ZDeleteEmployeeResponse,
  ZEmployeeIdQuery,
  ZEmployeeListQuery,
  ZEmployeePage,
  ZEmployeeResponse,
  ZPsaMemberCandidates,
  ZUpdateMemberTierQuery,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createEmployeesService } from './employees.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const MANAGE_TECHNICIANS = { principal: 'technician', tenant: 'path', anyPermission: ['technicianUserManagement'] } as const;

/**
 * Employees screen (01 §2, R-136–R-149): A-007 and the inactive list, A-038 delete, A-039 tier,
 * A-006 PSA members not yet imported, A-046 import. live in auth and msp.
 */
export const registerEmployeesRoutes: TModule = (app, deps) => {
  const service = createEmployeesService(deps);

  app.get(
    '/db/:mspCustomDomain/technicianUsers/activeTechnicians',
    {
      schema: { tags: ['technicians'], operationId: 'activeTechnicians', summary: 'A-007 Active technicians: search, role filter, 30 a page (needs technicianUserManagement)', params: ZMspPathParams, querystring: ZEmployeeListQuery, response: { 200: ZEmployeePage } },
      config: { access: MANAGE_TECHNICIANS },
    },
    async (request) => service.list(actorOf(request), true, request.query),
  );

  app.get(
    '/db/:mspCustomDomain/technicianUsers/inactiveTechnicians',
    {
      schema: { tags: ['technicians'], operationId: 'inactiveTechnicians', summary: 'Inactive (deleted) technicians (addition, decisions #5 / R-149): search, role filter, 30 a page', params: ZMspPathParams, querystring: ZEmployeeListQuery, response: { 200: ZEmployeePage } },
      config: { access: MANAGE_TECHNICIANS },
    },
    async (request) => service.list(actorOf(request), false, request.query),
  );

  app.get(
    '/db/:mspCustomDomain/technicianUsers/delete',
    {
      schema: { tags: ['technicians'], operationId: 'deleteTechnicianUser', summary: 'A-038 Delete a technician: made inactive, sessions ended (state-changing GET)', params: ZMspPathParams, querystring: ZEmployeeIdQuery, response: { 200: ZDeleteEmployeeResponse } },
      config: { access: { ...MANAGE_TECHNICIANS, stateChanging: true } },
    },
    async (request, reply) => {
      const employee = await service.remove(actorOf(request), request.query.id);
      void reply.header('cache-control', 'no-store');
      return { employee };
    },
  );

  app.post(
    '/db/:mspCustomDomain/technicianUsers/restore',
    {
      schema: { tags: ['technicians'], operationId: 'restoreTechnicianUser', summary: 'Restore an inactive (deleted) technician (addition: the Inactive list’s way back)', params: ZMspPathParams, querystring: ZEmployeeIdQuery, response: { 200: ZEmployeeResponse } },
      config: { access: MANAGE_TECHNICIANS },
    },
    async (request) => ({ employee: await service.restore(actorOf(request), request.query.id) }),
  );

  app.get(
    '/db/:mspCustomDomain/updateConnectWiseMemberTier',
    {
      schema: { tags: ['technicians'], operationId: 'updateConnectWiseMemberTier', summary: 'A-039 Set a technician’s tier; id is the technician’s user id (state-changing GET)', params: ZMspPathParams, querystring: ZUpdateMemberTierQuery, response: { 200: ZEmployeeResponse } },
      config: { access: { ...MANAGE_TECHNICIANS, stateChanging: true } },
    },
    async (request, reply) => {
      const employee = await service.updateTier(actorOf(request), request.query.id, request.query.tier);
      void reply.header('cache-control', 'no-store');
      return { employee };
    },
  );

  app.get(
    '/db/:mspCustomDomain/psaMembers',
    {
      schema: { tags: ['technicians'], operationId: 'psaMembers', summary: 'A-006 PSA members not yet imported as technicians (refreshed from the PSA when one is connected)', params: ZMspPathParams, response: { 200: ZPsaMemberCandidates } },
      config: { access: { principal: 'technician', tenant: 'path', anyPermission: ['mspIntegrations', 'technicianUserManagement'] } },
    },
    async (request) => ({ members: await service.listImportCandidates(actorOf(request)) }),
  );

  app.post(
    '/psa/:mspCustomDomain/addPSAMembers',
    {
      schema: { tags: ['technicians'], operationId: 'addPSAMembers', summary: 'A-046 Import PSA members as technicians with tier (default Tier1) and role (default Technician)', params: ZMspPathParams, body: ZAddPsaMembersBody, response: { 201: ZAddPsaMembersResponse } },
      config: { access: { principal: 'technician', tenant: 'path', anyPermission: ['mspIntegrations', 'technicianUserManagement'] } },
    },
    async (request, reply) => reply.status(201).send({ added: await service.importPsaMembers(actorOf(request), request.body) }),
  );
};
