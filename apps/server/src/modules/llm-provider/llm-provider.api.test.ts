// The MSP's AI model settings (decision 023) through HTTP, against the fake model server that speaks
// the OpenAI and Anthropic APIs, so the real SDKs run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LLM_PROVIDER_MESSAGES, permissionMap } from '@switchboard/contracts';
import { auditEvents, llmProviders, roles } from '@switchboard/db';
import { startLlmServer, type TLlmServer } from '@switchboard/assistant/testing';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';

let t: TTestApp;
let llm: TLlmServer;
/** Another model server on the allow-list: the address someone with mspIntegrations would point the provider at. */
let elsewhere: TLlmServer;
/** Answers every request with a 307 to `redirectTarget` (same path); allow-listed. */
let redirector: Server;
let redirectorUrl: string;
let redirectTarget = '';
/** Allow-listed, like an on-premises model; and a local port that is on no list. */
let listedVictim: TLlmServer;
let unlistedVictim: TLlmServer;

const API_KEY = 'sk-live-abcdefghijklmnop9xYz';

beforeAll(async () => {
  llm = await startLlmServer();
  elsewhere = await startLlmServer({ reply: () => ({ kind: 'openai-stream', deltas: ['OK'] }) });
  listedVictim = await startLlmServer({ reply: () => ({ kind: 'openai-stream', deltas: ['OK'] }) });
  unlistedVictim = await startLlmServer({ reply: () => ({ kind: 'openai-stream', deltas: ['OK'] }) });
  redirector = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(307, { location: `${redirectTarget}${request.url ?? ''}` }).end());
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  // The fake models listen on plain http on loopback, which the SSRF guard lets through only when allow-listed.
  const allowList = [llm.url, elsewhere.url, listedVictim.url, redirectorUrl].map((address) => new URL(address).host);
  t = await createTestApp({ config: { outboundAllowList: allowList, llmTimeoutMs: 1000 } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([llm.close(), elsewhere.close(), listedVictim.close(), unlistedVictim.close()]);
  redirector.closeAllConnections();
  await new Promise<void>((resolve) => redirector.close(() => resolve()));
});
beforeEach(() => {
  for (const server of [llm, elsewhere, listedVictim, unlistedVictim]) server.requests.length = 0;
  llm.reply((request) => (request.path === '/v1/messages' ? { kind: 'anthropic-stream', deltas: ['OK'] } : { kind: 'openai-stream', deltas: ['OK'] }));
});

const url = (msp: TTestMsp) => `/db/${msp.customDomain}/llm-provider`;
const openAiBody = () => ({ provider: 'openai', model: 'gpt-test', apiKey: API_KEY, baseUrl: `${llm.url}/v1` });

async function adminOf(msp: TTestMsp): Promise<TestClient> {
  return signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
}

async function auditActions(msp: TTestMsp): Promise<string[]> {
  const rows = await t.deps.database.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.mspId, msp.id)).orderBy(auditEvents.createdAt);
  return rows.map((row) => row.action).filter((action) => action.startsWith('llm_provider.'));
}

