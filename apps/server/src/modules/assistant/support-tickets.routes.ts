import { ZSupportTicketPage, ZTicketsByClientUserQuery, ZTicketsByCompanyQuery, ZTicketsByMspQuery } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { createSupportTicketsService } from './support-tickets';

/** Support tickets (A-017, A-018, A-019; R-290): "All Tickets" of the ticket area, with the ones still pending in the PSA. */
export const registerSupportTicketRoutes: TModule = (app, deps) => {
  const service = createSupportTicketsService(deps);

  app.get(
    '/db/supportTickets/byMspCustomDomain',
    {
      schema: { tags: ['tickets'], operationId: 'supportTicketsByMsp', summary: 'A-017 Every ticket of the MSP, newest first, 30 a page (technicians)', querystring: ZTicketsByMspQuery, response: { 200: ZSupportTicketPage } },
      config: { access: { principal: 'technician', tenant: 'query' } },
    },
    async (request) => service.byMsp(actorOf(request), request.query.page),
  );

  app.get(
    '/db/supportTickets/byClientsUserId',
    {
      schema: { tags: ['tickets'], operationId: 'supportTicketsByClientUser', summary: 'A-018 The tickets one client user raised or is the contact of (a client: only their own), filtered by board, type, subtype, priority and words, Newest or Oldest first', querystring: ZTicketsByClientUserQuery, response: { 200: ZSupportTicketPage } },
      config: { access: { principal: 'user', tenant: 'session' } },
    },
    async (request) => {
      const { clientsUserId, page, ...filter } = request.query;
      return service.byClientUser(actorOf(request), clientsUserId, page, filter);
    },
  );

  app.get(
    '/db/supportTickets/byClientsAutopilotDbid',
    {
      schema: { tags: ['tickets'], operationId: 'supportTicketsByCompany', summary: 'A-019 The tickets of one client company by its row id (a client: only their own company)', querystring: ZTicketsByCompanyQuery, response: { 200: ZSupportTicketPage } },
      config: { access: { principal: 'user', tenant: 'session' } },
    },
    async (request) => service.byCompany(actorOf(request), request.query.clientsAutopilotDbid, mspUserOf(request).companyRowId, request.query.page),
  );
};
