import { MESSAGES, ZAgentForm, ZAgentList, ZAgentResponse, ZConversationPage, ZConversationResponse, ZConversationsByAgentQuery, ZCreateAgentQuery, ZAddConversationBody, ZDeleteConversationQuery, ZDeleteConversationResponse, ZEditAgentQuery, ZGetMessagesQuery, ZMessagePage, ZSoftDeleteAgentQuery, ZSoftDeleteAgentResponse, ZUpdateFeedbackQuery, ZUpdateFeedbackResponse } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createAgentsService } from './agents';
import { createConversationsService } from './conversations';

const ANY_USER = { principal: 'user', tenant: 'session' } as const;
const TECHNICIAN_QUERY = { principal: 'technician', tenant: 'query' } as const;

/** Agents and conversations. */
export const registerAgentRoutes: TModule = (app, deps) => {
  const agentsService = createAgentsService(deps);
  const conversationsService = createConversationsService(deps);

  app.get(
    '/db/getAgents',
    {
      schema: { tags: ['assistant'], operationId: 'getAgents', summary: 'A-021 The built-in troubleshooting agent and the caller’s own agents (deleted ones left out)', response: { 200: ZAgentList } },
      config: { access: ANY_USER },
    },
    async (request) => ({ agents: await agentsService.list(actorOf(request)) }),
  );

  app.post(
    '/gpt/assistant/createNewAgent',
    {
      schema: { tags: ['assistant'], operationId: 'createNewAgent', summary: 'A-091 Create a custom agent (agentName, role, description, objectives)', querystring: ZCreateAgentQuery, body: ZAgentForm, response: { 201: ZAgentResponse } },
      config: { access: TECHNICIAN_QUERY },
    },
    async (request, reply) => reply.status(201).send({ agent: await agentsService.create(actorOf(request), request.body) }),
  );

  app.post(
    '/gpt/assistant/editAndCreateNewAgent',
    {
      schema: { tags: ['assistant'], operationId: 'editAndCreateNewAgent', summary: 'A-092 Edit an agent: a new agent is created from the old one, which is retired', querystring: ZEditAgentQuery, body: ZAgentForm, response: { 201: ZAgentResponse } },
      config: { access: TECHNICIAN_QUERY },
    },
    async (request, reply) => reply.status(201).send({ agent: await agentsService.editAsNew(actorOf(request), request.query.agentId, request.body) }),
  );

  app.get(
    '/db/softDeleteAgent',
    {
      schema: { tags: ['assistant'], operationId: 'softDeleteAgent', summary: 'A-093 Soft-delete one of the caller’s agents (a state-changing GET, decisions #2)', querystring: ZSoftDeleteAgentQuery, response: { 200: ZSoftDeleteAgentResponse } },
      config: { access: { principal: 'technician', tenant: 'session', stateChanging: true } },
    },
    async (request, reply) => {
      await agentsService.softDelete(actorOf(request), request.query.agentId);
      return reply.header('cache-control', 'no-store').send({ agentId: request.query.agentId, deleted: true as const });
    },
  );

  app.post(
    '/db/conversations/addConversation',
    {
      schema: { tags: ['assistant'], operationId: 'addConversation', summary: 'A-094 Start a conversation with an agent (named "Chat - {timestamp}" unless named)', body: ZAddConversationBody, response: { 201: ZConversationResponse } },
      config: { access: ANY_USER },
    },
    async (request, reply) => reply.status(201).send({ conversation: await conversationsService.add(actorOf(request), request.body) }),
  );

  app.get(
    '/db/conversations/getConversationsByAgentID',
    {
      schema: { tags: ['assistant'], operationId: 'getConversationsByAgentID', summary: 'A-014 The caller’s conversations with one live agent, 30 per page: newest first, or oldest first with order=asc (ours)', querystring: ZConversationsByAgentQuery, response: { 200: ZConversationPage } },
      config: { access: ANY_USER },
    },
    async (request) => conversationsService.listByAgent(actorOf(request), request.query),
  );

  app.get(
    '/db/getMessages',
    {
      schema: { tags: ['assistant'], operationId: 'getMessages', summary: 'A-016 The messages of one of the caller’s conversations (page 1 = the newest 30, oldest first)', querystring: ZGetMessagesQuery, response: { 200: ZMessagePage } },
      config: { access: ANY_USER },
    },
    async (request) => conversationsService.messages(actorOf(request), request.query),
  );

  app.get(
    '/db/conversations/deleteConversation',
    {
      schema: { tags: ['assistant'], operationId: 'deleteConversation', summary: 'A-095 Delete one of the caller’s conversations (a state-changing GET)', querystring: ZDeleteConversationQuery, response: { 200: ZDeleteConversationResponse } },
      config: { access: { ...ANY_USER, stateChanging: true } },
    },
    async (request, reply) => {
      await conversationsService.remove(actorOf(request), request.query.conversationId);
      return reply.header('cache-control', 'no-store').send({ conversationId: request.query.conversationId, deleted: true as const });
    },
  );

  app.get(
    '/db/updateFeedback',
    {
      schema: { tags: ['assistant'], operationId: 'updateFeedback', summary: 'A-098 Feedback (positive or negative) on one of the assistant’s answers (a state-changing GET)', querystring: ZUpdateFeedbackQuery, response: { 200: ZUpdateFeedbackResponse } },
      config: { access: { ...ANY_USER, stateChanging: true } },
    },
    async (request, reply) => {
      await conversationsService.feedback(actorOf(request), request.query.messageId, request.query.feedback);
      return reply.header('cache-control', 'no-store').send({ messageId: request.query.messageId, feedback: request.query.feedback, message: MESSAGES.assistant.feedbackSaved });
    },
  );
};
