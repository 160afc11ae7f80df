// A local HTTP server that speaks just enough of the OpenAI chat completions API (JSON and SSE
// stream), the OpenAI embeddings API and the Anthropic messages API (tool use and SSE stream) for the real SDKs to talk to it.
// Each test scripts the reply; every request is recorded so tests can read what the engine sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TRecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type TReply =
  | { kind: 'openai-json'; content: string }
  | { kind: 'openai-stream'; deltas: string[]; failAfter?: number }
  | { kind: 'anthropic-tool'; name: string; input: unknown }
  | { kind: 'anthropic-stream'; deltas: string[] }
  | { kind: 'openai-embeddings'; vectors: number[][] }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'delay'; ms: number; then: TReply };

export interface TLlmServer {
  url: string;
  requests: TRecordedRequest[];
  reply(handler: (request: TRecordedRequest) => TReply): void;
  close(): Promise<void>;
}

function sse(res: ServerResponse, lines: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const line of lines) res.write(line);
  res.end();
}

async function send(res: ServerResponse, reply: TReply, model: string): Promise<void> {
  switch (reply.kind) {
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, reply.ms));
      if (res.destroyed || res.writableEnded) return;
      return send(res, reply.then, model);
    case 'status':
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    case 'openai-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
      return;
    case 'openai-embeddings':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model,
          data: reply.vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          usage: { prompt_tokens: 10, total_tokens: 10 },
        }),
      );
      return;
    case 'openai-stream': {
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (let i = 0; i < reply.deltas.length; i += 1) {
        if (reply.failAfter !== undefined && i === reply.failAfter) {
          res.destroy(); // the connection drops mid-answer
          return;
        }
        res.write(chunk({ content: reply.deltas[i] }, null));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
      return;
    }
    case 'anthropic-tool':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg_test',
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'tool_use', id: 'toolu_test', name: reply.name, input: reply.input }],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 10 },
        }),
      );
      return;
    case 'anthropic-stream': {
      const event = (name: string, data: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
      sse(res, [
        event('message_start', {
          message: { id: 'msg_test', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
        }),
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...reply.deltas.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
        event('content_block_stop', { index: 0 }),
        event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } }),
        event('message_stop', {}),
      ]);
      return;
    }
  }
}

/** The texts an /embeddings request asked for (`input` is a string or a list of them). */
export function embeddingInputs(request: TRecordedRequest): string[] {
  const input = request.body.input;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) ? input.map(String) : [];
}

/**
 * A stand-in embedding for the fake server: each word (lower case, 3+ letters) hashed into one of
 * `dimensions` buckets, then normalised. Texts sharing words point the same way; it is a protocol
 * stand-in, not a model of meaning.
 */
export function hashedEmbedding(text: string, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i += 1) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dimensions] = (vector[(hash >>> 0) % dimensions] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

/**
 * A reply for a server nobody scripts (the browser journeys): a short streamed answer in either API's
 * shape, or a structured answer that the engine will refuse and answer locally instead.
 */
export function defaultReply(request: TRecordedRequest): TReply {
  if (request.path.endsWith('/embeddings')) return { kind: 'openai-embeddings', vectors: embeddingInputs(request).map((text) => hashedEmbedding(text)) };
  const isAnthropic = request.path.endsWith('/messages');
  if (request.body.stream === true) return isAnthropic ? { kind: 'anthropic-stream', deltas: ['OK, ', 'the test model is answering.'] } : { kind: 'openai-stream', deltas: ['OK, ', 'the test model is answering.'] };
  return isAnthropic ? { kind: 'anthropic-tool', name: 'unscripted', input: {} } : { kind: 'openai-json', content: '{}' };
}

/** Starts the server on 127.0.0.1 (a free port unless `port` is given); unscripted, it answers 500 (or `defaultReply`). */
export async function startLlmServer(options: { port?: number; reply?: (request: TRecordedRequest) => TReply } = {}): Promise<TLlmServer> {
  const requests: TRecordedRequest[] = [];
  let handler: (request: TRecordedRequest) => TReply = options.reply ?? (() => ({ kind: 'status', status: 500, body: { error: { message: 'no reply scripted' } } }));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      const recorded: TRecordedRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      void send(res, handler(recorded), typeof body.model === 'string' ? body.model : 'test-model').catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
