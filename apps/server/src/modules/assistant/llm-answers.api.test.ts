// Jarvis with an MSP's AI model (decision 023), through HTTP and the real SDKs against the fake model
// server: the model's answers when it answers, the local engine's (saying why) when it does not, and
// one audit event per answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { fallbackAnswerIntro, SYSTEM_ANSWER, SYSTEM_PROMPTS, SYSTEM_TROUBLESHOOT } from '@switchboard/assistant';
import { startLlmServer, type TLlmServer } from '@switchboard/assistant/testing';
import { DEFAULT_AGENT_ID, MESSAGES, type TConversation, type TDocumentChatResponse, type TGptMessageResponse, type TJarvisChatResponse, type TJarvisTroubleshootResponse, type TMessagePage, type TSource } from '@switchboard/contracts';
import { auditEvents, psaTickets } from '@switchboard/db';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { loadDemoKbArticles, seedKbArticles } from '../knowledge/kb-articles';

let t: TTestApp;
let llm: TLlmServer;
let msp: TTestMsp;
let technician: TestClient;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ config: { outboundAllowList: [new URL(llm.url).host], llmTimeoutMs: 2_000 } });
  msp = await buildMsp(t);
  await seedKbArticles(t.deps.database.db, msp.id, loadDemoKbArticles());
  const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
  const saved = await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` });
  expect(saved.statusCode, saved.body).toBe(200);
  technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.requests.length = 0;
});

async function conversation(): Promise<TConversation> {
  const response = await technician.post('/db/conversations/addConversation', { agentID: DEFAULT_AGENT_ID });
  expect(response.statusCode).toBe(201);
  return response.json<{ conversation: TConversation }>().conversation;
}

async function answerEvents(requestId: string) {
  const rows = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'assistant.answer'), eq(auditEvents.requestId, requestId)));
  return rows.map((row) => row.details);
}

/** The sourceIds the engine gave the model in its user message, in order. */
function sourceIdsSent(): string[] {
  const messages = llm.requests[0]?.body.messages as { role: string; content: string }[];
  const last = messages[messages.length - 1]?.content ?? '';
  return [...last.matchAll(/"sourceId":"(S\d+)"/g)].map((match) => match[1] ?? '');
}

describe('A-096 chat with the MSP\'s model', () => {
  it('streams the model\'s words as they come, cites the sources it named, stores the answer and audits it', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Reset the password ', 'from the admin portal [S1].'] }));
    const chat = await conversation();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: chat.id, useRAG: true }, { headers: { accept: 'text/event-stream' } });
    expect(response.statusCode).toBe(200);
    const events = response.body.split('\n\n').filter((block) => block.startsWith('event:')).map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { event: string; text?: string; response?: TJarvisChatResponse });
    const done = events.at(-1)?.response;
    expect(done?.answer.sources).toHaveLength(1);
    const title = done?.answer.sources[0]?.title ?? '';
    expect(title.toLowerCase()).toContain('password');
    // The model's [S1] becomes [1], with the same "Sources:" list the local answers have (review s27: the screen never said what S1 was).
    const footer = `\n\nSources:\n[1] Knowledge article: ${title}\n`;
    expect(events.filter((event) => event.event === 'delta').map((event) => event.text)).toEqual(['Reset the password ', 'from the admin portal [S1].', footer]);
    expect(done?.answer).toMatchObject({ engine: 'llm', notice: null, explanation: `Reset the password from the admin portal [1].${footer}` });

    // The system prompt is the fixed one; the question and the sources travel as user content.
    const body = llm.requests[0]?.body;
    expect(body).toMatchObject({ model: 'gpt-test', stream: true });
    const messages = body?.messages as { role: string; content: string }[];
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_ANSWER });
    expect(messages.at(-1)?.content.endsWith('A user forgot their password and needs a reset')).toBe(true);
    expect(sourceIdsSent()[0]).toBe('S1');

    const stored = (await technician.get(`/db/getMessages?conversationId=${chat.id}`)).json<TMessagePage>().messages;
    expect(stored.map((message) => [message.role, message.engine])).toEqual([['user', null], ['assistant', 'llm']]);
    expect(stored[1]?.content).toBe(`Reset the password from the admin portal [1].${footer}`);
    const [audited] = await answerEvents(response.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'chat', engine: 'llm', fallbackReason: null, sources: [{ kind: 'article' }] });
  });

  // Review s28 fix #2: the screen numbered [S1], [S2], [S3] 1, 2, 3 while they streamed, the stored answer by the source
  // behind them (passages of one article share it): "[1] … [2] … [3]" became "[1] … [1] … [2]" at the end.
  it('sends which source each [Sn] points at before the first words, numbered as the stored answer numbers them', async () => {
    // The model cites every passage it was given, in order.
    llm.reply((request) => {
      const messages = request.body.messages as { role: string; content: string }[];
      const passageCount = [...(messages.at(-1)?.content ?? '').matchAll(/"sourceId":"S\d+"/g)].length;
      return { kind: 'openai-stream', deltas: Array.from({ length: passageCount }, (_, index) => `Step ${index + 1} [S${index + 1}]. `) };
    });
    const chat = await conversation();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: chat.id, useRAG: true }, { headers: { accept: 'text/event-stream' } });
    expect(response.statusCode, response.body).toBe(200);
    type TEvent = { event: string; text?: string; passages?: TSource[]; response?: TJarvisChatResponse };
    const events = response.body.split('\n\n').filter((block) => block.startsWith('event:')).map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as TEvent);
    const firstDelta = events.findIndex((event) => event.event === 'delta');
    expect(firstDelta).toBeGreaterThan(0);
    expect(events.slice(0, firstDelta).map((event) => event.event)).toEqual(['sources']);
    const passages = events[0]?.passages ?? [];
    // One entry per passage the model was given ([S1] is passages[0]), and some passages share their article.
    expect(passages).toHaveLength(sourceIdsSent().length);
    const keyOf = (source: TSource) => `${source.kind}:${source.id}`;
    expect(new Set(passages.map(keyOf)).size).toBeLessThan(passages.length);
    // Numbered by source in the order first cited, the streamed text reads as the stored answer does.
    const order: string[] = [];
    const streamed = events.filter((event) => event.event === 'delta').slice(0, passages.length).map((event) => event.text ?? '').join('');
    const numbered = streamed.replace(/\[S(\d+)\]/g, (_whole, n: string) => {
      const key = keyOf(passages[Number(n) - 1] as TSource);
      if (!order.includes(key)) order.push(key);
      return `[${order.indexOf(key) + 1}]`;
    });
    const done = events.at(-1)?.response;
    expect(done?.answer.explanation.startsWith(numbered)).toBe(true);
    expect(done?.answer.sources.map(keyOf)).toEqual(order);
  });

  it('sends the conversation so far as alternating turns', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['First answer.'] }));
    const chat = await conversation();
    await technician.post('/gpt/jarvisQandA', { text: 'Outlook asks for the password', conversationId: chat.id });
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Second answer.'] }));
    llm.requests.length = 0;
    await technician.post('/gpt/jarvisQandA', { text: 'It still asks', conversationId: chat.id });
    const messages = llm.requests[0]?.body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]?.content).toBe('Outlook asks for the password');
    expect(messages[2]?.content).toBe('First answer.');
  });

  it('says plainly when the model\'s answer cites none of the sources (review s27: it looked like one that did)', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Restart the computer.'] }));
    const chat = await conversation();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: chat.id, useRAG: true });
    const body = response.json<TJarvisChatResponse>();
    expect(body.answer).toMatchObject({ engine: 'llm', sources: [], explanation: `Restart the computer.\n\n${MESSAGES.assistant.answerCitesNoSource}\n` });
    // The model sees its earlier answers as it wrote them, without the list or the notice.
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Then sign in again [S1].'] }));
    llm.requests.length = 0;
    await technician.post('/gpt/jarvisQandA', { text: 'It still asks', conversationId: chat.id, useRAG: true });
    expect((llm.requests[0]?.body.messages as { role: string; content: string }[])[2]?.content).toBe('Restart the computer.');
  });

  it('answers from the knowledge base, saying why, when the model is down — and still stores and audits the answer', async () => {
    llm.reply(() => ({ kind: 'status', status: 500, body: { error: { message: 'boom' } } }));
    const chat = await conversation();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: chat.id, useRAG: true });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TJarvisChatResponse>();
    const reason = 'The language model service refused the request (HTTP 500).';
    expect(body.answer).toMatchObject({ engine: 'local', notice: fallbackAnswerIntro(reason) });
    expect(body.aiContent.startsWith(fallbackAnswerIntro(reason))).toBe(true);
    expect(body.aiContent).toContain('1. ');
    expect(body.answer.sources.length).toBeGreaterThan(0);
    const [audited] = await answerEvents(response.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'chat', engine: 'local', fallbackReason: reason });
  });

  // Review s29: a model that streamed nothing left a blank answer, stored as the model's, with no notice.
  it('answers from the knowledge base, saying why, when the model streams no words — in the chat and the document chat', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: [] }));
    const reason = 'The language model gave an empty answer.';
    const chat = await conversation();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: chat.id, useRAG: true });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TJarvisChatResponse>();
    expect(body.answer).toMatchObject({ engine: 'local', notice: fallbackAnswerIntro(reason) });
    expect(body.aiContent.startsWith(fallbackAnswerIntro(reason))).toBe(true);
    expect(body.aiContent).toContain('1. ');
    const stored = (await technician.get(`/db/getMessages?conversationId=${chat.id}`)).json<TMessagePage>().messages;
    expect(stored.map((message) => [message.role, message.engine])).toEqual([['user', null], ['assistant', 'local']]);
    expect(stored[1]?.content.trim()).not.toBe('');

    const document = await technician.post('/docs/chat', { documentMessage: 'A user forgot their password and needs a reset' });
    expect(document.statusCode, document.body).toBe(200);
    const answered = document.json<TDocumentChatResponse>();
    expect(answered).toMatchObject({ engine: 'local', notice: fallbackAnswerIntro(reason) });
    expect(answered.documentMessage.startsWith(fallbackAnswerIntro(reason))).toBe(true);
    const [audited] = await answerEvents(document.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'document', engine: 'local', fallbackReason: reason });
  });

  it('falls back when the model is slower than LLM_TIMEOUT_MS', async () => {
    llm.reply(() => ({ kind: 'delay', ms: 6000, then: { kind: 'openai-stream', deltas: ['too late'] } }));
    const chat = await conversation();
    const started = Date.now();
    const response = await technician.post('/gpt/jarvisQandA', { text: 'Outlook keeps asking for the password', conversationId: chat.id });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(response.json<TJarvisChatResponse>().answer).toMatchObject({ engine: 'local', notice: fallbackAnswerIntro('The language model did not answer within 2 s.') });
  });
});

// Review s27: the Knowledge Base's Ask showed the model's raw [S1] citations, which named nothing on screen.
describe('A-099 document chat with the MSP\'s model', () => {
  it('numbers the model\'s citations [1], [2]… with the Sources list the ticket chat has, and audits what it cited', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Reset the password ', 'from the admin portal [S1]; unknown [S99].'] }));
    const response = await technician.post('/docs/chat', { id: null, documentMessage: 'A user forgot their password and needs a reset' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TDocumentChatResponse>();
    // S1 is the first source retrieved (and sent to the model); the answer's sources list all that were retrieved.
    const title = body.sources[0]?.title ?? '';
    expect(title.toLowerCase()).toContain('password');
    expect(sourceIdsSent()[0]).toBe('S1');
    expect(body).toMatchObject({ engine: 'llm', notice: null, documentMessage: `Reset the password from the admin portal [1]; unknown.\n\nSources:\n[1] Knowledge article: ${title}\n` });
    const [audited] = await answerEvents(response.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'document', engine: 'llm', sources: [{ kind: 'article', id: body.sources[0]?.id }] });
  });

  it('says plainly when the model\'s answer cites none of the sources', async () => {
    llm.reply(() => ({ kind: 'openai-stream', deltas: ['Restart the computer.'] }));
    const response = await technician.post('/docs/chat', { documentMessage: 'A user forgot their password and needs a reset' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TDocumentChatResponse>()).toMatchObject({ engine: 'llm', documentMessage: `Restart the computer.\n\n${MESSAGES.assistant.answerCitesNoSource}\n` });
    const [audited] = await answerEvents(response.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'document', engine: 'llm', sources: [] });
  });
});

describe('A-096 queue troubleshooting and A-097 prompts with the MSP\'s model', () => {
  it('gives the model\'s steps, each citing a retrieved source; a step citing no source is dropped', async () => {
    llm.reply(() => ({ kind: 'openai-json', content: JSON.stringify({ steps: [{ text: 'Unlock the account in the admin portal.', sourceId: 'S1' }, { text: 'Invented step.', sourceId: 'S99' }, { text: 'Send a reset link.', sourceId: 'S1' }] }) }));
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TJarvisTroubleshootResponse>();
    expect(body).toMatchObject({ engine: 'llm', notice: null });
    const content = body.choices[0]?.message.content ?? '';
    expect(content).toContain('1. Unlock the account in the admin portal. [1]');
    expect(content).toContain('2. Send a reset link. [1]');
    expect(content).not.toContain('Invented step');
    expect(body.sources).toHaveLength(1);
    expect(llm.requests[0]?.body.messages).toEqual(expect.arrayContaining([{ role: 'system', content: SYSTEM_TROUBLESHOOT }]));
    const [audited] = await answerEvents(response.headers['x-request-id'] as string);
    expect(audited).toMatchObject({ use: 'troubleshoot', engine: 'llm', fallbackReason: null });
  });

  it('gives the local steps under the reason when the model answers nonsense', async () => {
    llm.reply(() => ({ kind: 'openai-json', content: 'not json' }));
    const body = (await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset' })).json<TJarvisTroubleshootResponse>();
    expect(body).toMatchObject({ engine: 'local', notice: fallbackAnswerIntro('The language model did not answer with JSON.') });
    expect(body.choices[0]?.message.content).toContain('1. ');
  });

  it("falls back to steps from a queue ticket's own subtype article even when its title shares no word with the ticket (review s27: the category was lost on the way to the local steps)", async () => {
    await t.deps.database.db.insert(psaTickets).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '200540', summary: 'Screens go black when I plug in at my desk', typeName: 'Hardware', subtypeName: 'Monitor / Peripherals' });
    llm.reply(() => ({ kind: 'openai-json', content: 'not json' }));
    const body = (await technician.post('/gpt/jarvisQandA', { text: 'Screens go black when I plug in at my desk', ticketId: '200540' })).json<TJarvisTroubleshootResponse>();
    expect(body.engine).toBe('local');
    expect(body.sources.map((source) => source.title)).toContainEqual(expect.stringMatching(/^Docking station and external monitor problems/));
    expect(body.choices[0]?.message.content).toMatch(/^\[1\] Knowledge article: Docking station and external monitor problems/m);
  });

  it('suggests the model\'s top 5 prompts', async () => {
    llm.reply(() => ({ kind: 'openai-json', content: JSON.stringify({ prompts: ['How do I reset a password?', 'How do I unlock an account?', 'Three?', 'Four?', 'Five?', 'Six?'] }) }));
    const response = await technician.post('/gpt/message', { message: 'Give me the top 5 prompts about passwords' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TGptMessageResponse>();
    expect(body).toMatchObject({ engine: 'llm', notice: null, prompts: ['How do I reset a password?', 'How do I unlock an account?', 'Three?', 'Four?', 'Five?'] });
    expect(body.choices[0]?.message.content).toBe('1. How do I reset a password?\n2. How do I unlock an account?\n3. Three?\n4. Four?\n5. Five?');
    expect(llm.requests[0]?.body.messages).toEqual(expect.arrayContaining([{ role: 'system', content: SYSTEM_PROMPTS }]));
  });

  it('answers with the local engine again once the model is removed', async () => {
    const other = await buildMsp(t);
    await seedKbArticles(t.deps.database.db, other.id, loadDemoKbArticles());
    const admin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    await admin.put(`/db/${other.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` });
    expect((await admin.delete(`/db/${other.customDomain}/llm-provider`)).statusCode).toBe(200);
    const body = (await admin.post('/gpt/jarvisQandA', { text: 'A user forgot their password' })).json<TJarvisTroubleshootResponse>();
    expect(body).toMatchObject({ engine: 'local', notice: MESSAGES.assistant.localEngineNotice });
    expect(llm.requests).toHaveLength(0);
  });
});
