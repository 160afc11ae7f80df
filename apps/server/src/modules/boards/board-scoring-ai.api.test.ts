// A-052 with the MSP's AI model (decision 024), through HTTP and the real SDKs against the fake model
// server: history-backed numbers stay history, the model fills only what history cannot support, its
// answer is validated against the board, and any failure falls back to history/defaults and says why.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SYSTEM_BOARD_SCORES } from '@switchboard/assistant';
import { startLlmServer, type TLlmServer, type TRecordedRequest, type TReply } from '@switchboard/assistant/testing';
import { autotaskQueueFromBoard, type TMergedCategorization, type TScoredBoard, type TTicketingConfiguration } from '@switchboard/contracts';
import { auditEvents, llmProviders } from '@switchboard/db';
import type { PsaClient } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TTestMsp } from '../../../test/factories';
import { upsertTicketCopies, type TTicketCopy } from './ticket-copies.repository';

let t: TTestApp;
let sim: TPsaSimulator;
let llm: TLlmServer;

beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(async () => {
  await llm.close();
});
withSimulatorApp({ app: (started) => ({ config: { outboundAllowList: [new URL(started.url).host, new URL(llm.url).host], llmTimeoutMs: 2_000 } }) }, (ready) => ({ t, sim } = ready));

interface TWanted {
  key: string;
  category: string;
  closedTickets: number;
}
interface TSentToModel {
  board: string;
  priorities: { name: string; score: number }[];
  examples: { category: string; closedTickets: number; priorityScore: number; slaHours: number }[];
  wanted: TWanted[];
  limits: { scoreMax: number; slaHoursMax: number };
}

/** What the engine put in the user message of a recorded request (OpenAI or Anthropic). */
function sentToModel(request: TRecordedRequest | undefined): TSentToModel {
  const messages = (request?.body.messages ?? []) as { role: string; content: string }[];
  return JSON.parse(messages.find((message) => message.role === 'user')?.content ?? '{}') as TSentToModel;
}

/** A model that answers every wanted subtype with the same plausible numbers. */
const answerAll = (request: TRecordedRequest, numbers: Partial<{ priorityScore: number; subTypeScore: number; slaHours: number; tier: string }> = {}) =>
  sentToModel(request).wanted.map((entry) => ({ key: entry.key, priorityScore: 50, subTypeScore: 20, slaHours: 6, tier: 'Tier2', reason: `${entry.category} usually takes a morning.`, ...numbers }));
const openAiAnswer = (suggestions: unknown): TReply => ({ kind: 'openai-json', content: JSON.stringify({ suggestions }) });

