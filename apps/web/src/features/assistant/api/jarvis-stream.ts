import { CSRF_HEADER, MESSAGES } from '@switchboard/contracts';
import type { TJarvisChatResponse, TJarvisQandABody, TSource } from '@switchboard/contracts';
import { ApiError, apiFetch, loadSchemas } from '../../../lib/api-client';

export type TServerSentEvent = { event: string; data: string };

/** Splits a text/event-stream body into its events (blank-line separated; `event:` and `data:` lines). */
export function parseEventStream(buffer: string): { events: TServerSentEvent[]; rest: string } {
  const events: TServerSentEvent[] = [];
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

async function readProblem(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { code?: unknown; detail?: unknown };
    if (typeof body.code === 'string' && typeof body.detail === 'string') return new ApiError({ status: response.status, code: body.code, detail: body.detail });
  } catch {
    // not problem+json
  }
  return new ApiError({ status: response.status, code: response.status >= 500 ? 'internal' : 'unknown', detail: MESSAGES.unexpectedError });
}

/**
 * A streamed answer so far: its text, and (from the stream's `sources` event, sent before a model's first words) the
 * source behind each of the model's [Sn] citations, `passages[n - 1]`; null when the stream did not say.
 */
export type TAnswerSoFar = { text: string; passages: TSource[] | null };

/**
 * A-096 streamed (SSE over a POST, so fetch rather than EventSource): `onDelta` gets the answer so far as
 * it arrives; the promise resolves with the final, validated answer. A server that answers with plain
 * JSON instead of a stream is accepted too.
 */
export async function streamJarvisAnswer(body: TJarvisQandABody, onDelta: (answerSoFar: TAnswerSoFar) => void, signal?: AbortSignal): Promise<TJarvisChatResponse> {
  const schemas = loadSchemas();
  schemas.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch('/gpt/jarvisQandA', {
      method: 'POST',
      headers: { [CSRF_HEADER]: '1', accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network', detail: MESSAGES.networkError });
  }
  if (!response.ok) throw await readProblem(response);
  const { ZChatStreamSources, ZJarvisChatResponse } = await schemas;
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
    const parsed = ZJarvisChatResponse.safeParse(await response.json());
    if (!parsed.success) throw new ApiError({ status: response.status, code: 'invalid_response', detail: MESSAGES.unexpectedResponse });
    onDelta({ text: parsed.data.answer.explanation, passages: null });
    return parsed.data;
  }

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let text = '';
  let passages: TSource[] | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (value !== undefined) buffer += value;
    const { events, rest } = parseEventStream(done ? `${buffer}\n\n` : buffer);
    buffer = rest;
    for (const event of events) {
      const payload = JSON.parse(event.data) as Record<string, unknown>;
      // The event name travels in the data (ZChatStreamEvent) and, usually, in the `event:` line too.
      const kind = typeof payload.event === 'string' ? payload.event : event.event;
      if (kind === 'sources') {
        const parsed = ZChatStreamSources.safeParse({ ...payload, event: 'sources' });
        if (!parsed.success) throw new ApiError({ status: 200, code: 'invalid_response', detail: MESSAGES.unexpectedResponse });
        passages = parsed.data.passages;
        onDelta({ text, passages });
      } else if (kind === 'delta' && typeof payload.text === 'string') {
        text += payload.text;
        onDelta({ text, passages });
      } else if (kind === 'done') {
        const parsed = ZJarvisChatResponse.safeParse(payload.response);
        if (!parsed.success) throw new ApiError({ status: 200, code: 'invalid_response', detail: MESSAGES.unexpectedResponse });
        return parsed.data;
      } else if (kind === 'error') {
        throw new ApiError({ status: 200, code: typeof payload.code === 'string' ? payload.code : 'internal', detail: typeof payload.detail === 'string' ? payload.detail : MESSAGES.unexpectedError });
      }
    }
    if (done) break;
  }
  throw new ApiError({ status: 200, code: 'invalid_response', detail: MESSAGES.unexpectedResponse });
}

/** A-096 without streaming, for callers that only need the final answer. */
export function askJarvis(body: TJarvisQandABody) {
  return apiFetch('/gpt/jarvisQandA', { method: 'POST', body, schema: (s) => s.ZJarvisChatResponse });
}