describe('GET/PUT/DELETE /db/{msp}/llm-provider', () => {
  it('starts unconfigured, saves the key encrypted and shows only its last four characters', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    expect((await admin.get(url(msp))).json()).toEqual({ isConfigured: false, provider: null, model: null, baseUrl: null, embeddingModel: null, keyHint: null, updatedAt: null });

    const saved = await admin.put(url(msp), openAiBody());
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(API_KEY);
    expect(saved.json()).toMatchObject({ isConfigured: true, provider: 'openai', model: 'gpt-test', baseUrl: `${llm.url}/v1`, keyHint: '••••9xYz' });
    const [row] = await t.deps.database.db.select().from(llmProviders).where(eq(llmProviders.mspId, msp.id));
    expect(JSON.stringify(row)).not.toContain(API_KEY);

    const read = await admin.get(url(msp));
    expect(read.body).not.toContain(API_KEY);
    expect(read.json()).toMatchObject({ isConfigured: true, keyHint: '••••9xYz' });
    expect(await auditActions(msp)).toEqual(['llm_provider.create']);
  });

  // Review finding: the hint was "••••" and the last four characters whatever the key's length, so a short key was shown whole.
  it('shows no character of a key shorter than 12 characters', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const saved = await admin.put(url(msp), { ...openAiBody(), apiKey: 'abcd' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ keyHint: '••••' });
    const read = await admin.get(url(msp));
    expect(read.body).not.toContain('abcd');
    expect(read.json()).toMatchObject({ keyHint: '••••' });
    const eleven = await admin.put(url(msp), { ...openAiBody(), apiKey: 'sk-12345678' });
    expect(eleven.json()).toMatchObject({ keyHint: '••••' });
    const twelve = await admin.put(url(msp), { ...openAiBody(), apiKey: 'sk-123456789' });
    expect(twelve.json()).toMatchObject({ keyHint: '••••6789' });
  });

  it('keeps the stored key when the field is left out, but a new provider needs a new key', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), openAiBody());
    const renamed = await admin.put(url(msp), { provider: 'openai', model: 'gpt-other', baseUrl: `${llm.url}/v1` });
    expect(renamed.json()).toMatchObject({ model: 'gpt-other', keyHint: '••••9xYz' });
    expect((await admin.post(`${url(msp)}/test`)).json()).toMatchObject({ ok: true });
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    const switched = await admin.put(url(msp), { provider: 'anthropic', model: 'claude-test' });
    expect(switched.statusCode).toBe(400);
    expect(switched.json()).toMatchObject({ code: 'validation', detail: LLM_PROVIDER_MESSAGES.apiKeyRequired, invalidParams: [{ name: 'apiKey' }] });
  });

  // Security review: with the provider unchanged the stored key was kept whatever the base URL said, so a new
  // base URL and no key saved, and Test then sent `Authorization: Bearer <the stored key>` to that address.
  it('asks for the key again when the base URL changes, so the stored key never goes to a new address', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), openAiBody());
    const moved = await admin.put(url(msp), { provider: 'openai', model: 'gpt-test', baseUrl: `${elsewhere.url}/v1` });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      code: 'validation',
      detail: LLM_PROVIDER_MESSAGES.apiKeyRequiredForNewAddress,
      invalidParams: [{ name: 'apiKey', reason: LLM_PROVIDER_MESSAGES.apiKeyRequiredForNewAddress }],
    });
    // Leaving the base URL empty means the provider's own address: a new address too.
    expect((await admin.put(url(msp), { provider: 'openai', model: 'gpt-test', baseUrl: '' })).statusCode).toBe(400);
    expect((await admin.get(url(msp))).json()).toMatchObject({ baseUrl: `${llm.url}/v1` });
    expect((await admin.post(`${url(msp)}/test`)).json()).toMatchObject({ ok: true });
    expect(elsewhere.requests).toEqual([]);
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    // The same address written differently keeps the key; a new address with its key is saved.
    const sameAddress = await admin.put(url(msp), { provider: 'openai', model: 'gpt-test', baseUrl: `${llm.url.replace('http://', 'HTTP://')}/v1/` });
    expect(sameAddress.statusCode).toBe(200);
    expect(sameAddress.json()).toMatchObject({ keyHint: '••••9xYz' });
    const withKey = await admin.put(url(msp), { provider: 'openai', model: 'gpt-test', baseUrl: `${elsewhere.url}/v1`, apiKey: 'sk-other-key-1234' });
    expect(withKey.json()).toMatchObject({ baseUrl: `${elsewhere.url}/v1`, keyHint: '••••1234' });
  });

  it('refuses each bad field with a clear message, and a base URL the SSRF guard refuses', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const noModel = await admin.put(url(msp), { ...openAiBody(), model: '  ' });
    expect(noModel.statusCode).toBe(400);
    expect(noModel.json<{ detail: string }>().detail).toContain(LLM_PROVIDER_MESSAGES.modelRequired);
    const badProvider = await admin.put(url(msp), { ...openAiBody(), provider: 'gemini' });
    expect(badProvider.statusCode).toBe(400);
    const notAUrl = await admin.put(url(msp), { ...openAiBody(), baseUrl: 'ftp://example.com' });
    expect(notAUrl.statusCode).toBe(400);
    expect(notAUrl.json<{ detail: string }>().detail).toContain(LLM_PROVIDER_MESSAGES.baseUrlInvalid);
    // The reason is shown under the Base URL field: a sentence (it was the fragment "only https addresses are allowed").
    const privateAddress = await admin.put(url(msp), { ...openAiBody(), baseUrl: 'http://169.254.169.254/v1' });
    expect(privateAddress.statusCode).toBe(400);
    expect(privateAddress.json()).toMatchObject({ detail: 'That base URL cannot be used: only https addresses are allowed.', invalidParams: [{ name: 'baseUrl', reason: 'Only https addresses are allowed.' }] });
    const metadata = await admin.put(url(msp), { ...openAiBody(), baseUrl: 'https://169.254.169.254/v1' });
    expect(metadata.json()).toMatchObject({ detail: 'That base URL cannot be used: it points to a private or local network address.' });
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: false });
  });

  // Review s29: on an allow-listed host, credentials (and any query string) in the base URL were saved in plain text,
  // shown by GET and written to the audit row.
  it('refuses a base URL holding credentials or a query string, even on an allow-listed host', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const host = new URL(llm.url).host;
    const withCredentials = await admin.put(url(msp), { ...openAiBody(), baseUrl: `http://user:pass@${host}/v1` });
    expect(withCredentials.statusCode).toBe(400);
    expect(withCredentials.json()).toMatchObject({ detail: 'That base URL cannot be used: addresses with a user name or password are not allowed.', invalidParams: [{ name: 'baseUrl' }] });
    const withQuery = await admin.put(url(msp), { ...openAiBody(), baseUrl: `http://${host}/v1?api-key=SECRET` });
    expect(withQuery.statusCode).toBe(400);
    expect(withQuery.json<{ invalidParams: { name: string }[] }>().invalidParams[0]?.name).toBe('baseUrl');
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: false });
    expect(await auditActions(msp)).toEqual([]);
  });

  it('removes the provider and its key, and says so when there is nothing to remove', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), openAiBody());
    const removed = await admin.delete(url(msp));
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ isConfigured: false });
    expect(await t.deps.database.db.select().from(llmProviders).where(eq(llmProviders.mspId, msp.id))).toEqual([]);
    const again = await admin.delete(url(msp));
    expect(again.statusCode).toBe(409);
    expect(again.json<{ detail: string }>().detail).toBe(LLM_PROVIDER_MESSAGES.notConfigured);
    expect(await auditActions(msp)).toEqual(['llm_provider.create', 'llm_provider.delete']);
  });

  it('answers 401 without a session, 403 without mspIntegrations or for a client, 404 for another MSP, 403 without CSRF', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    expect((await new TestClient(t.app).get(url(msp))).statusCode).toBe(401);
    const [limitedRole] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'No integrations', permissions: permissionMap(['boardView']), custom: true }).returning();
    if (!limitedRole) throw new Error('role not created');
    const technician = await signedInClient(t, await buildUser(t, msp, { roleId: limitedRole.id }));
    expect((await technician.put(url(msp), openAiBody())).statusCode).toBe(403);
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await client.get(url(msp))).statusCode).toBe(403);
    expect((await (await adminOf(other)).put(url(msp), openAiBody())).statusCode).toBe(404);
    expect((await (await adminOf(msp)).put(url(msp), openAiBody(), { csrf: false })).statusCode).toBe(403);
    expect(await t.deps.database.db.select().from(llmProviders).where(eq(llmProviders.mspId, msp.id))).toEqual([]);
  });
});

