// Search by meaning beside words (decision 026), through HTTP, with the real openai SDK against the
// local fake model server. Its embedding puts a few chosen synonyms on one axis each, so a query can
// share no word with a passage and still be close to it in meaning.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { LLM_PROVIDER_MESSAGES, type TApplication, type TRagSearchResponse } from '@switchboard/contracts';
import { knowledgeChunks, psaTicketEmbeddings } from '@switchboard/db';
import { embeddingInputs, hashedEmbedding, startLlmServer, type TLlmServer, type TRecordedRequest } from '@switchboard/assistant/testing';
import { buildApp } from '../../app';
import { createAppJobQueue } from '../../app-job-queue';
import type { TestClient} from '../../../test/test-app';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { createKnowledgeEmbeddings } from './knowledge-embeddings';

const SYNONYMS: string[][] = [
  // Words the IT thesaurus of retrieval by words does not hold (it has "notebook" for "laptop"): only meaning meets them.
  ['laptop', 'ultrabook'],
  ['battery', 'accumulator'],
  ['swelling', 'bulging', 'swollen'],
];

/** The fake model's embedding: each synonym group is one axis; other words are hashed onto the rest. */
function conceptEmbedding(text: string): number[] {
  const hashed = hashedEmbedding(text, 61);
  const concepts = SYNONYMS.map((group) => (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => group.includes(word)).length);
  const vector = [...concepts.map((count) => count * 2), ...hashed];
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}
const embeddingsReply = (request: TRecordedRequest) => ({ kind: 'openai-embeddings' as const, vectors: embeddingInputs(request).map(conceptEmbedding) });
const embeddingCalls = () => llm.requests.filter((request) => request.path === '/v1/embeddings');

let t: TTestApp;
let llm: TLlmServer;
let msp: TTestMsp;
let admin: TestClient;
const hasPgvector = () => t.deps.database.vectorSearch.isAvailable;

