import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID, MESSAGES, type TAgent, type TAgentList, type TConversation, type TConversationPage, type TMessagePage } from '@switchboard/contracts';
import { agents, auditEvents, conversations } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from '../../../test/factories';
import { insertMessage } from './conversations';
import { isPostgresRun } from '../../../test/lock-waits';

let t: TTestApp;
let msp: TTestMsp;
let technicianUser: TTestUser;
let technician: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  technicianUser = await buildUser(t, msp, { role: 'Technician' });
  technician = await signedInClient(t, technicianUser);
});
afterAll(async () => {
  await t.close();
});

/** Resolves once `count` connections of the test database wait on a lock (PostgreSQL only). */
async function lockWaiters(count: number): Promise<void> {
  for (let tries = 0; tries < 300; tries += 1) {
    const result: unknown = await t.deps.database.db.execute(sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (((result as { rows: Array<{ count: number }> }).rows[0]?.count ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Fewer than ${count} requests came to wait on the held lock within 3 seconds`);
}

const form = { agentName: 'Mailbox helper', role: 'Exchange Online expert', description: 'Helps with shared mailboxes and quotas', objectives: ['Fix mailbox quotas', 'Explain shared mailbox permissions'] };

async function createAgent(client: TestClient = technician, body: object = form): Promise<TAgent> {
  const response = await client.post(`/gpt/assistant/createNewAgent?mspCustomDomain=${msp.customDomain}`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ agent: TAgent }>().agent;
}

async function addConversation(client: TestClient, body: object): Promise<TConversation> {
  const response = await client.post('/db/conversations/addConversation', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ conversation: TConversation }>().conversation;
}

describe('agents (A-021, A-091–A-093; R-241–R-246)', () => {
  it('lists the built-in troubleshooting agent with its fixed id for everyone', async () => {
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '7' }));
    const response = await client.get('/db/getAgents');
    expect(response.statusCode).toBe(200);
    const [first] = response.json<TAgentList>().agents;
    expect(first).toMatchObject({ id: DEFAULT_AGENT_ID, custom: false, deleted: false });
  });

  it('creates an agent with every field of R-241 and lists it for its owner only', async () => {
    const agent = await createAgent();
    expect(agent).toMatchObject({ ...form, custom: true, deleted: false, techId: technicianUser.id, userId: null, mspCustomDomain: msp.customDomain });
    const mine = (await technician.get('/db/getAgents')).json<TAgentList>().agents.map((a) => a.id);
    expect(mine).toEqual(expect.arrayContaining([DEFAULT_AGENT_ID, agent.id]));
    const colleague = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await colleague.get('/db/getAgents')).json<TAgentList>().agents.map((a) => a.id)).not.toContain(agent.id);
    const [event] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'agent.create'), eq(auditEvents.target, agent.id)));
    expect(event?.actorId).toBe(technicianUser.id);
  });

  it('gives each spec message for a missing field (01 §5)', async () => {
    const response = await technician.post(`/gpt/assistant/createNewAgent?mspCustomDomain=${msp.customDomain}`, { agentName: '', role: '', description: '', objectives: [] });
    expect(response.statusCode).toBe(400);
    const reasons = response.json<{ invalidParams: { reason: string }[] }>().invalidParams.map((param) => param.reason);
    expect(reasons).toEqual(expect.arrayContaining([MESSAGES.agentForm.nameRequired, MESSAGES.agentForm.roleRequired, MESSAGES.agentForm.descriptionRequired, MESSAGES.agentForm.objectiveRequired]));
  });

  it('edits by creating a new agent from the old one, which leaves the list (R-245)', async () => {
    const old = await createAgent();
    const response = await technician.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${msp.customDomain}&agentId=${old.id}`, { ...form, agentName: 'Mailbox helper v2' });
    expect(response.statusCode).toBe(201);
    const edited = response.json<{ agent: TAgent }>().agent;
    expect(edited.id).not.toBe(old.id);
    expect(edited).toMatchObject({ agentName: 'Mailbox helper v2', previousAgentId: old.id });
    const ids = (await technician.get('/db/getAgents')).json<TAgentList>().agents.map((a) => a.id);
    expect(ids).toContain(edited.id);
    expect(ids).not.toContain(old.id);
  });

  it('moves the conversations of an edited agent to the new one, so its History still lists them (they were left under the retired id)', async () => {
    const old = await createAgent();
    const conversation = await addConversation(technician, { agentID: old.id, conversationName: 'Quota question' });
    await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: 'user', content: 'Why is the mailbox full?' });
    const builtIn = await addConversation(technician, { agentID: DEFAULT_AGENT_ID, conversationName: 'Not with the agent' });
    const response = await technician.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${msp.customDomain}&agentId=${old.id}`, { ...form, agentName: 'Mailbox helper edited' });
    expect(response.statusCode, response.body).toBe(201);
    const edited = response.json<{ agent: TAgent }>().agent;

    const history = await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${edited.id}`);
    expect(history.statusCode).toBe(200);
    const page = history.json<TConversationPage>();
    expect(page.conversations.map((c) => ({ id: c.id, agentID: c.agentID }))).toEqual([{ id: conversation.id, agentID: edited.id }]);
    expect(page.total).toBe(1);
    expect((await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).json<TMessagePage>().messages.map((m) => m.content)).toEqual(['Why is the mailbox full?']);
    // The built-in agent's conversations stay where they were.
    const builtInIds = (await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${DEFAULT_AGENT_ID}`)).json<TConversationPage>().conversations.map((c) => c.id);
    expect(builtInIds).toContain(builtIn.id);
    // Edited twice: the first agent's conversations follow to the newest.
    const again = await technician.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${msp.customDomain}&agentId=${edited.id}`, { ...form, agentName: 'Mailbox helper edited twice' });
    const newest = again.json<{ agent: TAgent }>().agent;
    expect((await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${newest.id}`)).json<TConversationPage>().conversations.map((c) => c.id)).toEqual([conversation.id]);
  });

  it('makes one agent from two saves of one edit at once (a double-click on Save)', async () => {
    const old = await createAgent();
    const save = () => technician.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${msp.customDomain}&agentId=${old.id}`, { ...form, agentName: 'Mailbox helper twice' });
    let saves: ReturnType<typeof save>[] = [];
    if (isPostgresRun) {
      // Both saves read the agent live before either retires it: its row is held here until both wait to retire it.
      await t.deps.database.db.transaction(async (tx) => {
        await tx.select().from(agents).where(and(eq(agents.mspId, msp.id), eq(agents.id, old.id))).for('update');
        saves = [save(), save()];
        await lockWaiters(2);
      });
    } else {
      saves = [save(), save()];
    }
    const responses = await Promise.all(saves);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 404]);
    expect(responses.find((response) => response.statusCode === 404)?.json()).toMatchObject({ detail: MESSAGES.assistant.agentNotFound });
    const named = (await technician.get('/db/getAgents')).json<TAgentList>().agents.filter((agent) => agent.agentName === 'Mailbox helper twice');
    expect(named).toHaveLength(1);
  });

  it('creates and edits an agent whose text holds half an emoji (a lone surrogate, a 500 before), repaired', async () => {
    const agent = await createAgent(technician, { ...form, agentName: 'Half \ud83d emoji', objectives: ['Fix \ud83d quotas'] });
    expect(agent).toMatchObject({ agentName: 'Half \ufffd emoji', objectives: ['Fix \ufffd quotas'] });
    const edited = await technician.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${msp.customDomain}&agentId=${agent.id}`, { ...form, examplePrompts: ['\ude00 again'] });
    expect(edited.statusCode, edited.body).toBe(201);
    expect(edited.json<{ agent: TAgent }>().agent.examplePrompts).toEqual(['\ufffd again']);
  });

  it('soft-deletes an agent (R-246) and refuses the built-in one', async () => {
    const agent = await createAgent();
    const deleted = await technician.get(`/db/softDeleteAgent?agentId=${agent.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await technician.get('/db/getAgents')).json<TAgentList>().agents.map((a) => a.id)).not.toContain(agent.id);
    expect((await technician.get(`/db/softDeleteAgent?agentId=${agent.id}`)).statusCode).toBe(404);
    const builtIn = await technician.get(`/db/softDeleteAgent?agentId=${DEFAULT_AGENT_ID}`);
    expect(builtIn.statusCode).toBe(400);
    expect(builtIn.json()).toMatchObject({ detail: MESSAGES.assistant.defaultAgentReadOnly });
  });

  it('answers 404 for another MSP’s agent and domain, 403 for a client, 401 without a session, 403 without CSRF', async () => {
    const agent = await createAgent();
    const other = await buildMsp(t);
    const outsider = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await outsider.get(`/db/softDeleteAgent?agentId=${agent.id}`)).statusCode).toBe(404);
    expect((await outsider.post(`/gpt/assistant/createNewAgent?mspCustomDomain=${msp.customDomain}`, form)).statusCode).toBe(404);
    expect((await outsider.post(`/gpt/assistant/editAndCreateNewAgent?mspCustomDomain=${other.customDomain}&agentId=${agent.id}`, form)).statusCode).toBe(404);
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await client.post(`/gpt/assistant/createNewAgent?mspCustomDomain=${msp.customDomain}`, form)).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/db/getAgents')).statusCode).toBe(401);
    const noCsrf = await technician.get(`/db/softDeleteAgent?agentId=${agent.id}`, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect((await technician.get('/db/getAgents')).json<TAgentList>().agents.map((a) => a.id)).toContain(agent.id);
  });
});

