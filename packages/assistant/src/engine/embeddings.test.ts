// Embeddings through the real openai client against the local server that speaks its API. No module is mocked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReply, embeddingInputs, hashedEmbedding, startLlmServer, type TLlmServer } from '../../test/llm-server';
import { EMBEDDING_BATCH, EmbeddingOutputError, embedTexts, type TEmbeddingConnection } from './embeddings';

let server: TLlmServer;
beforeAll(async () => {
  server = await startLlmServer({ reply: defaultReply });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.reply(defaultReply);
});

const connection = (): TEmbeddingConnection => ({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', model: 'test-embed', timeoutMs: 2_000 });

describe('embedTexts (decision 026)', () => {
  it('sends the texts to /embeddings with the model and key, and answers one vector per text in order, batched', async () => {
    const texts = Array.from({ length: EMBEDDING_BATCH + 3 }, (_, i) => `printer number ${i} jams`);
    const vectors = await embedTexts(connection(), texts);
    expect(vectors).toHaveLength(texts.length);
    expect(vectors[5]).toEqual(hashedEmbedding(texts[5] ?? ''));
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-embed', encoding_format: 'float' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(embeddingInputs(server.requests[1] ?? { path: '', headers: {}, body: {} })).toHaveLength(3);
  });

  it('refuses an answer with the wrong number of vectors or vectors of different lengths', async () => {
    server.reply(() => ({ kind: 'openai-embeddings', vectors: [[1, 2]] }));
    await expect(embedTexts(connection(), ['a', 'b'])).rejects.toBeInstanceOf(EmbeddingOutputError);
    server.reply(() => ({ kind: 'openai-embeddings', vectors: [[1, 2], [1]] }));
    await expect(embedTexts(connection(), ['a', 'b'])).rejects.toThrow('different lengths');
  });

  it('fails on an error status (a provider without embeddings answers 404) and on a timeout', async () => {
    server.reply(() => ({ kind: 'status', status: 404, body: { error: { message: 'no such model' } } }));
    await expect(embedTexts(connection(), ['a'])).rejects.toThrow();
    server.reply(() => ({ kind: 'delay', ms: 500, then: { kind: 'openai-embeddings', vectors: [[1]] } }));
    await expect(embedTexts({ ...connection(), timeoutMs: 100 }, ['a'])).rejects.toThrow();
  });

  it('answers nothing for no texts without calling the provider', async () => {
    expect(await embedTexts(connection(), [])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