beforeAll(async () => {
  llm = await startLlmServer({ reply: embeddingsReply });
  t = await createTestApp({ config: { outboundAllowList: [new URL(llm.url).host], llmTimeoutMs: 2000 } });
  msp = await buildMsp(t);
  admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
  const saved = await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1`, embeddingModel: 'test-embed' });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toMatchObject({ embeddingModel: 'test-embed' });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.reply(embeddingsReply);
});

async function upload(client: TestClient, name: string, text: string): Promise<TApplication> {
  const form = new FormData();
  form.set('file', new Blob([Buffer.from(text)], { type: 'text/plain' }), name);
  const response = await client.post('/db/applications/upload', form);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ application: TApplication }>().application;
}

const search = async (client: TestClient, domain: string, query: string) => {
  const response = await client.post('/gpt/rag/search', { query, mspCustomDomain: domain, limit: 5, mode: 'near' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TRagSearchResponse>().results;
};

describe('embeddings of the MSP’s knowledge (pgvector)', () => {
  it('embeds an uploaded document’s passages with the MSP’s embedding model, and finds it by meaning with no word in common', async () => {
    const before = embeddingCalls().length;
    const document = await upload(admin, 'laptop-battery.txt', 'Laptop battery swelling: power the laptop off and replace the battery at once.');
    const embedded = () =>
      t.deps.database.db
        .select({ model: knowledgeChunks.embeddingModel })
        .from(knowledgeChunks)
        .where(and(eq(knowledgeChunks.mspId, msp.id), eq(knowledgeChunks.documentId, document.id), isNotNull(knowledgeChunks.embedding)));
    // Embedded in the background after the upload answered.
    if (hasPgvector()) await expect.poll(async () => (await embedded()).length).toBe(1);
    const stored = await embedded();
    const results = await search(admin, msp.customDomain, 'ultrabook accumulator bulging');
    if (!hasPgvector()) {
      // PostgreSQL without the vector extension: nothing is embedded, and search by words goes on.
      expect(stored).toEqual([]);
      expect(embeddingCalls().length).toBe(before);
      expect(results).toEqual([]);
      return;
    }
    expect(stored).toEqual([{ model: 'test-embed' }]);
    expect(embeddingCalls().at(-1)?.body).toMatchObject({ model: 'test-embed', input: ['ultrabook accumulator bulging'] });
    expect(results.map((result) => result.id)).toEqual([document.id]);
    expect(results[0]?.snippet).toContain('replace the battery');
  });

  it('leaves an MSP without an embedding model on search by words: no call to any model, no result by meaning', async () => {
    const plain = await buildMsp(t);
    const plainAdmin = await signedInClient(t, await buildUser(t, plain, { role: 'Admin' }));
    await upload(plainAdmin, 'laptop-battery.txt', 'Laptop battery swelling: power the laptop off and replace the battery at once.');
    const before = embeddingCalls().length;
    expect(await search(plainAdmin, plain.customDomain, 'ultrabook accumulator bulging')).toEqual([]);
    expect((await search(plainAdmin, plain.customDomain, 'laptop battery')).length).toBe(1);
    expect(embeddingCalls().length).toBe(before);
  });

  it('embeds past resolutions when the model is saved and finds them by meaning; a changed resolution is embedded again', async () => {
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ externalId: 7301, summary: 'Swollen laptop battery', isClosed: true, resolution: 'Replaced the battery under warranty' }]);
    expect((await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', baseUrl: `${llm.url}/v1`, embeddingModel: 'test-embed' })).statusCode).toBe(200);
    const embeddedTickets = () => t.deps.database.db.select({ hash: psaTicketEmbeddings.textHash }).from(psaTicketEmbeddings).where(eq(psaTicketEmbeddings.mspId, msp.id));
    if (!hasPgvector()) {
      expect(await embeddedTickets()).toEqual([]);
      return;
    }
    await expect.poll(async () => (await embeddedTickets()).length).toBe(1);
    const results = await search(admin, msp.customDomain, 'ultrabook accumulator bulging');
    expect(results.map((result) => result.kind)).toContain('resolution');

    const [first] = await embeddedTickets();
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ externalId: 7301, summary: 'Swollen laptop battery', isClosed: true, resolution: 'Replaced the battery and the palm rest' }]);
    // The pass the categoriser-learning job runs after tickets close.
    expect(await createKnowledgeEmbeddings(t.deps).embedPending(msp.id)).toEqual({ passages: 0, resolutions: 1 });
    const [second] = await embeddedTickets();
    expect(second?.hash).not.toBe(first?.hash);
  });

  it('searches by words alone when the embedding call fails (an error status or no answer in time)', async () => {
    await upload(admin, 'dock.txt', 'Thunderbolt dock flickering external monitor: update the dock firmware.');
    llm.reply(() => ({ kind: 'status', status: 500, body: { error: { message: 'down' } } }));
    const results = await search(admin, msp.customDomain, 'thunderbolt dock monitor');
    expect(results[0]?.snippet).toContain('dock firmware');
    llm.reply(() => ({ kind: 'delay', ms: 3_000, then: { kind: 'openai-embeddings', vectors: [[1]] } }));
    const slow = await search(admin, msp.customDomain, 'thunderbolt dock monitor');
    expect(slow[0]?.snippet).toContain('dock firmware');
  });

  it('starts and searches by words when the database has no pgvector, without calling the model', async () => {
    // Its own job queue too: closing this app must not stop the file's.
    const app = await buildApp({ ...t.deps, database: { ...t.deps.database, vectorSearch: { isAvailable: false, reason: 'extension "vector" is not available' } }, jobQueue: createAppJobQueue(t.deps) });
    try {
      const session = await signedInClient({ ...t, app }, await buildUser(t, msp, { role: 'Admin' }));
      const before = embeddingCalls().length;
      const byMeaning = await session.post('/gpt/rag/search', { query: 'ultrabook accumulator bulging', mspCustomDomain: msp.customDomain, limit: 5, mode: 'near' });
      expect(byMeaning.statusCode).toBe(200);
      expect(byMeaning.json<TRagSearchResponse>().results.filter((result) => result.kind === 'document')).toEqual([]);
      const byWords = await session.post('/gpt/rag/search', { query: 'thunderbolt dock monitor', mspCustomDomain: msp.customDomain, limit: 5, mode: 'near' });
      expect(byWords.json<TRagSearchResponse>().results[0]?.snippet).toContain('dock firmware');
      expect(embeddingCalls().length).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('refuses an embedding model for Claude with a plain message', async () => {
    const response = await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'anthropic', model: 'claude-test', apiKey: 'sk-ant-1234', embeddingModel: 'test-embed' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: LLM_PROVIDER_MESSAGES.embeddingModelOpenAiOnly });
  });
});