describe('conversations (A-014, A-016, A-094, A-095, A-098; R-249–R-255)', () => {
  it('creates "Chat - {timestamp}" with the built-in agent and lists it by agent and user', async () => {
    const conversation = await addConversation(technician, { agentID: DEFAULT_AGENT_ID });
    expect(conversation.conversationName).toMatch(/^Chat - \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(conversation).toMatchObject({ userId: technicianUser.id, agentID: DEFAULT_AGENT_ID, deleted: false });
    const page = (await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${DEFAULT_AGENT_ID}&userId=${technicianUser.id}`)).json<TConversationPage>();
    expect(page.conversations.map((c) => c.id)).toContain(conversation.id);
    expect(page.pageSize).toBe(30);
  });

  // Review s29 #2: "Oldest" only reversed the 30 newest of the page shown; the list call now sorts (R-248 names Newest only).
  it('pages conversations and messages 30 at a time, newest first, or the oldest conversations first with order=asc (another order refused in plain words)', async () => {
    const agent = await createAgent();
    const start = Date.now();
    for (let index = 0; index < 31; index += 1) {
      const added = await addConversation(technician, { agentID: agent.id, conversationName: `Chat ${index}` });
      // A second apart, so the order is the order of creation (two creations in one millisecond would tie).
      await t.deps.database.db.update(conversations).set({ createdAt: new Date(start - (31 - index) * 1000) }).where(and(eq(conversations.mspId, msp.id), eq(conversations.id, added.id)));
    }
    const first = (await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${agent.id}`)).json<TConversationPage>();
    expect(first).toMatchObject({ total: 31, page: 1 });
    expect(first.conversations).toHaveLength(30);
    expect(first.conversations[0]?.conversationName).toBe('Chat 30');
    const second = (await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${agent.id}&page=2`)).json<TConversationPage>();
    expect(second.conversations.map((c) => c.conversationName)).toEqual(['Chat 0']);
    const url = `/db/conversations/getConversationsByAgentID?agentId=${agent.id}`;
    const oldest = (await technician.get(`${url}&order=asc`)).json<TConversationPage>();
    expect(oldest.total).toBe(31);
    expect(oldest.conversations.map((c) => c.conversationName).slice(0, 3)).toEqual(['Chat 0', 'Chat 1', 'Chat 2']);
    expect((await technician.get(`${url}&order=asc&page=2`)).json<TConversationPage>().conversations.map((c) => c.conversationName)).toEqual(['Chat 30']);
    const wrong = await technician.get(`${url}&order=sideways`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ detail: string }>().detail).toBe('Order must be one of: asc, desc.');

    const conversation = await addConversation(technician, { agentID: agent.id });
    for (let index = 0; index < 35; index += 1) {
      await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: index % 2 === 0 ? 'user' : 'assistant', content: `message ${index}`, createdAt: new Date(start + index * 1000) });
    }
    const newest = (await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).json<TMessagePage>();
    expect(newest.total).toBe(35);
    expect(newest.messages.map((m) => m.content).slice(0, 2)).toEqual(['message 5', 'message 6']);
    expect(newest.messages.at(-1)?.content).toBe('message 34');
    const older = (await technician.get(`/db/getMessages?conversationId=${conversation.id}&page=2`)).json<TMessagePage>();
    expect(older.messages.map((m) => m.content)).toEqual(['message 0', 'message 1', 'message 2', 'message 3', 'message 4']);
  });

  it('records feedback on an answer, not on the user’s own message', async () => {
    const conversation = await addConversation(technician, { agentID: DEFAULT_AGENT_ID });
    const question = await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: 'user', content: 'Why?' });
    const answer = await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: 'assistant', content: 'Because.' });
    const response = await technician.get(`/db/updateFeedback?messageId=${answer.id}&feedback=positive`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ feedback: 'positive', message: MESSAGES.assistant.feedbackSaved });
    const [stored] = (await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).json<TMessagePage>().messages.filter((m) => m.id === answer.id);
    expect(stored?.feedback).toBe('positive');
    expect((await technician.get(`/db/updateFeedback?messageId=${question.id}&feedback=negative`)).statusCode).toBe(400);
    expect((await technician.get(`/db/updateFeedback?messageId=${answer.id}&feedback=meh`)).statusCode).toBe(400);
  });

  it('keeps conversations private: another user or MSP gets 404, and deleting hides it', async () => {
    const conversation = await addConversation(technician, { agentID: DEFAULT_AGENT_ID });
    const answer = await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: 'assistant', content: 'Secret steps' });
    const colleague = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await colleague.get(`/db/getMessages?conversationId=${conversation.id}`)).statusCode).toBe(404);
    expect((await colleague.get(`/db/updateFeedback?messageId=${answer.id}&feedback=negative`)).statusCode).toBe(404);
    expect((await colleague.get(`/db/conversations/deleteConversation?conversationId=${conversation.id}`)).statusCode).toBe(404);
    expect((await colleague.get(`/db/conversations/getConversationsByAgentID?agentId=${DEFAULT_AGENT_ID}&userId=${technicianUser.id}`)).statusCode).toBe(404);
    expect((await colleague.post('/db/conversations/addConversation', { agentID: DEFAULT_AGENT_ID, userId: technicianUser.id })).statusCode).toBe(404);
    const outsider = await signedInClient(t, await buildUser(t, await buildMsp(t)));
    expect((await outsider.get(`/db/getMessages?conversationId=${conversation.id}`)).statusCode).toBe(404);

    const deleted = await technician.get(`/db/conversations/deleteConversation?conversationId=${conversation.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).statusCode).toBe(404);
  });

  // Review s29 #1: after softDeleteAgent its conversations were still listed and read, and the chat answered as the deleted persona.
  it('leaves a soft-deleted agent’s conversations out of every list and read: total 0, and chat, messages and feedback answer 404', async () => {
    const ghost = await createAgent(technician, { ...form, agentName: 'Ghost', role: 'Deleted persona' });
    const conversation = await addConversation(technician, { agentID: ghost.id });
    const answer = await insertMessage(t.deps.database.db, msp.id, conversation.id, { role: 'assistant', content: 'Boo.' });
    expect((await technician.get(`/db/softDeleteAgent?agentId=${ghost.id}`)).statusCode).toBe(200);

    const list = await technician.get(`/db/conversations/getConversationsByAgentID?agentId=${ghost.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<TConversationPage>()).toMatchObject({ conversations: [], total: 0 });
    const notFound = { status: 404, detail: MESSAGES.assistant.conversationNotFound };
    expect((await technician.get(`/db/getMessages?conversationId=${conversation.id}`)).json()).toMatchObject(notFound);
    expect((await technician.post('/gpt/jarvisQandA', { text: 'Who are you?', conversationId: conversation.id, useRAG: true })).json()).toMatchObject(notFound);
    expect((await technician.get(`/db/updateFeedback?messageId=${answer.id}&feedback=positive`)).json()).toMatchObject(notFound);
    // The built-in agent (stored as no agent) keeps its conversations.
    const builtIn = await addConversation(technician, { agentID: DEFAULT_AGENT_ID });
    expect((await technician.get(`/db/getMessages?conversationId=${builtIn.id}`)).statusCode).toBe(200);
  });

  it('refuses a conversation with an agent the user does not have', async () => {
    const agent = await createAgent();
    const colleague = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    const response = await colleague.post('/db/conversations/addConversation', { agentID: agent.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: MESSAGES.assistant.agentNotFound });
  });
});