describe('POST /db/{msp}/llm-provider/test', () => {
  it('calls the saved model through the real SDK and says it answered', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), { provider: 'anthropic', model: 'claude-test', apiKey: API_KEY, baseUrl: llm.url });
    const tested = await admin.post(`${url(msp)}/test`);
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toMatchObject({ ok: true, message: expect.stringMatching(/^claude-test answered in \d+ ms\.$/) as unknown });
    expect(llm.requests[0]).toMatchObject({ path: '/v1/messages', body: { model: 'claude-test', stream: true } });
    const headers = llm.requests[0]?.headers;
    expect(`${String(headers?.['x-api-key'])} ${String(headers?.authorization)}`).toContain(API_KEY);
  });

  it('reports a refused key and a timeout in plain words, and audits the failure', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), openAiBody());
    llm.reply(() => ({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key' } } }));
    expect((await admin.post(`${url(msp)}/test`)).json()).toMatchObject({ ok: false, message: 'The language model service refused the request (HTTP 401).' });
    llm.reply(() => ({ kind: 'delay', ms: 3000, then: { kind: 'openai-stream', deltas: ['late'] } }));
    expect((await admin.post(`${url(msp)}/test`)).json()).toMatchObject({ ok: false, message: 'The language model did not answer within 1 s.' });
    const failures = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'llm_provider.test')));
    expect(failures.map((row) => row.outcome)).toEqual(['failure', 'failure']);
  });

  // Security review: the SDKs followed redirects, and the connect-time guard compared hosts without their
  // ports, so an allow-listed (or public) model address could send the server, and the key, to any local port.
  it.each([
    ['a local port on no allow-list', () => unlistedVictim],
    ['another allow-listed address', () => listedVictim],
  ])('does not follow a redirect from the model address to %s', async (_case, victimOf) => {
    const victim = victimOf();
    redirectTarget = victim.url;
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    expect((await admin.put(url(msp), { ...openAiBody(), baseUrl: `${redirectorUrl}/v1` })).statusCode).toBe(200);
    const tested = await admin.post(`${url(msp)}/test`);
    expect(tested.json()).toMatchObject({ ok: false });
    expect(victim.requests).toEqual([]);
  });

  it('answers 409 when no model is configured', async () => {
    const msp = await buildMsp(t);
    const tested = await (await adminOf(msp)).post(`${url(msp)}/test`);
    expect(tested.statusCode).toBe(409);
    expect(tested.json<{ detail: string }>().detail).toBe(LLM_PROVIDER_MESSAGES.notConfigured);
  });
});
