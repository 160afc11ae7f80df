import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID, MESSAGES, ZJarvisAnswer, type TApplication, type TConversation, type TDocumentChatResponse, type TGptMessageResponse, type TJarvisChatResponse, type TJarvisTroubleshootResponse, type TMessagePage } from '@switchboard/contracts';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { psaTickets } from '@switchboard/db';
import { loadDemoKbArticles, seedKbArticles } from '../knowledge/kb-articles';

let t: TTestApp;
let msp: TTestMsp;
let technician: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  await seedKbArticles(t.deps.database.db, msp.id, loadDemoKbArticles());
  technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
});
afterAll(async () => {
  await t.close();
});

async function conversationFor(client: TestClient, agentID = DEFAULT_AGENT_ID): Promise<TConversation> {
  const response = await client.post('/db/conversations/addConversation', { agentID });
  expect(response.statusCode).toBe(201);
  return response.json<{ conversation: TConversation }>().conversation;
}

describe('A-096 jarvisQandA', () => {
  it('answers in a conversation from the knowledge base, says plainly that no model answered, cites its sources and stores both messages', async () => {
    const conversation = await conversationFor(technician);
    const response = await technician.post('/gpt/jarvisQandA', { text: 'A user forgot their password and needs a reset', conversationId: conversation.id, technicianId: null, useRAG: true });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TJarvisChatResponse>();
    const answer = ZJarvisAnswer.parse(JSON.parse(body.content));
    expect(answer.engine).toBe('local');
    expect(answer.notice).toBe(MESSAGES.assistant.localEngineNotice);
    expect(answer.sources.length).toBeGreaterThan(0);
    expect(answer.sources[0]?.title.toLowerCase()).toContain('password');
    expect(body.aiContent).toContain('1. ');
    const stored = (await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).json<TMessagePage>().messages;
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(stored[1]?.id).toBe(body.messages.id);
  });

  it('streams the answer as server-sent events when asked', async () => {
    const conversation = await conversationFor(technician);
    const response = await technician.post('/gpt/jarvisQandA', { text: 'Outlook keeps asking for the password', conversationId: conversation.id }, { headers: { accept: 'text/event-stream' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const events = response.body.split('\n\n').filter((block) => block.startsWith('event:'));
    expect(events[0]).toMatch(/^event: delta/);
    expect(events.at(-1)).toMatch(/^event: done/);
    expect(events.length).toBeGreaterThan(2);
  });

  it('answers the queue troubleshoot use {text} with choices[0].message.content', async () => {
    const response = await technician.post('/gpt/jarvisQandA', { text: 'VPN keeps disconnecting' });
    expect(response.statusCode).toBe(200);
    const body = response.json<TJarvisTroubleshootResponse>();
    expect(body.choices[0]?.message.content).toContain('Sources:');
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never offers an article\'s "Escalate to Tier 2 when" list as a step to try (the passages had lost their headings, so the escalation rule never saw one)', async () => {
    const response = await technician.post('/gpt/jarvisQandA', { text: 'Printer shows offline and jobs are stuck in the queue' });
    expect(response.statusCode).toBe(200);
    const content = response.json<TJarvisTroubleshootResponse>().choices[0]?.message.content ?? '';
    expect(content).toContain('Print a configuration page');
    expect(content).not.toContain('The print server spooler keeps crashing');
    expect(content).not.toContain("can't be reached");
  });

  it('for a queue ticket, leads with the articles filed under the ticket\'s own type and subtype (an "Account locked" ticket got Outlook and Office activation steps)', async () => {
    await t.deps.database.db.insert(psaTickets).values([
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '100529', summary: 'Account locked - filing deadline at 5', typeName: 'Accounts & Access', subtypeName: 'Account Locked Out' },
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '100531', summary: 'chrome opening gambling sites', typeName: 'Security', subtypeName: 'Compromised Account' },
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '100532', summary: 'Label printer offline', typeName: 'Accounts & Access', subtypeName: 'Password Reset' },
    ]);
    const answerTo = async (text: string, ticketId: string) => (await technician.post('/gpt/jarvisQandA', { text, ticketId })).json<TJarvisTroubleshootResponse>().choices[0]?.message.content ?? '';
    const locked = await answerTo('Account locked - filing deadline at 5', '100529');
    expect(locked).toContain('[1] Knowledge article: Finding the source of repeated account lockouts');
    expect(locked).toMatch(/^1\. .*unlock the account in ADUC/m);
    expect(await answerTo('chrome opening gambling sites', '100531')).toMatch(/\[1\] Knowledge article: Suspected compromised Microsoft 365 account/);
    // A ticket filed under a category its words do not fit: its category's articles lead, and the steps about what the
    // technician asks still come (a source holding the question's words is not measured against the category's lead).
    expect(await answerTo('printer offline after a firmware update', '100532')).toMatch(/^\d+\. .*printer.*\[\d+\]$/im);
  });

  it("for a queue ticket, cites its own subtype's article even when the article's title shares no word with the ticket (review s27: the queue's steps lost the ticket's category)", async () => {
    await t.deps.database.db.insert(psaTickets).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '100540', summary: 'Screens go black when I plug in at my desk', typeName: 'Hardware', subtypeName: 'Monitor / Peripherals' });
    const response = await technician.post('/gpt/jarvisQandA', { text: 'Screens go black when I plug in at my desk', ticketId: '100540' });
    expect(response.statusCode).toBe(200);
    const body = response.json<TJarvisTroubleshootResponse>();
    expect(body.sources.map((source) => source.title)).toContainEqual(expect.stringMatching(/^Docking station and external monitor problems/));
    expect(body.choices[0]?.message.content).toMatch(/^\[1\] Knowledge article: Docking station and external monitor problems/m);
  });

  it('refuses an empty message in both uses with its own words, and another user’s conversation', async () => {
    const conversation = await conversationFor(technician);
    expect((await technician.post('/gpt/jarvisQandA', { text: ' ', conversationId: conversation.id })).json()).toMatchObject({ status: 400, detail: MESSAGES.assistant.chatTextRequired });
    expect((await technician.post('/gpt/jarvisQandA', { text: '' })).json()).toMatchObject({ status: 400, detail: MESSAGES.assistant.troubleshootQuestionRequired });
    const colleague = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await colleague.post('/gpt/jarvisQandA', { text: 'hi', conversationId: conversation.id })).statusCode).toBe(404);
    const outsider = await signedInClient(t, await buildUser(t, await buildMsp(t)));
    expect((await outsider.post('/gpt/jarvisQandA', { text: 'hi', conversationId: conversation.id })).statusCode).toBe(404);
    expect((await new TestClient(t.app).post('/gpt/jarvisQandA', { text: 'hi' })).statusCode).toBe(401);
    expect((await technician.post('/gpt/jarvisQandA', { text: 'hi' }, { csrf: false })).statusCode).toBe(403);
  });
});