describe('A-052 with an AI model configured', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let board: Omit<TMergedCategorization, 'psaType' | 'isConfigured' | 'statuses' | 'canCreate'>;
  const historySubtype = 'Password Reset';

  beforeAll(async () => {
    ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise'));
    const direct: PsaClient = simulatorPsaClient(sim, 'connectwise', 'board-ai-direct');
    const helpDesk = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
    if (!helpDesk) throw new Error('the demo simulator has no Help Desk board');
    const merged = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${helpDesk.id}`);
    expect(merged.statusCode, merged.body).toBe(200);
    const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = merged.json<TMergedCategorization>();
    board = detail;

    // Five closed Password Reset tickets: enough history for that subtype, none for the others.
    const [types, subtypes, priorities] = await Promise.all([direct.listTypes(helpDesk.id), direct.listSubtypes(helpDesk.id), direct.listPriorities()]);
    const subtype = subtypes.find((candidate) => candidate.name === historySubtype);
    const type = types.find((candidate) => subtype?.typeIds.includes(candidate.id));
    const priority = priorities[1];
    if (!subtype || !type || !priority) throw new Error('the demo board lacks Password Reset');
    const copies: TTicketCopy[] = [1, 2, 3, 4, 5].map((n) => ({
      externalId: 880_000 + n,
      summary: `Locked out ${n}`,
      description: '',
      board: { id: helpDesk.id, name: helpDesk.name },
      type: { id: String(type.id), name: type.name },
      subtype: { id: String(subtype.id), name: subtype.name },
      priority: { id: String(priority.id), name: priority.name },
      company: { id: 1 },
      owner: { id: null, name: 'tech' },
      isClosed: true,
      resolution: 'Reset.',
      timeSpentMinutes: 15,
      createdAt: new Date(Date.UTC(2026, 9, n, 8)),
      closedAt: new Date(Date.UTC(2026, 9, n, 8 + n)),
      updatedAt: new Date(Date.UTC(2026, 9, n, 8 + n)),
    }));
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', copies);
    const saved = await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  beforeEach(() => {
    llm.requests.length = 0;
  });

  const score = async () => {
    const response = await admin.post('/psa/applyGPTScoringToConnectWiseCategorization', { board });
    expect(response.statusCode, response.body).toBe(200);
    return { scored: response.json<TScoredBoard>(), requestId: String(response.headers['x-request-id']) };
  };
  const proposalEvents = async (requestId: string) =>
    (await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'board.ai_proposal'), eq(auditEvents.requestId, requestId)))).map((row) => row.details);
  const without = (scored: TScoredBoard) => scored.suggestions.filter((suggestion) => suggestion.subTypeName !== historySubtype);

  it('asks the model only about subtypes history cannot support, keeps the history numbers, marks and audits the model\'s', async () => {
    llm.reply((request) => openAiAnswer(answerAll(request)));
    const { scored, requestId } = await score();
    const sent = sentToModel(llm.requests[0]);
    expect(llm.requests).toHaveLength(1);
    expect((llm.requests[0]?.body.messages as { role: string; content: string }[])[0]).toEqual({ role: 'system', content: SYSTEM_BOARD_SCORES });
    expect(llm.requests[0]?.body).toMatchObject({ model: 'gpt-test', response_format: { type: 'json_schema' } });
    expect(sent.board).toBe('Help Desk');
    expect(sent.wanted.some((entry) => entry.category.includes(historySubtype))).toBe(false);
    expect(sent.wanted).toHaveLength(scored.suggestions.length - 1);
    expect(sent.examples.map((example) => [example.category.endsWith(`/ ${historySubtype}`), example.closedTickets])).toEqual([[true, 5]]);
    expect(sent.limits).toEqual({ scoreMax: 100, slaHoursMax: 8760 });

    expect(scored.ai).toEqual({ provider: 'openai', model: 'gpt-test', asked: sent.wanted.length, applied: sent.wanted.length, fallbackReason: null });
    const reset = scored.suggestions.find((suggestion) => suggestion.subTypeName === historySubtype);
    expect(reset?.priorityScore.source).toBe('history');
    expect(reset?.slaDeadLineInHours).toMatchObject({ source: 'history', value: 4 });
    for (const suggestion of without(scored)) {
      expect(suggestion.slaDeadLineInHours).toEqual({ value: 6, source: 'llm', explanation: `Suggested by gpt-test: ${suggestion.typeName} / ${suggestion.subTypeName} usually takes a morning.` });
      expect(suggestion.tier).toMatchObject({ value: 'Tier2', source: 'llm' });
      expect(suggestion.priorityScore).toMatchObject({ value: 50, source: 'llm' });
      // The subtype's priority follows the suggested score: the PSA priority whose level is nearest 50.
      const nearest = [...scored.prioritySuggestions].sort((a, b) => Math.abs(a.priorityScore.value - 50) - Math.abs(b.priorityScore.value - 50))[0];
      expect(suggestion.suggestedPriority?.priority).toBe(nearest?.priority);
    }
    const onBoard = scored.board.mspConnectWiseBoardTypes.flatMap((type) => type.mspConnectWiseBoardSubTypes).filter((sub) => sub.subTypeName !== historySubtype);
    expect(onBoard.every((sub) => sub.slaDeadLineInHours === 6 && sub.tier === 'Tier2' && sub.subTypeScore === 20)).toBe(true);

    const [audited] = await proposalEvents(requestId);
    expect(audited).toMatchObject({ engine: 'llm', provider: 'openai', model: 'gpt-test', fallbackReason: null, asked: sent.wanted.length, applied: sent.wanted.length });
    expect((audited as { proposals: { category: string; slaHours: number }[] }).proposals[0]).toMatchObject({ category: sent.wanted[0]?.category, slaHours: 6 });

    // The scored board saves as it is.
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [scored.board] } });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  const fallbacks: { name: string; reply: (request: TRecordedRequest) => TReply; reason: string }[] = [
    { name: 'a key that was not asked for', reply: (request) => openAiAnswer([...answerAll(request), { key: 'S999', priorityScore: 1, subTypeScore: 1, slaHours: 1, tier: 'Tier1', reason: 'x' }]), reason: 'The language model suggested a number out of range or a category that is not on the board.' },
    { name: 'a score over 100', reply: (request) => openAiAnswer(answerAll(request, { priorityScore: 150 })), reason: 'The language model suggested a number out of range or a category that is not on the board.' },
    { name: 'an SLA of 0 hours', reply: (request) => openAiAnswer(answerAll(request, { slaHours: 0 })), reason: 'The language model suggested a number out of range or a category that is not on the board.' },
    { name: 'a tier that does not exist', reply: (request) => openAiAnswer(answerAll(request, { tier: 'Tier4' })), reason: 'The language model suggested a number out of range or a category that is not on the board.' },
    { name: 'the same key twice', reply: (request) => openAiAnswer([...answerAll(request).slice(0, 1), ...answerAll(request).slice(0, 1)]), reason: 'The language model suggested a number out of range or a category that is not on the board.' },
    { name: 'no JSON', reply: () => ({ kind: 'openai-json', content: 'Sure! Here are the scores.' }), reason: 'The language model did not answer with JSON.' },
    { name: 'an HTTP 500', reply: () => ({ kind: 'status', status: 500, body: { error: { message: 'boom' } } }), reason: 'The language model service refused the request (HTTP 500).' },
    { name: 'a timeout', reply: (request) => ({ kind: 'delay', ms: 4000, then: openAiAnswer(answerAll(request)) }), reason: 'The language model did not answer within 2 s.' },
  ];
  for (const fallback of fallbacks) {
    it(`falls back to history and the defaults on ${fallback.name}, says why and audits it`, async () => {
      llm.reply(fallback.reply);
      const { scored, requestId } = await score();
      expect(scored.ai).toMatchObject({ model: 'gpt-test', applied: 0, fallbackReason: fallback.reason });
      expect(scored.ai?.asked).toBeGreaterThan(0);
      for (const suggestion of without(scored)) {
        expect(suggestion.slaDeadLineInHours).toMatchObject({ value: 1, source: 'default' });
        expect(suggestion.tier).toMatchObject({ value: 'Tier1', source: 'default' });
      }
      expect(scored.suggestions.find((suggestion) => suggestion.subTypeName === historySubtype)?.slaDeadLineInHours.source).toBe('history');
      const [audited] = await proposalEvents(requestId);
      expect(audited).toMatchObject({ engine: 'history', model: 'gpt-test', fallbackReason: fallback.reason, applied: 0, proposals: [] });
    });
  }

  it('uses Anthropic\'s structured tool answer the same way', async () => {
    expect((await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'anthropic', model: 'claude-test', apiKey: 'sk-ant-5678', baseUrl: llm.url })).statusCode).toBe(200);
    try {
      llm.reply((request) => ({ kind: 'anthropic-tool', name: 'board_scores', input: { suggestions: answerAll(request, { slaHours: 3 }) } }));
      const { scored } = await score();
      expect(llm.requests[0]?.path).toBe('/v1/messages');
      expect(llm.requests[0]?.body).toMatchObject({ model: 'claude-test', system: SYSTEM_BOARD_SCORES, tool_choice: { type: 'tool', name: 'board_scores' } });
      expect(scored.ai).toMatchObject({ provider: 'anthropic', model: 'claude-test', fallbackReason: null });
      expect(without(scored).every((suggestion) => suggestion.slaDeadLineInHours.value === 3 && suggestion.slaDeadLineInHours.explanation.startsWith('Suggested by claude-test: '))).toBe(true);
    } finally {
      expect((await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` })).statusCode).toBe(200);
    }
  });

  it('a key that no longer decrypts (a rotated ENCRYPTION_KEY): history and defaults, no call, and the screen says why', async () => {
    await t.deps.database.db.update(llmProviders).set({ secretCiphertext: 'sealed-with-another-key' }).where(eq(llmProviders.mspId, msp.id));
    try {
      const { scored, requestId } = await score();
      expect(llm.requests).toHaveLength(0);
      expect(scored.ai).toMatchObject({ model: 'gpt-test', asked: 0, applied: 0, fallbackReason: 'The saved API key of the AI model cannot be read any more. Enter it again in "AI model for Jarvis".' });
      expect(without(scored).every((suggestion) => suggestion.slaDeadLineInHours.source === 'default')).toBe(true);
      expect(await proposalEvents(requestId)).toEqual([]);
    } finally {
      expect((await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` })).statusCode).toBe(200);
    }
  });

  it('without a model: history and defaults only, no call and no AI proposal in the audit log', async () => {
    expect((await admin.delete(`/db/${msp.customDomain}/llm-provider`)).statusCode).toBe(200);
    const { scored, requestId } = await score();
    expect(llm.requests).toHaveLength(0);
    expect(scored.ai).toBeNull();
    expect(without(scored).every((suggestion) => suggestion.priorityScore.source === 'default')).toBe(true);
    expect(await proposalEvents(requestId)).toEqual([]);
  });
});

describe('A-052 on an Autotask queue', () => {
  it('keeps the 8 h default without history and no model, and takes the model\'s numbers for the sub-issue types when one is configured', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'autotask');
    const [queue] = await simulatorPsaClient(sim, 'autotask', 'board-ai-direct-at').listBoards();
    if (!queue) throw new Error('the simulator has no Autotask queue');
    const merged = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${queue.id}`);
    expect(merged.statusCode, merged.body).toBe(200);
    const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...board } = merged.json<TMergedCategorization>();
    const score = async () => {
      const response = await admin.post('/psa/applyGPTScoringToConnectWiseCategorization', { board });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TScoredBoard>();
    };

    const plain = await score();
    expect(plain.ai).toBeNull();
    expect(plain.suggestions.length).toBeGreaterThan(0);
    expect(plain.suggestions.every((suggestion) => suggestion.slaDeadLineInHours.value === 8 && suggestion.slaDeadLineInHours.source === 'default')).toBe(true);

    expect((await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` })).statusCode).toBe(200);
    llm.requests.length = 0;
    llm.reply((request) => openAiAnswer(answerAll(request, { slaHours: 12 })));
    const withModel = await score();
    expect(sentToModel(llm.requests[0]).board).toBe(queue.name);
    expect(withModel.ai).toMatchObject({ model: 'gpt-test', applied: plain.suggestions.length, fallbackReason: null });
    expect(withModel.suggestions.every((suggestion) => suggestion.slaDeadLineInHours.value === 12 && suggestion.slaDeadLineInHours.source === 'llm')).toBe(true);
    // The scored queue saves as a mapping in Autotask's variant, as the editor sends it (decisions #17: nothing new is created).
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { psaType: 'AUTOTASK', autotaskConfigV2: { ticketQueueDetails: [autotaskQueueFromBoard(withModel.board)] } });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = saved.json<TTicketingConfiguration>().autotaskConfigV2?.ticketQueueDetails[0]?.issueTypes.flatMap((type) => type.subIssueTypes) ?? [];
    expect(stored.length).toBe(plain.suggestions.length);
    expect(stored.every((sub) => sub.slaDeadlineInHours === 12)).toBe(true);
  });
});
