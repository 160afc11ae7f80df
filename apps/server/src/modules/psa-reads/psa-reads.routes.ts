import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireCapability, type PsaClient } from '@switchboard/psa';
import type { TModule } from '../../app-deps';
import { mspUserOf, type TRouteAccess } from '../../plugins/access';
import { validation } from '../../lib/app-error';
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

/** A-029 on ConnectWise without `boardId`: statuses are kept per board there. */
const STATUSES_NEED_BOARD = 'Choose a board: ConnectWise keeps its statuses per board.';

const ANY_USER: TRouteAccess = { principal: 'user', tenant: 'query' };
const TECHNICIAN: TRouteAccess = { principal: 'technician', tenant: 'query' };
const MEMBER_DIRECTORY: TRouteAccess = { principal: 'user', tenant: 'query', anyPermission: ['mspIntegrations', 'technicianUserManagement'] };

/** PSA reads of the catalogue (A-024… …A-107), through the signed-in MSP's adapter. */
export const registerPsaReadsRoutes: TModule = (app, deps) => {
  const clients = deps.psaClients;

  /** The admitted user and their MSP's client (the access hook checked tenant and permissions). */
  async function clientFor(request: FastifyRequest) {
    const auth = mspUserOf(request);
    return { auth, client: await clients.forMsp(auth.mspId) };
  }

  const referenceRead = <TSchema extends z.ZodType>(
    path: string,
    operationId: string,
    summary: string,
    item: TSchema,
    access: TRouteAccess,
    read: (client: PsaClient) => Promise<z.infer<TSchema>[]>,
  ) =>
    app.get(path, { schema: { tags: ['psa'], operationId, summary, querystring: ZPsaReadQuery, response: { 200: z.array(item) } }, config: { access } }, async (request) => {
      const { client } = await clientFor(request);
      return withPsaErrors(() => read(client));
    });

  referenceRead('/psa/psa/getMembers', 'getMembers', 'A-024 PSA members (technicians) for import; needs mspIntegrations or technicianUserManagement', ZPsaMember, MEMBER_DIRECTORY, (client) =>
    client.listMembers(),
  );
  referenceRead('/psa/getCompanyTypes', 'getCompanyTypes', 'A-025 PSA company (client) types', ZPsaNamed, TECHNICIAN, (client) => client.listCompanyTypes());
  referenceRead('/psa/getConnectWiseBoards', 'getConnectWiseBoards', 'A-026 PSA boards (Autotask: queues)', ZPsaBoard, ANY_USER, (client) => client.listBoards());
  referenceRead('/psa/getConnectWisePriorities', 'getConnectWisePriorities', 'A-027 PSA priorities', ZPsaPriority, ANY_USER, (client) => client.listPriorities());
  referenceRead('/psa/getCommunicationTypes', 'getCommunicationTypes', 'A-028 ConnectWise communication types (Autotask: 422 notSupported)', ZPsaCommunicationType, TECHNICIAN, (client) => {
    requireCapability(client, 'communicationTypes');
    return client.listCommunicationTypes();
  });
  referenceRead('/psa/getConnectWiseDepartments', 'getConnectWiseDepartments', 'A-031 PSA departments', ZPsaNamed, TECHNICIAN, (client) => client.listDepartments());
  referenceRead('/psa/getConnectWiseLocations', 'getConnectWiseLocations', 'A-032 PSA locations', ZPsaNamed, TECHNICIAN, (client) => client.listLocations());
  referenceRead('/psa/autotask/getTicketTypes', 'autotaskGetTicketTypes', 'A-104 Autotask ticket types (ConnectWise: 422 notSupported)', ZPsaNamed, ANY_USER, (client) => {
    requireCapability(client, 'ticketTypes');
    return client.listTicketTypes();
  });
  referenceRead('/psa/autotask/getPriorities', 'autotaskGetPriorities', 'A-105 Autotask priorities', ZPsaPriority, ANY_USER, (client) => client.listPriorities());
  // The next-tickets flow loads note types whatever the PSA (catalogue A-106); ConnectWise has none, so an empty list.
  referenceRead('/psa/getAtNoteTypes', 'getAtNoteTypes', 'A-106 Note types (Autotask picklist; ConnectWise has none, so an empty list)', ZPsaNamed, TECHNICIAN, (client) => client.listNoteTypes());

  app.get(
    '/psa/getConnectWiseStatuses',
    { config: { access: ANY_USER }, schema: { tags: ['psa'], operationId: 'getConnectWiseStatuses', summary: 'A-029 Statuses of one board (Autotask: the global status list; boardId ignored)', querystring: ZPsaStatusesQuery, response: { 200: z.array(ZPsaStatus) } } },
    async (request) => {
      const { client } = await clientFor(request);
      // Our own refusal, not the PSA's: without a board there is nothing to ask ConnectWise (it answered 422 "The PSA refused the request").
      if (client.psaType === 'connectwise' && request.query.boardId === undefined) {
        throw validation(STATUSES_NEED_BOARD, [{ name: 'boardId', reason: STATUSES_NEED_BOARD }]);
      }
      return withPsaErrors(() => client.listStatuses(request.query.boardId ?? null));
    },
  );

  app.get(
    '/psa/getTicketsById',
    { config: { access: ANY_USER }, schema: { tags: ['psa'], operationId: 'getTicketsById', summary: 'A-101 One PSA ticket (client users: only their company\'s)', querystring: ZPsaTicketQuery, response: { 200: ZPsaTicket } } },
    async (request) => {
      const { auth, client } = await clientFor(request);
      const ticket = await withPsaErrors(() => client.getTicket(request.query.ticketId));
      assertMayReadTicket(auth, ticket);
      return ticket;
    },
  );

  const notesOptions = (operationId: string, summary: string) => ({ config: { access: ANY_USER }, schema: { tags: ['psa'], operationId, summary, querystring: ZPsaTicketQuery, response: { 200: z.array(ZPsaNote) } } });
  const handleNotes = async (request: FastifyRequest<{ Querystring: z.infer<typeof ZPsaTicketQuery> }>) => {
    const { auth, client } = await clientFor(request);
    if (auth.userKind !== 'technician') assertMayReadTicket(auth, await withPsaErrors(() => client.getTicket(request.query.ticketId)));
    return visibleNotes(auth, await withPsaErrors(() => client.listNotes(request.query.ticketId)));
  };
  app.get('/psa/getTicketNotesById', notesOptions('getTicketNotesById', 'A-102 Notes of one ticket (alias of A-103; client users: no internal notes)'), handleNotes);
  app.get('/psa/getTicketNotes', notesOptions('getTicketNotes', 'A-103 Notes of one ticket (alias of A-102)'), handleNotes);

  app.get(
    '/psa/getTicketStatus',
    { config: { access: ANY_USER }, schema: { tags: ['psa'], operationId: 'getTicketStatus', summary: 'A-107 A ticket\'s current PSA status', querystring: ZPsaTicketQuery, response: { 200: ZPsaTicketStatus } } },
    async (request) => {
      const { auth, client } = await clientFor(request);
      const ticket = await withPsaErrors(() => client.getTicket(request.query.ticketId));
      assertMayReadTicket(auth, ticket);
      return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
    },
  );
};
