// The two ways to reach a model: the official OpenAI SDK (any OpenAI-compatible base URL: OpenAI,
// Azure OpenAI, Ollama, vLLM, LM Studio) and the official Anthropic SDK. Both give the engine the same
// two calls: one JSON answer that follows a JSON schema, and a streamed text answer.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { TChatTurn } from '../types';

export type TLlmProvider = 'openai' | 'anthropic';

export interface TLlmConnection {
  provider: TLlmProvider;
  /** The API root, e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), https://api.anthropic.com. */
  baseUrl?: string | null;
  apiKey: string;
  model: string;
  timeoutMs: number;
  /** Upper bound on generated tokens per call. */
  maxTokens?: number;
  /** The HTTP client both SDKs use; the server passes its SSRF-guarded fetch (global fetch when absent). */
  fetch?: typeof fetch;
}

export interface TJsonRequest {
  /** Fixed instructions of the engine; never holds user text. */
  system: string;
  /** The user-role content (all variable data, user text included). */
  user: string;
  schemaName: string;
  schema: Record<string, unknown>;
  signal: AbortSignal;
}

export interface TStreamRequest {
  system: string;
  /** Alternating turns starting and ending with the user. */
  messages: TChatTurn[];
  signal: AbortSignal;
}

export interface TLlmTransport {
  json(request: TJsonRequest): Promise<unknown>;
  stream(request: TStreamRequest): AsyncIterable<string>;
}

/** Thrown when the model answered, but not with what was asked for. */
export class LlmOutputError extends Error {}

export const LLM_EMPTY_ANSWER = 'The language model gave an empty answer.';
/** An OpenAI `refusal` or a Claude `stop_reason: "refusal"`: the model answered, but would not answer this. */
export const LLM_DECLINED = 'The language model declined to answer.';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LlmOutputError('The language model did not answer with JSON.');
  }
}

function openAiTransport(connection: TLlmConnection): TLlmTransport {
  const client = new OpenAI({ apiKey: connection.apiKey, baseURL: connection.baseUrl ?? null, timeout: connection.timeoutMs, maxRetries: 0, ...(connection.fetch ? { fetch: connection.fetch } : {}) });
  return {
    async json(request) {
      const completion = await client.chat.completions.create(
        {
          model: connection.model,
          max_completion_tokens: connection.maxTokens ?? 1024,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.user },
          ],
          response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
        },
        { signal: request.signal },
      );
      const message = completion.choices[0]?.message;
      if (message?.refusal) throw new LlmOutputError(LLM_DECLINED);
      if (!message?.content) throw new LlmOutputError(LLM_EMPTY_ANSWER);
      return parseJson(message.content);
    },
    async *stream(request) {
      const stream = await client.chat.completions.create(
        {
          model: connection.model,
          max_completion_tokens: connection.maxTokens ?? 2048,
          stream: true,
          messages: [{ role: 'system', content: request.system }, ...request.messages.map((m) => ({ role: m.role, content: m.content }))],
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        // A refusal arrives in its own field, never in content; passing on only content made it a blank answer.
        if (delta?.refusal) throw new LlmOutputError(LLM_DECLINED);
        if (delta?.content) yield delta.content;
      }
    },
  };
}

function anthropicTransport(connection: TLlmConnection): TLlmTransport {
  const client = new Anthropic({ apiKey: connection.apiKey, baseURL: connection.baseUrl ?? null, timeout: connection.timeoutMs, maxRetries: 0, ...(connection.fetch ? { fetch: connection.fetch } : {}) });
  return {
    async json(request) {
      // A forced tool call is Anthropic's structured output that every Claude 3+ model supports.
      const message = await client.messages.create(
        {
          model: connection.model,
          max_tokens: connection.maxTokens ?? 1024,
          system: request.system,
          messages: [{ role: 'user', content: request.user }],
          tools: [{ name: request.schemaName, description: 'Report the result.', input_schema: { type: 'object', ...request.schema } }],
          tool_choice: { type: 'tool', name: request.schemaName },
        },
        { signal: request.signal },
      );
      if (message.stop_reason === 'refusal') throw new LlmOutputError(LLM_DECLINED);
      const block = message.content.find((b) => b.type === 'tool_use');
      if (!block || block.type !== 'tool_use') throw new LlmOutputError('The language model did not return the structured answer.');
      return block.input;
    },
    async *stream(request) {
      const stream = await client.messages.create(
        {
          model: connection.model,
          max_tokens: connection.maxTokens ?? 2048,
          stream: true,
          system: request.system,
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        },
        { signal: request.signal },
      );
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
        if (event.type === 'message_delta' && event.delta.stop_reason === 'refusal') throw new LlmOutputError(LLM_DECLINED);
      }
    },
  };
}

export function createLlmTransport(connection: TLlmConnection): TLlmTransport {
  return connection.provider === 'anthropic' ? anthropicTransport(connection) : openAiTransport(connection);
}
