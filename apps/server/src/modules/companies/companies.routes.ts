import { z } from 'zod';
import {
  ZAddConnectWiseContactBody,
  ZAddConnectWiseContactQuery,
  ZAddContactResponse,
  ZAddPsaContactBody,
  ZClientIntegrations,
  ZClientIntegrationsQuery,
  ZClientsByAutopilotIdQuery,
  ZCompany,
  ZCompanyContactsQuery,
  ZCompanyListQuery,
  ZCompanyPage,
  ZCompanyTicketPage,
  ZCompanyTicketsQuery,
  ZContactListQuery,
  ZContactPage,
  ZCustomDomain,
  ZTicketFormCompaniesQuery,
  ZTicketFormCompanyOptions,
  ZTicketFormContactOptions,
  ZTicketFormContactsQuery,
  type TPermission,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf, type TRouteAccess } from '../../plugins/access';
import type { TCompaniesActor } from './companies.policy';
import { createCompaniesService } from './companies.service';
// Defines the contact.create kind of the PSA outbox (decision 013) before any add is stored.
import './companies.psa-writes';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** decisions 12: the company and contact calls need technicianUserManagement or clientUserManagement (client users: their company only). */
const CONTACT_PERMISSIONS: readonly TPermission[] = ['technicianUserManagement', 'clientUserManagement'];
const READ: TRouteAccess = { principal: 'user', tenant: 'path', anyPermission: CONTACT_PERMISSIONS };
/**
 * A-008 also serves the Client integrations screen's company selector (R-232), which 01 §6 opens with
 * clientIntegrations alone; the companies' contacts stay behind CONTACT_PERMISSIONS (decision 027).
 */
const COMPANY_LIST: TRouteAccess = { principal: 'user', tenant: 'path', anyPermission: [...CONTACT_PERMISSIONS, 'clientIntegrations'] };

function companiesActorOf(request: FastifyRequest): TCompaniesActor {
  const auth = mspUserOf(request);
  return { ...actorOf(request), psaCompanyId: auth.psaCompanyId, companyRowId: auth.companyRowId };
}

