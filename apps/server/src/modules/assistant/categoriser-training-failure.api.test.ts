// Regression (brief s28): a chat's first message that needs the categoriser trained, when none is stored, answered 500
// when the training's worker thread crashed or ran out of memory (CategoriserTrainingError, decision 045). The local
// engine now goes on without a categorisation (it abstains and asks its questions) and the next message tries again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SYSTEM_CATEGORISE } from '@switchboard/assistant';
import { startLlmServer, type TLlmServer } from '@switchboard/assistant/testing';
import { MESSAGES, newLocalSubType, newLocalType, type TTicketDraft } from '@switchboard/contracts';
import { categoriserModels } from '@switchboard/db';
import { loadDemoData } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { NO_EXTRAS, replaceBoard, upsertTicketingConfig } from '../boards/boards.repository';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';
import { trainInWorker, type TTrainCategoriser } from './categoriser-training';

const demo = loadDemoData();
const BOARD_ID = 7;

let t: TTestApp;
let llm: TLlmServer;
/** While true, every training runs in a worker whose heap cannot hold it: it dies of it, as a runaway training would. */
let isTrainingStarved = true;
let trainings = 0;
const train: TTrainCategoriser = (request, options) => {
  trainings += 1;
  return trainInWorker(request, isTrainingStarved ? { ...options, heapMb: 4 } : options);
};

/** The demo board template as the MSP's configured ConnectWise board, and the demo history as its closed tickets. */
async function configuredMsp(): Promise<TTestMsp> {
  const msp = await buildMsp(t);
  const db = t.deps.database.db;
  await upsertTicketingConfig(db, msp.id, 'CONNECTWISE', {}, t.deps.now());
  let subtypeId = 100;
  const types = demo.boardTemplate.types.map((type, index) => ({
    ...newLocalType(`t${index}`, type.typeName),
    typeId: index + 1,
    isNew: false,
    mspConnectWiseBoardSubTypes: type.subTypes.map((subtype) => ({ ...newLocalSubType(`s${subtypeId}`, subtype.subTypeName), subTypeId: (subtypeId += 1), isNew: false })),
  }));
  await replaceBoard(
    db,
    msp.id,
    'CONNECTWISE',
    { boardId: BOARD_ID, boardName: 'Help Desk', newCreatingTicketStatus: 'New', newCreatingTicketStatusId: 1, closingTicketStatus: 'Closed', closingTicketStatusId: 2, priorities: [], mspConnectWiseBoardTypes: types },
    NO_EXTRAS,
    t.deps.now(),
  );
  const history: TTicketCopy[] = demo.historicalTickets.map((ticket, i) => {
    const closedAt = new Date(Date.now() - (i + 1) * 3_600_000);
    return {
      externalId: `h-${i}`,
      summary: ticket.summary,
      description: ticket.description,
      board: { id: BOARD_ID, name: 'Help Desk' },
      type: { id: null, name: ticket.type },
      subtype: { id: null, name: ticket.subType },
      isClosed: true,
      resolution: ticket.resolution,
      closedAt,
      updatedAt: closedAt,
    };
  });
  await upsertTicketCopies(db, msp.id, 'CONNECTWISE', history, t.deps.now());
  return msp;
}

async function firstMessage(who: TestClient, msp: TTestMsp, userMessage: string): Promise<TTicketDraft> {
  const response = await who.post('/psa/getTicketCategorizationDiagnosticQandA', { userMessage, mspCustomDomain: msp.customDomain });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ ticketDraft: TTicketDraft }>().ticketDraft;
}

const storedModelOf = async (msp: TTestMsp) => (await t.deps.database.db.select().from(categoriserModels).where(and(eq(categoriserModels.mspId, msp.id), eq(categoriserModels.psaType, 'CONNECTWISE'))))[0] ?? null;

const OUTLOOK = 'Outlook keeps asking for my password after the reset this morning';

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ trainCategoriser: train, config: { outboundAllowList: [new URL(llm.url).host], llmTimeoutMs: 2_000 } });
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe('a chat when the categoriser cannot be trained', () => {
  it('answers the first message with questions and no proposed category, and categorises once a training succeeds', async () => {
    isTrainingStarved = true;
    trainings = 0;
    const msp = await configuredMsp();
    const user = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));

    const first = await firstMessage(user, msp, OUTLOOK);
    expect(trainings).toBe(1);
    expect(first.categorisation).toMatchObject({ engine: 'local', abstained: true, connectWiseDetails: null });
    expect(first.questions.length).toBeGreaterThan(0);
    expect(first.message.content.startsWith(MESSAGES.assistant.abstained)).toBe(true);
    expect(first.description).toBe(OUTLOOK);
    // Nothing was stored: the next message trains again.
    expect(await storedModelOf(msp)).toBeNull();

    isTrainingStarved = false;
    const later = await firstMessage(user, msp, OUTLOOK);
    expect(trainings).toBe(2);
    expect(later.categorisation).toMatchObject({ engine: 'local', abstained: false });
    expect(later.categorisation.connectWiseDetails?.subTypeName).toBeTruthy();
    expect(later.questions.length).toBeGreaterThan(0);
    expect((await storedModelOf(msp))?.trainedOn).toBeGreaterThan(0);
  }, 120_000);

  it('with an AI model, the model still categorises the first message', async () => {
    isTrainingStarved = true;
    trainings = 0;
    const msp = await configuredMsp();
    const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    const saved = await admin.put(`/db/${msp.customDomain}/llm-provider`, { provider: 'openai', model: 'gpt-test', apiKey: 'sk-test-1234', baseUrl: `${llm.url}/v1` });
    expect(saved.statusCode, saved.body).toBe(200);
    const email = demo.boardTemplate.types.findIndex((type) => type.subTypes.some((subtype) => subtype.subTypeName === 'Outlook Not Working'));
    const type = demo.boardTemplate.types[email];
    const subtypeIndex = type?.subTypes.findIndex((subtype) => subtype.subTypeName === 'Outlook Not Working') ?? -1;
    expect(subtypeIndex).toBeGreaterThanOrEqual(0);
    // Subtype ids are numbered from 101 across the types in order (configuredMsp).
    const subtypeId = 101 + demo.boardTemplate.types.slice(0, email).reduce((sum, earlier) => sum + earlier.subTypes.length, 0) + subtypeIndex;
    llm.requests.length = 0;
    llm.reply(() => ({ kind: 'openai-json', content: JSON.stringify({ boardId: String(BOARD_ID), typeId: String(email + 1), subtypeId: String(subtypeId), confidence: 0.93, alternatives: [], reason: 'Outlook asks for the password.' }) }));

    const first = await firstMessage(admin, msp, OUTLOOK);
    expect(trainings).toBe(1);
    expect(first.categorisation).toMatchObject({ engine: 'llm', abstained: false, confidence: 0.93 });
    expect(first.categorisation.connectWiseDetails?.subTypeName).toBe('Outlook Not Working');
    expect(llm.requests.some((request) => (request.body.messages as { content: string }[])[0]?.content === SYSTEM_CATEGORISE)).toBe(true);
  }, 120_000);
});
