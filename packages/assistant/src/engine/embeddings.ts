// Embeddings through the official OpenAI SDK: any OpenAI-compatible API that serves /embeddings
// (OpenAI, Azure OpenAI, Ollama, vLLM). Anthropic has no embeddings API (decision 026).
import OpenAI from 'openai';

export interface TEmbeddingConnection {
  baseUrl?: string | null;
  apiKey: string;
  /** The embedding model, e.g. text-embedding-3-small or nomic-embed-text. */
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** How many texts go in one request (providers cap a batch; 64 stays under every common cap). */
export const EMBEDDING_BATCH = 64;

/** Thrown when the provider answered with something that is not one vector per text. */
export class EmbeddingOutputError extends Error {}

function checkedVector(value: unknown, dimensions: number | null): number[] {
  if (!Array.isArray(value) || value.length === 0) throw new EmbeddingOutputError('The embedding model answered without a vector.');
  if (dimensions !== null && value.length !== dimensions) throw new EmbeddingOutputError('The embedding model answered vectors of different lengths.');
  if (!value.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new EmbeddingOutputError('The embedding model answered a vector that is not all numbers.');
  return value as number[];
}

/** One vector per text, in the texts' order, all of one length; batched. */
export async function embedTexts(connection: TEmbeddingConnection, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
  if (texts.length === 0) return [];
  const client = new OpenAI({ apiKey: connection.apiKey, baseURL: connection.baseUrl ?? null, timeout: connection.timeoutMs, maxRetries: 0, ...(connection.fetch ? { fetch: connection.fetch } : {}) });
  const vectors: number[][] = [];
  let dimensions: number | null = null;
  for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
    const batch = texts.slice(start, start + EMBEDDING_BATCH);
    const answer = await client.embeddings.create({ model: connection.model, input: batch, encoding_format: 'float' }, signal ? { signal } : {});
    if (answer.data.length !== batch.length) throw new EmbeddingOutputError('The embedding model answered a different number of vectors than texts.');
    const ordered = [...answer.data].sort((a, b) => a.index - b.index);
    for (const item of ordered) {
      const vector = checkedVector(item.embedding, dimensions);
      dimensions = vector.length;
      vectors.push(vector);
    }
  }
  return vectors;
}