describe('A-097 gpt/message and A-099 docs/chat', () => {
  it('answers the Knowledge Base "Ask" over all the knowledge when id is null, as the screen sends it (it answered 400 "Id must be text.")', async () => {
    const response = await technician.post('/docs/chat', { id: null, documentMessage: 'VPN keeps disconnecting' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<TDocumentChatResponse>();
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.documentMessage).toContain('VPN');
  });

  it('gives the prompt generator up to 5 prompts from the MSP’s knowledge', async () => {
    const response = await technician.post('/gpt/message', { message: 'Give me the top 5 prompts about email problems' });
    expect(response.statusCode).toBe(200);
    const body = response.json<TGptMessageResponse>();
    expect(body.prompts.length).toBeGreaterThan(0);
    expect(body.prompts.length).toBeLessThanOrEqual(5);
    expect(body.choices[0]?.message.content).toContain('1. ');
    expect((await technician.post('/gpt/message', { message: '   ' })).json()).toMatchObject({ status: 400, detail: MESSAGES.assistant.promptInputRequired });
  });

  it('answers about one uploaded document, citing it, and hides another company’s document from a client', async () => {
    const form = new FormData();
    form.set('file', new Blob(['# Kiosk reset\n\n1. Unplug the kiosk for 30 seconds.\n2. Hold F8 while it starts.\n3. Choose Restore kiosk profile.']), 'kiosk.md');
    const clientA = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '71' }));
    const uploaded = await clientA.post('/db/applications/upload', form);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const document = uploaded.json<{ application: TApplication }>().application;

    const answer = await clientA.post('/docs/chat', { id: document.id, documentMessage: 'How do I reset the kiosk?' });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<TDocumentChatResponse>();
    expect(body.documentMessage).toContain('Hold F8');
    expect(body.sources[0]).toMatchObject({ kind: 'document', id: document.id });

    const clientB = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '72' }));
    expect((await clientB.post('/docs/chat', { id: document.id, documentMessage: 'How do I reset the kiosk?' })).statusCode).toBe(404);
    const everything = (await clientB.post('/docs/chat', { documentMessage: 'kiosk F8 restore profile' })).json<TDocumentChatResponse>();
    expect(everything.sources.map((source) => source.id)).not.toContain(document.id);
    expect((await clientA.post('/docs/chat', { id: document.id, documentMessage: ' ' })).json()).toMatchObject({ status: 400, detail: MESSAGES.documents.messageRequired });
  });
});
