import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZDocumentChatBody, ZDocumentChatResponse, ZGptMessageBody, ZGptMessageResponse, ZJarvisQandABody, ZJarvisQandAResponse, type TChatStreamEvent } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { knowledgeScopeOf } from '../knowledge/knowledge.service';
import { createChatService, type TAnswerEvent } from './chat.service';

const ANY_USER = { principal: 'user', tenant: 'session' } as const;

const wantsStream = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/event-stream');

/**
 * A-096's answer: with Accept: text/event-stream, server-sent events as the text is produced, then the
 * whole response (an `error` event if storing it fails mid-stream); otherwise the response as JSON.
 */
async function sendAnswer<T>(request: FastifyRequest, reply: FastifyReply, events: AsyncIterable<TAnswerEvent<T>>): Promise<T | undefined> {
  if (!wantsStream(request)) {
    for await (const event of events) if (event.type === 'done') return event.response;
    throw new Error('the answer ended without a response');
  }
  reply.hijack();
  // onSend hooks do not run for a hijacked reply: the headers set so far and the request id go out here.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.raw.writeHead(200, { 'x-request-id': request.id, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const send = (event: TChatStreamEvent) => reply.raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event)}\n\n`);
  try {
    for await (const event of events) {
      if (reply.raw.destroyed) break;
      if (event.type === 'sources') send({ event: 'sources', passages: event.passages });
      else if (event.type === 'delta') send({ event: 'delta', text: event.text });
      else send({ event: 'done', response: event.response as Extract<TChatStreamEvent, { event: 'done' }>['response'] });
    }
  } catch (error) {
    request.log.error({ err: error }, 'streamed answer failed');
    if (!reply.raw.destroyed) send({ event: 'error', code: 'internal', detail: 'The answer could not be completed. Try again.' });
  }
  reply.raw.end();
  return undefined;
}

/** Aborted when the caller goes away before the answer is sent, so a model stops writing an answer nobody reads. */
function signalOf(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Jarvis chat: A-096 (chat and queue troubleshoot), A-097 (prompt generator), A-099 (document chat). */
export const registerChatRoutes: TModule = (app, deps) => {
  const chat = createChatService(deps);

  app.post(
    '/gpt/jarvisQandA',
    {
      schema: {
        tags: ['assistant'],
        operationId: 'jarvisQandA',
        summary: 'A-096 Ask Jarvis: with conversationId the chat use (stored, content = JSON of explanation and interactiveElements); with {text} the queue troubleshoot use (choices[0].message.content). Accept: text/event-stream streams it',
        body: ZJarvisQandABody,
        response: { 200: ZJarvisQandAResponse },
      },
      config: { access: ANY_USER },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const scope = knowledgeScopeOf(mspUserOf(request));
      const { conversationId, text, useRAG, selectedAnswers, ticketId } = request.body;
      if (conversationId === undefined) return sendAnswer(request, reply, await chat.troubleshoot(actor, scope, { text, ...(ticketId ? { ticketId } : {}) }));
      return sendAnswer(request, reply, await chat.chat(actor, scope, { text, conversationId, useRAG, selectedAnswers }, signalOf(reply)));
    },
  );

  app.post(
    '/gpt/message',
    {
      schema: { tags: ['assistant'], operationId: 'gptMessage', summary: 'A-097 A free prompt; the prompt generator’s top 5 prompts (choices[0].message.content, and `prompts`)', body: ZGptMessageBody, response: { 200: ZGptMessageResponse } },
      config: { access: ANY_USER },
    },
    async (request) => chat.message(actorOf(request), knowledgeScopeOf(mspUserOf(request)), request.body.message),
  );

  app.post(
    '/docs/chat',
    {
      schema: { tags: ['knowledge'], operationId: 'docsChat', summary: 'A-099 Ask about one document (id) or all the knowledge the caller may read (no id); answers cite their passages', body: ZDocumentChatBody, response: { 200: ZDocumentChatResponse } },
      config: { access: ANY_USER },
    },
    async (request) => chat.documentChat(actorOf(request), knowledgeScopeOf(mspUserOf(request)), request.body),
  );
};