/** Companies and contacts (01 §2 Companies/Contacts screens): and the list additions. */
export const registerCompaniesRoutes: TModule = (app, deps) => {
  // Pending adds are resent by the PSA outbox's retry loop (modules/psa-outbox), not by this module.
  const service = createCompaniesService(deps);

  app.get(
    '/db/:mspCustomDomain/psaClients',
    {
      schema: { tags: ['companies'], operationId: 'psaClients', summary: 'A-008 The Companies view: synchronized companies, paged, by client type and search', params: ZMspPathParams, querystring: ZCompanyListQuery, response: { 200: ZCompanyPage } },
      config: { access: COMPANY_LIST },
    },
    async (request) => service.listCompanyPage(companiesActorOf(request), request.query),
  );

  app.get(
    '/db/:mspCustomDomain/psaContactsByClientId',
    {
      schema: { tags: ['companies'], operationId: 'psaContactsByClientId', summary: 'A-009 The CompanyEmployees view: one company\'s contacts (Active/other), paged, with pending adds', params: ZMspPathParams, querystring: ZCompanyContactsQuery, response: { 200: ZContactPage } },
      config: { access: READ },
    },
    async (request) => service.listCompanyContacts(companiesActorOf(request), request.query),
  );

  /*
   * Decision 028: the ticket form's read-only lookups. Every technician may create a ticket for a
   * chosen company and contact (02 §4, R-266; A-109 asks no permission of them), while
   * stay behind the user-management permissions of decision 12; these answer only what the form shows.
   */
  const TICKET_FORM: TRouteAccess = { principal: 'technician', tenant: 'path' };

  app.get(
    '/db/:mspCustomDomain/ticketForm/companies',
    {
      schema: { tags: ['companies'], operationId: 'ticketFormCompanies', summary: 'The ticket form\'s company choice (addition, decision 028): active companies by name, id and name only, at most 50', params: ZMspPathParams, querystring: ZTicketFormCompaniesQuery, response: { 200: ZTicketFormCompanyOptions } },
      config: { access: TICKET_FORM },
    },
    async (request) => service.listTicketFormCompanies(companiesActorOf(request), request.query),
  );

  app.get(
    '/db/:mspCustomDomain/ticketForm/contacts',
    {
      schema: { tags: ['companies'], operationId: 'ticketFormContacts', summary: 'The ticket form\'s contact choice (addition, decision 028): one company\'s active contacts, name, e-mail and phone only, at most 50', params: ZMspPathParams, querystring: ZTicketFormContactsQuery, response: { 200: ZTicketFormContactOptions } },
      config: { access: TICKET_FORM },
    },
    async (request) => service.listTicketFormContacts(companiesActorOf(request), request.query),
  );

  app.get(
    '/db/:mspCustomDomain/psaContacts',
    {
      schema: { tags: ['companies'], operationId: 'psaContacts', summary: 'The Contacts view (addition): the contacts the caller may see, Active and PSA toggles, paged', params: ZMspPathParams, querystring: ZContactListQuery, response: { 200: ZContactPage } },
      // The Contacts admin option's own list: the same gate as the menu (01 §6 with decisions 12).
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['clientUserManagement'], adminOption: 'contacts' } },
    },
    async (request) => service.listContactPage(companiesActorOf(request), request.query),
  );

  app.get(
    '/db/:mspCustomDomain/psaTickets',
    {
      schema: { tags: ['companies'], operationId: 'companyTickets', summary: 'The tickets views (addition): synchronized tickets of a company and/or contact, newest first', params: ZMspPathParams, querystring: ZCompanyTicketsQuery, response: { 200: ZCompanyTicketPage } },
      config: { access: READ },
    },
    async (request) => service.listTicketPage(companiesActorOf(request), request.query),
  );

  app.get(
    '/db/:mspCustomDomain/getClientsByPSAAutopilotId',
    {
      schema: { tags: ['companies'], operationId: 'getClientsByPSAAutopilotId', summary: 'A-003 The client company with this client database id (client users: their own)', params: ZMspPathParams, querystring: ZClientsByAutopilotIdQuery, response: { 200: z.object({ items: z.array(ZCompany) }) } },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => ({ items: await service.companiesByClientId(companiesActorOf(request), request.query.psaAutopilotId) }),
  );

  app.get(
    '/db/:mspCustomDomain/clientIntegrations/client',
    {
      schema: { tags: ['companies'], operationId: 'clientIntegrationsByClient', summary: 'A-005 The client catalogue cards of one client company', params: ZMspPathParams, querystring: ZClientIntegrationsQuery, response: { 200: ZClientIntegrations } },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['clientIntegrations'] } },
    },
    async (request) => service.clientIntegrations(companiesActorOf(request), request.query.clientId),
  );

  const answerAdd = async (reply: FastifyReply, result: { contact: z.infer<typeof ZAddContactResponse>['contact']; isPending: boolean }) => {
    // 201: the PSA has the contact; 202: the PSA is down and the add waits in the outbox (the UI says pending).
    return reply.code(result.isPending ? 202 : 201).send({ contact: result.contact });
  };

  app.post(
    '/psa/psa/:mspCustomDomain/addPSAContact',
    {
      schema: { tags: ['companies'], operationId: 'addPSAContact', summary: 'A-044 Add a contact at the PSA for a client company, then to the synchronized copy', params: ZMspPathParams, body: ZAddPsaContactBody, response: { 201: ZAddContactResponse, 202: ZAddContactResponse } },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: CONTACT_PERMISSIONS } },
    },
    async (request, reply) => answerAdd(reply, await service.addContact(companiesActorOf(request), request.body)),
  );

  app.post(
    '/psa/addConnectWiseContact',
    {
      schema: { tags: ['companies'], operationId: 'addConnectWiseContact', summary: 'A-045 Add a contact at ConnectWise (the A-044 handler with companyId)', querystring: ZAddConnectWiseContactQuery, body: ZAddConnectWiseContactBody, response: { 201: ZAddContactResponse, 202: ZAddContactResponse } },
      config: { access: { principal: 'user', tenant: 'query', anyPermission: CONTACT_PERMISSIONS } },
    },
    async (request, reply) => {
      const { companyId, ...fields } = request.body;
      return answerAdd(reply, await service.addContact(companiesActorOf(request), { ...fields, psaType: 'CONNECTWISE', psaCompanyId: companyId }));
    },
  );
};
