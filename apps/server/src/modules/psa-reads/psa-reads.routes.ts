import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireCapability, type PsaClient } from '@switchboard/psa';
import type { TModule } from '../../app-deps';
import { requirePermission, requireTechnician, requireTenantUser } from '../../plugins/auth-context';
import { psaClientsFor } from '../integrations/psa-client-for-msp';
import { withPsaErrors } from '../integrations/psa-errors';
import { assertMayReadTicket, visibleNotes } from './psa-reads.policy';
import {
  ZPsaBoard,
  ZPsaCommunicationType,
  ZPsaMember,
  ZPsaNamed,
  ZPsaNote,
  ZPsaPriority,
  ZPsaReadQuery,
  ZPsaStatus,
  ZPsaStatusesQuery,
  ZPsaTicket,
  ZPsaTicketQuery,
  ZPsaTicketStatus,
} from './psa-reads.schemas';

type TAccess = 'anyUser' | 'technician' | 'memberDirectory';

/** PSA reads of the catalogue (A-024… …A-107), through the signed-in MSP's adapter. */
export const registerPsaReadsRoutes: TModule = (app, deps) => {
  const clients = psaClientsFor(deps);

  /** Tenant check (404 on another MSP), access check, then the MSP's client. */
  async function clientFor(request: FastifyRequest, mspCustomDomain: string, access: TAccess) {
    const auth = requireTenantUser(request, mspCustomDomain);
    if (access === 'technician') requireTechnician(auth);
    if (access === 'memberDirectory') requirePermission(auth, 'mspIntegrations', 'technicianUserManagement');
    return { auth, client: await clients.forMsp(auth.mspId) };
  }

  const referenceRead = <TSchema extends z.ZodType>(
    path: string,
    summary: string,
    item: TSchema,
    access: TAccess,
    read: (client: PsaClient) => Promise<z.infer<TSchema>[]>,
  ) =>
    app.get(path, { schema: { tags: ['psa'], summary, querystring: ZPsaReadQuery, response: { 200: z.array(item) } } }, async (request) => {
      const { client } = await clientFor(request, request.query.mspCustomDomain, access);
      return withPsaErrors(() => read(client));
    });

  referenceRead('/psa/psa/getMembers', 'A-024 PSA members (technicians) for import; needs mspIntegrations or technicianUserManagement', ZPsaMember, 'memberDirectory', (client) =>
    client.listMembers(),
  );
  referenceRead('/psa/getCompanyTypes', 'A-025 PSA company (client) types', ZPsaNamed, 'technician', (client) => client.listCompanyTypes());
  referenceRead('/psa/getConnectWiseBoards', 'A-026 PSA boards (Autotask: queues)', ZPsaBoard, 'anyUser', (client) => client.listBoards());
  referenceRead('/psa/getConnectWisePriorities', 'A-027 PSA priorities', ZPsaPriority, 'anyUser', (client) => client.listPriorities());
  referenceRead('/psa/getCommunicationTypes', 'A-028 ConnectWise communication types (Autotask: 422 notSupported)', ZPsaCommunicationType, 'technician', (client) => {
    requireCapability(client, 'communicationTypes');
    return client.listCommunicationTypes();
  });
  referenceRead('/psa/getConnectWiseDepartments', 'A-031 PSA departments', ZPsaNamed, 'technician', (client) => client.listDepartments());
  referenceRead('/psa/getConnectWiseLocations', 'A-032 PSA locations', ZPsaNamed, 'technician', (client) => client.listLocations());
  referenceRead('/psa/autotask/getTicketTypes', 'A-104 Autotask ticket types (ConnectWise: 422 notSupported)', ZPsaNamed, 'anyUser', (client) => {
    requireCapability(client, 'ticketTypes');
    return client.listTicketTypes();
  });
  referenceRead('/psa/autotask/getPriorities', 'A-105 Autotask priorities', ZPsaPriority, 'anyUser', (client) => client.listPriorities());
  // The next-tickets flow loads note types whatever the PSA (catalogue A-106); ConnectWise has none, so an empty list.
  referenceRead('/psa/getAtNoteTypes', 'A-106 Note types (Autotask picklist; ConnectWise has none, so an empty list)', ZPsaNamed, 'technician', (client) => client.listNoteTypes());

  app.get(
    '/psa/getConnectWiseStatuses',
    { schema: { tags: ['psa'], summary: 'A-029 Statuses of one board (Autotask: the global status list; boardId ignored)', querystring: ZPsaStatusesQuery, response: { 200: z.array(ZPsaStatus) } } },
    async (request) => {
      const { client } = await clientFor(request, request.query.mspCustomDomain, 'anyUser');
      return withPsaErrors(() => client.listStatuses(request.query.boardId ?? null));
    },
  );

  app.get(
    '/psa/getTicketsById',
    { schema: { tags: ['psa'], summary: 'A-101 One PSA ticket (client users: only their company\'s)', querystring: ZPsaTicketQuery, response: { 200: ZPsaTicket } } },
    async (request) => {
      const { auth, client } = await clientFor(request, request.query.mspCustomDomain, 'anyUser');
      const ticket = await withPsaErrors(() => client.getTicket(request.query.ticketId));
      assertMayReadTicket(auth, ticket);
      return ticket;
    },
  );

  const notesOptions = (summary: string) => ({ schema: { tags: ['psa'], summary, querystring: ZPsaTicketQuery, response: { 200: z.array(ZPsaNote) } } });
  const handleNotes = async (request: FastifyRequest<{ Querystring: z.infer<typeof ZPsaTicketQuery> }>) => {
    const { auth, client } = await clientFor(request, request.query.mspCustomDomain, 'anyUser');
    if (auth.userKind !== 'technician') assertMayReadTicket(auth, await withPsaErrors(() => client.getTicket(request.query.ticketId)));
    return visibleNotes(auth, await withPsaErrors(() => client.listNotes(request.query.ticketId)));
  };
  app.get('/psa/getTicketNotesById', notesOptions('A-102 Notes of one ticket (alias of A-103; client users: no internal notes)'), handleNotes);
  app.get('/psa/getTicketNotes', notesOptions('A-103 Notes of one ticket (alias of A-102)'), handleNotes);

  app.get(
    '/psa/getTicketStatus',
    { schema: { tags: ['psa'], summary: 'A-107 A ticket\'s current PSA status', querystring: ZPsaTicketQuery, response: { 200: ZPsaTicketStatus } } },
    async (request) => {
      const { auth, client } = await clientFor(request, request.query.mspCustomDomain, 'anyUser');
      const ticket = await withPsaErrors(() => client.getTicket(request.query.ticketId));
      assertMayReadTicket(auth, ticket);
      return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
    },
  );
};
