import {
  QUEUE_PATHS,
  ZActivitiesOfTechnicianQuery,
  ZActivitiesQuery,
  ZActivitiesResponse,
  ZAddNoteBody,
  ZAddNoteQuery,
  ZAddNotesQuery,
  ZCloseTicketQuery,
  ZCloseTicketResponse,
  ZCompleteTicketQuery,
  ZCompleteTicketResponse,
  ZCurrentWorkingQuery,
  ZEligibleTicketsQuery,
  ZManualPickQuery,
  ZNextTicketsQuery,
  ZQueueNoteItems,
  ZQueueNotesQuery,
  ZQueueSettings,
  ZQueueSettingsQuery,
  ZQueueSettingsResponse,
  ZQueueTicketActionQuery,
  ZQueueTicketList,
  ZQueueTicketPage,
  ZQueueTicketResponse,
  ZQueueGetAllQuery,
  ZRejectTicketBody,
  ZRejectTicketQuery,
  ZRejectTicketResponse,
  ZReleaseQuery,
  ZReleaseResponse,
  ZRequeueBody,
  ZRequeueQuery,
  ZRequeueResponse,
  ZSessionsToConfirmQuery,
  ZSessionsToConfirmResponse,
  ZTimerBody,
  ZTimerCompleteBody,
  ZTimerConfirmBody,
  ZTimerConfirmResponse,
  ZTimerParams,
  ZTimerResponse,
  ZTimerSessionsParams,
  ZTimerSessionsResponse,
  ZUpdateTicketBody,
  ZUpdateTicketParams,
  ZUpdateTicketQuery,
  ZUpdateTicketResponse,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { registerDispatchRoutes } from './dispatch.routes';
import { createQueueMaintenance } from './queue.maintenance';
import { createQueueService } from './queue.service';
import { createTimersService } from './timers.service';
import { createTicketWritesService, noteKindOf } from './notes.service';

const TECH_QUERY = { principal: 'technician', tenant: 'query' } as const;
const TECH_PATH = { principal: 'technician', tenant: 'path' } as const;
/** The MSP-wide dashboards show every technician's work: people managers and admins. */
const MSP_ACTIVITIES = { principal: 'technician', tenant: 'query', anyPermission: ['adminPortal', 'technicianUserManagement'] } as const;
const QUEUE_ADMIN = { principal: 'technician', tenant: 'query', anyPermission: ['adminPortal'] } as const;
const tags = ['queue'];

/**
 * The technician queue (issue #10; 02 §4, §7; DESIGN §8): and the additions in
 * docs/api-additions.md. Every call acts on the signed-in technician's own queue.
 */
export const registerQueueRoutes: TModule = (app, deps) => {
  const maintenance = createQueueMaintenance(deps);
  const queue = createQueueService(deps, maintenance);
  const timers = createTimersService(deps);
  const writes = createTicketWritesService(deps, queue);
  registerDispatchRoutes(app, deps, maintenance, queue);

  app.get(
    QUEUE_PATHS.getAll,
    { schema: { tags, operationId: 'ticketQueueGetAll', summary: 'A-015 All queue tickets of the MSP (filters, 30 per page)', querystring: ZQueueGetAllQuery, response: { 200: ZQueueTicketPage } }, config: { access: TECH_QUERY } },
    async (request) => queue.getAll(actorOf(request), request.query),
  );

  // A state-changing GET (decisions #2): it claims, so it needs the CSRF header like a POST.
  app.get(
    QUEUE_PATHS.nextTickets,
    {
      schema: { tags, operationId: 'ticketQueueNextTickets', summary: 'A-122 Claim the next tickets (limit 5): own tier first, then lower; never the same ticket twice', querystring: ZNextTicketsQuery, response: { 200: ZQueueTicketList } },
      config: { access: { ...TECH_QUERY, stateChanging: true } },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { tickets: await queue.nextTickets(actorOf(request), request.query) };
    },
  );

  app.get(
    QUEUE_PATHS.currentWorking,
    { schema: { tags, operationId: 'ticketQueueCurrentWorking', summary: 'A-123 The technician’s claimed and in-progress tickets', querystring: ZCurrentWorkingQuery, response: { 200: ZQueueTicketList } }, config: { access: TECH_QUERY } },
    async (request) => ({ tickets: await queue.currentWorking(actorOf(request), request.query.techId) }),
  );

  app.get(
    QUEUE_PATHS.eligibleTickets,
    { schema: { tags, operationId: 'ticketQueueEligibleTickets', summary: 'A-124 Tickets the technician may pick, best first (30 per page)', querystring: ZEligibleTicketsQuery, response: { 200: ZQueueTicketList } }, config: { access: TECH_QUERY } },
    async (request) => ({ tickets: await queue.eligibleTickets(actorOf(request), request.query.techId, request.query.page) }),
  );

  app.get(
    QUEUE_PATHS.activitiesOfTechnician,
    { schema: { tags, operationId: 'ticketQueueActivitiesOfTechnician', summary: 'A-125 One technician’s activities on a date', querystring: ZActivitiesOfTechnicianQuery, response: { 200: ZActivitiesResponse } }, config: { access: TECH_QUERY } },
    async (request) => queue.activities(actorOf(request), request.query.date, request.query.techId),
  );

  app.get(
    QUEUE_PATHS.activities,
    { schema: { tags, operationId: 'ticketQueueActivities', summary: 'A-126 All activities of the MSP on a date', querystring: ZActivitiesQuery, response: { 200: ZActivitiesResponse } }, config: { access: MSP_ACTIVITIES } },
    async (request) => queue.activities(actorOf(request), request.query.date),
  );

  app.post(
    QUEUE_PATHS.manualPick,
    { schema: { tags, operationId: 'ticketQueueManualPick', summary: 'A-127 Pick one queue ticket', querystring: ZManualPickQuery, response: { 200: ZQueueTicketResponse } }, config: { access: TECH_QUERY } },
    async (request) => ({ ticket: await queue.manualPick(actorOf(request), request.query.techId, request.query.ticketQueueEntityId) }),
  );

  for (const [path, operationId, summary] of [
    [QUEUE_PATHS.completeTicket, 'ticketQueueCompleteTicket', 'A-119 Mark a queue ticket complete (with A-113 closeTicket)'],
    [QUEUE_PATHS.complete, 'ticketQueueComplete', 'A-120 Mark a queue ticket complete (alias of A-119)'],
  ] as const) {
    app.post(path, { schema: { tags, operationId, summary, querystring: ZCompleteTicketQuery, response: { 200: ZCompleteTicketResponse } }, config: { access: TECH_QUERY } }, async (request) =>
      queue.complete(actorOf(request), request.query.ticketId, request.query.techId, { close: request.query.close === 'true' }),
    );
  }

  app.post(
    QUEUE_PATHS.markIncomplete,
    { schema: { tags, operationId: 'ticketQueueMarkIncomplete', summary: 'Mark a completed ticket incomplete (decisions #18)', querystring: ZQueueTicketActionQuery, response: { 200: ZQueueTicketResponse } }, config: { access: TECH_QUERY } },
    async (request) => ({ ticket: await queue.markIncomplete(actorOf(request), request.query.ticketId, request.query.techId) }),
  );

  app.post(
    QUEUE_PATHS.requeueTicket,
    { schema: { tags, operationId: 'ticketQueueRequeueTicket', summary: 'A-121 Requeue the active ticket (hold hours, assigned flag, new tier)', querystring: ZRequeueQuery, body: ZRequeueBody, response: { 200: ZRequeueResponse } }, config: { access: TECH_QUERY } },
    async (request) => queue.requeue(actorOf(request), request.query, request.body),
  );

  app.post(
    QUEUE_PATHS.rejectTicket,
    { schema: { tags, operationId: 'ticketQueueRejectTicket', summary: 'Hand a claimed ticket back with a reason (an internal note in the PSA)', querystring: ZRejectTicketQuery, body: ZRejectTicketBody, response: { 200: ZRejectTicketResponse } }, config: { access: TECH_QUERY } },
    async (request) => queue.reject(actorOf(request), request.query.ticketId, request.query.techId, request.body),
  );

  app.post(
    QUEUE_PATHS.release,
    { schema: { tags, operationId: 'ticketQueueRelease', summary: 'Release the technician’s claimed but unstarted tickets', querystring: ZReleaseQuery, response: { 200: ZReleaseResponse } }, config: { access: TECH_QUERY } },
    async (request) => ({ released: await queue.release(actorOf(request), request.query.techId) }),
  );

  app.get(
    QUEUE_PATHS.notes,
    { schema: { tags, operationId: 'ticketQueueNotes', summary: 'Notes written through Switchboard on a ticket, with their PSA delivery', querystring: ZQueueNotesQuery, response: { 200: ZQueueNoteItems } }, config: { access: TECH_QUERY } },
    async (request) => writes.listNotes(actorOf(request), request.query.ticketId),
  );

  app.get(
    QUEUE_PATHS.weights,
    { schema: { tags, operationId: 'ticketQueueWeights', summary: 'The MSP’s queue ordering weights and release rules', querystring: ZQueueSettingsQuery, response: { 200: ZQueueSettingsResponse } }, config: { access: TECH_QUERY } },
    async (request) => ({ settings: await queue.getSettings(actorOf(request)) }),
  );

  app.put(
    QUEUE_PATHS.weights,
    { schema: { tags, operationId: 'ticketQueueSaveWeights', summary: 'Save the queue weights (adminPortal); every open ticket is re-ranked', querystring: ZQueueSettingsQuery, body: ZQueueSettings, response: { 200: ZQueueSettingsResponse } }, config: { access: QUEUE_ADMIN } },
    async (request) => ({ settings: await queue.saveSettings(actorOf(request), request.body) }),
  );

  // Timers: the MSP is the path segment.
  const timerPath = (action: string) => `${QUEUE_PATHS.timerBase}/:mspCustomDomain/${action}`;
  app.post(
    timerPath('start'),
    { schema: { tags, operationId: 'ticketActivitiesStart', summary: 'A-114 Start a timer (any other running timer is paused first)', params: ZTimerParams, body: ZTimerBody, response: { 200: ZTimerResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.start(actorOf(request), request.body),
  );
  app.post(
    timerPath('pause'),
    { schema: { tags, operationId: 'ticketActivitiesPause', summary: 'A-115 Pause the running timer', params: ZTimerParams, body: ZTimerBody, response: { 200: ZTimerResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.pause(actorOf(request), request.body),
  );
  app.post(
    timerPath('resume'),
    { schema: { tags, operationId: 'ticketActivitiesResume', summary: 'A-116 Resume a paused timer (new session)', params: ZTimerParams, body: ZTimerBody, response: { 200: ZTimerResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.resume(actorOf(request), request.body),
  );
  app.post(
    timerPath('complete'),
    { schema: { tags, operationId: 'ticketActivitiesComplete', summary: 'A-117 Complete the timer (optional notes); its time entry goes to the PSA', params: ZTimerParams, body: ZTimerCompleteBody, response: { 200: ZTimerResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.complete(actorOf(request), request.body),
  );
  app.post(
    timerPath('confirm'),
    { schema: { tags, operationId: 'ticketActivitiesConfirm', summary: 'Confirm a session flagged for running past midnight or over 12 hours', params: ZTimerParams, body: ZTimerConfirmBody, response: { 200: ZTimerConfirmResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.confirm(actorOf(request), request.body),
  );
  app.get(
    timerPath('toConfirm'),
    {
      schema: { tags, operationId: 'ticketActivitiesToConfirm', summary: 'The technician’s finished sessions awaiting confirmation, on any of their tickets (decision 043)', params: ZTimerParams, querystring: ZSessionsToConfirmQuery, response: { 200: ZSessionsToConfirmResponse } },
      config: { access: TECH_PATH },
    },
    async (request) => timers.sessionsToConfirm(actorOf(request), request.query.techId),
  );
  app.get(
    `${QUEUE_PATHS.timerBase}/:mspCustomDomain/:ticketId/:techId`,
    { schema: { tags, operationId: 'ticketActivitiesSessions', summary: 'A-118 A technician’s work sessions on a ticket', params: ZTimerSessionsParams, response: { 200: ZTimerSessionsResponse } }, config: { access: TECH_PATH } },
    async (request) => timers.sessionsOf(actorOf(request), request.params.ticketId, request.params.techId),
  );

  // Notes, edit and close: the PSA service's paths.
  app.post(
    QUEUE_PATHS.addNoteToTicket,
    { schema: { tags, operationId: 'addNoteToTicket', summary: 'A-110 Add a note (info label and text; a Description note)', querystring: ZAddNoteQuery, body: ZAddNoteBody, response: { 200: ZQueueNoteItems } }, config: { access: TECH_QUERY } },
    async (request) => writes.addNote(actorOf(request), request.query.ticketId, 'description', null, request.body),
  );
  app.post(
    QUEUE_PATHS.addNotesToTicket,
    { schema: { tags, operationId: 'addNotesToTicket', summary: 'A-111 Add a categorised note (Description, Internal or Resolution flag; noteType)', querystring: ZAddNotesQuery, body: ZAddNoteBody, response: { 200: ZQueueNoteItems } }, config: { access: TECH_QUERY } },
    async (request) => writes.addNote(actorOf(request), request.query.ticketId, noteKindOf(request.query), request.query.noteType ?? null, request.body),
  );
  app.put(
    `${QUEUE_PATHS.updateTicket}/:ticketId`,
    {
      schema: { tags, operationId: 'updateTicket', summary: 'A-112 Save edits to a ticket', params: ZUpdateTicketParams, querystring: ZUpdateTicketQuery, body: ZUpdateTicketBody, response: { 200: ZUpdateTicketResponse } },
      config: { access: TECH_QUERY },
    },
    async (request) => writes.updateTicket(actorOf(request), request.params.ticketId, request.body),
  );
  app.post(
    QUEUE_PATHS.closeTicket,
    { schema: { tags, operationId: 'closeTicket', summary: 'A-113 Close the ticket at the PSA with the board’s closing status (retried until it lands)', querystring: ZCloseTicketQuery, response: { 200: ZCloseTicketResponse } }, config: { access: TECH_QUERY } },
    async (request) => writes.closeTicket(actorOf(request), request.query.ticketId, request.query.boardId),
  );
};
