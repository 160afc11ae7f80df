import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { loadCategoriser } from '@switchboard/assistant';
import { copyDemoHistory } from '../../../test/jarvis-fixtures';
import type { TMergedCategorization } from '@switchboard/contracts';
import { categoriserModels } from '@switchboard/db';
import { createPsaClient, type PsaClient } from '@switchboard/psa';
import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { nextIp } from '../auth/auth-test-helpers';
import { createPsaEventsService } from '../psa-events/psa-events.service';
import { enqueueCategoriserLearning } from './categoriser-learning.jobs';

const JOBS = { queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, retryLimit: 2 }, staleAfterMs: 60_000, maxAttempts: 3 };
// Words no demo ticket uses: only the newly closed ticket can teach the model what they mean.
const NEW_WORDING = 'Quuxotron badge reader zzyzx keeps flashing amber';

let t: TTestApp;
let sim: TPsaSimulator;
let direct: PsaClient;
let msp: TTestMsp;
let board: TMergedCategorization;

async function storedModel() {
  const [row] = await t.deps.database.db.select().from(categoriserModels).where(and(eq(categoriserModels.mspId, msp.id), eq(categoriserModels.psaType, 'CONNECTWISE')));
  return row ?? null;
}

async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!isDone(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  t = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host] }, jobs: JOBS });
  msp = await buildMsp(t);
  const admin = await signedInClient(t, await buildUser(t, msp), nextIp());
  const cw = sim.connectWise;
  expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, { connectWiseManageIntegration: { companyId: cw.companyId, publicKey: cw.publicKey, privateKey: cw.privateKey, psaUrl: cw.siteUrl, clientId: cw.clientId } })).statusCode).toBe(200);
  direct = createPsaClient({ psaType: 'connectwise', siteUrl: cw.siteUrl, companyId: cw.companyId, publicKey: cw.publicKey, privateKey: cw.privateKey, clientId: cw.clientId }, { tenantKey: 'direct-learning' });
  const helpDesk = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
  if (!helpDesk) throw new Error('no Help Desk board');
  board = (await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${helpDesk.id}`)).json<TMergedCategorization>();
  const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = board;
  expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } })).statusCode).toBe(200);
  await copyDemoHistory(t, msp.id, helpDesk);
}, 120_000);

afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('the categoriser learns when a ticket closes (issue #9)', () => {
  it('a ticket closed in the PSA reaches the copy through its event, and the job teaches the stored model without any chat call', async () => {
    // The model as it stands: trained by the same job, never by a chat.
    await enqueueCategoriserLearning(t.deps.jobQueue, msp.id);
    const before = await waitFor(storedModel, (row) => row !== null);
    if (!before) throw new Error('the learning job never stored a model');
    expect(before.trainedOn).toBeGreaterThan(100);

    // A subtype the new wording is taught under, on the MSP's configured board.
    const type = board.mspConnectWiseBoardTypes.find((candidate) => candidate.mspConnectWiseBoardSubTypes.length > 1);
    const subtype = type?.mspConnectWiseBoardSubTypes.at(-1);
    if (!type || !subtype) throw new Error('the board has no type with two subtypes');
    const confidenceOf = (model: unknown) =>
      loadCategoriser(JSON.stringify(model))
        .propose({ text: NEW_WORDING, candidateCount: 50 })
        .candidates.find((candidate) => candidate.subtypeName === subtype.subTypeName)?.confidence ?? 0;
    const confidenceBefore = confidenceOf(before.model);

    let company = 0;
    for await (const found of direct.streamCompanies()) {
      company = found.id;
      break;
    }
    const created = await direct.createTicket({ idempotencyKey: `learning-${Date.now()}`, summary: NEW_WORDING, description: `${NEW_WORDING} at the front door`, boardId: board.boardId, companyId: company, typeId: type.typeId, subtypeId: subtype.subTypeId });
    await direct.closeTicket(created.id, { resolution: 'Replaced the badge reader.' });

    // The PSA's event for the close, applied as the event worker does.
    const events = createPsaEventsService(t.deps);
    await events.applyEvent({ mspId: msp.id, ticketId: created.id, isDeleted: false });

    const after = await waitFor(storedModel, (row) => (row?.trainedOn ?? 0) > before.trainedOn);
    expect(after?.trainedOn).toBe(before.trainedOn + 1);
    expect(after?.trainedUntil?.getTime() ?? 0).toBeGreaterThan(before.trainedUntil?.getTime() ?? 0);
    const learnt = loadCategoriser(JSON.stringify(after?.model));
    expect(learnt.propose({ text: NEW_WORDING }).candidates[0]).toMatchObject({ typeName: type.typeName, subtypeName: subtype.subTypeName });
    expect(confidenceOf(after?.model)).toBeGreaterThan(confidenceBefore);
  }, 120_000);
});
