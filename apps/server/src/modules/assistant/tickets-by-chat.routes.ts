import { ZCancelTicketDraftResponse, ZCreateTicketBody, ZCreateTicketQuery, ZCreateTicketResponse, ZDiagnosticQandABody, ZDiagnosticQandAResponse, ZOpenTicketDraftQuery, ZOpenTicketDraftResponse, ZStepFeedbackBody, ZStepFeedbackResponse, ZTalkToTechnicianBody, ZTicketDraftQuery } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import { actorOf } from '../../plugins/access';
import { registerCategoriserLearning } from './categoriser-learning.jobs';
import { categoriserStoreFor } from './mspboard';
import { createTicketChatService } from './ticket-chat.service';
import { createTicketCreateService } from './ticket-create.service';
import './ticket-create.psa-write';

const ANY_USER_QUERY = { principal: 'user', tenant: 'query' } as const;

/** Tickets by chat (02 §4; ): and the draft additions of docs/api-additions.md. */
export const registerTicketsByChatRoutes: TModule = async (app, deps) => {
  const categorisers = categoriserStoreFor(deps.database.db, deps.now, deps.trainCategoriser);
  await registerCategoriserLearning(deps, categorisers);
  const chat = createTicketChatService(deps, categorisers, (message, error) => app.log.error({ err: error }, message));
  const tickets = createTicketCreateService(deps);

  app.post(
    '/psa/getTicketCategorizationDiagnosticQandA',
    {
      schema: {
        tags: ['tickets-by-chat'],
        operationId: 'getTicketCategorizationDiagnosticQandA',
        summary: 'A-108 First message: diagnostic questions and a proposed categorisation on the MSP’s board; with ticketDraftId and answers: the second round and troubleshooting steps',
        body: ZDiagnosticQandABody,
        response: { 200: ZDiagnosticQandAResponse },
      },
      config: { access: { principal: 'user', tenant: 'session' } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { techId, userId, ticketDraftId } = request.body;
      // techId / userId name the caller (02 §7); anyone else's is not found.
      if ((techId && techId !== actor.userId) || (userId && userId !== actor.userId)) throw notFound();
      const ticketDraft = ticketDraftId ? await chat.answer(actor, ticketDraftId, request.body) : await chat.start(actor, request.body);
      return { ticketDraft };
    },
  );

  app.post(
    '/psa/createTicket',
    {
      schema: {
        tags: ['tickets-by-chat'],
        operationId: 'createTicket',
        summary: 'A-109 Create the ticket in the PSA with every field of the draft (201 created; 202 kept and pending in the PSA)',
        querystring: ZCreateTicketQuery,
        body: ZCreateTicketBody,
        response: { 201: ZCreateTicketResponse, 202: ZCreateTicketResponse },
      },
      config: { access: ANY_USER_QUERY },
    },
    async (request, reply) => {
      const { status, response } = await tickets.create(actorOf(request), request.body);
      return reply.status(status).send(response);
    },
  );

  app.get(
    '/psa/ticketDraft/open',
    {
      schema: {
        tags: ['tickets-by-chat'],
        operationId: 'openTicketDraft',
        summary: 'The caller’s own newest draft still open (questions or troubleshooting) and touched within a day, as A-108 answered it, or null: the chat carries on after a reload',
        querystring: ZOpenTicketDraftQuery,
        response: { 200: ZOpenTicketDraftResponse },
      },
      config: { access: ANY_USER_QUERY },
    },
    async (request) => ({ ticketDraft: await chat.findOpen(actorOf(request)) }),
  );

  app.post(
    '/psa/ticketDraft/cancel',
    {
      schema: { tags: ['tickets-by-chat'], operationId: 'cancelTicketDraft', summary: 'Cancel the ticket being described: "Ticket Creation Cancelled." (R-261)', querystring: ZTicketDraftQuery, response: { 200: ZCancelTicketDraftResponse } },
      config: { access: ANY_USER_QUERY },
    },
    async (request) => chat.cancel(actorOf(request), request.query.ticketDraftId),
  );

  app.post(
    '/psa/ticketDraft/stepFeedback',
    {
      schema: { tags: ['tickets-by-chat'], operationId: 'ticketDraftStepFeedback', summary: 'Whether a troubleshooting step helped; after two "did not help" a technician is offered at once', querystring: ZTicketDraftQuery, body: ZStepFeedbackBody, response: { 200: ZStepFeedbackResponse } },
      config: { access: ANY_USER_QUERY },
    },
    async (request) => chat.stepFeedback(actorOf(request), request.query.ticketDraftId, request.body),
  );

  app.post(
    '/psa/ticketDraft/talkToTechnician',
    {
      schema: {
        tags: ['tickets-by-chat'],
        operationId: 'ticketDraftTalkToTechnician',
        summary: '"Talk to a technician": create the ticket now with what was said so far',
        querystring: ZTicketDraftQuery,
        body: ZTalkToTechnicianBody,
        response: { 201: ZCreateTicketResponse, 202: ZCreateTicketResponse },
      },
      config: { access: ANY_USER_QUERY },
    },
    async (request, reply) => {
      const { status, response } = await tickets.handover(actorOf(request), request.query.ticketDraftId, request.body);
      return reply.status(status).send(response);
    },
  );
};

