import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZDocumentChatBody, ZDocumentChatResponse, ZGptMessageBody, ZGptMessageResponse, ZJarvisQandABody, ZJarvisQandAResponse, type TChatStreamEvent } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { knowledgeScopeOf } from '../knowledge/knowledge.service';
import { createChatService } from './chat.service';

const ANY_USER = { principal: 'user', tenant: 'session' } as const;

const wantsStream = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/event-stream');

/** Server-sent events (A-096 with Accept: text/event-stream): the answer's text as it is produced, then the whole response. */
function streamAnswer(reply: FastifyReply, chunks: string[], response: unknown): void {
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const send = (event: TChatStreamEvent) => reply.raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event)}\n\n`);
  for (const text of chunks) send({ event: 'delta', text });
  send({ event: 'done', response: response as Extract<TChatStreamEvent, { event: 'done' }>['response'] });
  reply.raw.end();
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
      const { response, chunks } =
        conversationId === undefined ? await chat.troubleshoot(actor, scope, { text, ...(ticketId ? { ticketId } : {}) }) : await chat.chat(actor, scope, { text, conversationId, useRAG, selectedAnswers });
      if (wantsStream(request)) return streamAnswer(reply, chunks, response);
      return response;
    },
  );

  app.post(
    '/gpt/message',
    {
      schema: { tags: ['assistant'], operationId: 'gptMessage', summary: 'A-097 A free prompt; the prompt generator’s top 5 prompts (choices[0].message.content, and `prompts`)', body: ZGptMessageBody, response: { 200: ZGptMessageResponse } },
      config: { access: ANY_USER },
    },
    async (request) => chat.message(knowledgeScopeOf(mspUserOf(request)), request.body.message),
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
