import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIZARD_MESSAGES, type TMergedCategorization, type TWizardProgress } from '@switchboard/contracts';
import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient} from '../../../test/test-app';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { newClient, nextIp } from '../auth/auth-test-helpers';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';

let t: TTestApp;
let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  t = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host] } });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

async function connectedMsp(): Promise<{ msp: TTestMsp; admin: TestClient }> {
  const msp = await buildMsp(t);
  const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }), nextIp());
  const { companyId, publicKey, privateKey, siteUrl, clientId } = sim.connectWise;
  expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, { connectWiseManageIntegration: { companyId, publicKey, privateKey, psaUrl: siteUrl, clientId } })).statusCode).toBe(200);
  return { msp, admin };
}

const progressOf = async (admin: TestClient, msp: TTestMsp) => (await admin.get(`/db/${msp.customDomain}/wizard`)).json<TWizardProgress>();
const complete = (admin: TestClient, msp: TTestMsp, body: Record<string, unknown>) => admin.post(`/db/${msp.customDomain}/wizard/complete`, body);
const open = (admin: TestClient, msp: TTestMsp, step: number) => admin.post(`/db/${msp.customDomain}/wizard/open`, { step });

describe('the setup wizard through HTTP', () => {
  it('walks all six steps, each completed only when its rule holds, and disconnecting resets it to step 1', async () => {
    const { msp, admin } = await connectedMsp();
    expect(await progressOf(admin, msp)).toEqual({ currentStep: 1, completedSteps: [], boardId: null, boardName: null, isFinished: false, finishedAt: null });

    // Step 1: keys saved but not verified yet.
    expect((await complete(admin, msp, { step: 1, boardId: 1 })).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.notConnected });
    expect((await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`)).statusCode).toBe(200);
    expect((await complete(admin, msp, { step: 1 })).json()).toMatchObject({ status: 400, detail: WIZARD_MESSAGES.boardRequired });
    const boards = (await admin.get(`/psa/getConnectWiseBoards?mspCustomDomain=${msp.customDomain}`)).json<Array<{ id: number; name: string }>>();
    const board = boards.find((candidate) => candidate.name === 'Help Desk');
    if (!board) throw new Error('the demo simulator has no Help Desk board');
    expect((await complete(admin, msp, { step: 1, boardId: board.id, boardName: board.name })).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.boardNotReady });
    // step 3 cannot be opened before step 2 is completed.
    expect((await open(admin, msp, 3)).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.stepLocked });

    const merged = (await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${board.id}`)).json<TMergedCategorization>();
    const { psaType: _psaType, isConfigured: _isConfigured, statuses: _statuses, canCreate: _canCreate, ...detail } = merged;
    expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { psaType: 'CONNECTWISE', connectWiseConfig: { boardDetails: [detail] } })).statusCode).toBe(200);
    const afterStep1 = (await complete(admin, msp, { step: 1, boardId: board.id, boardName: board.name })).json<TWizardProgress>();
    expect(afterStep1).toMatchObject({ currentStep: 2, completedSteps: [1], boardId: board.id, boardName: 'Help Desk', isFinished: false });

    // Step 2: only the current step completes, and only with an imported technician.
    expect((await complete(admin, msp, { step: 3 })).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.notCurrentStep });
    expect((await complete(admin, msp, { step: 2 })).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.technicianRequired });
    const members = (await admin.get(`/db/${msp.customDomain}/psaMembers`)).json<{ members: Array<{ psaMemberId: string; email: string | null }> }>().members.filter((member) => member.email);
    const [member] = members;
    if (!member?.email) throw new Error('the demo PSA needs a member with an e-mail');
    expect((await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: member.psaMemberId, tierLevel: 'Tier1' }] })).statusCode).toBe(201);
    expect((await complete(admin, msp, { step: 2 })).json()).toMatchObject({ currentStep: 3, completedSteps: [1, 2] });

    // A second admin, or a refresh, sees the same step.
    const secondAdmin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }), nextIp());
    expect(await progressOf(secondAdmin, msp)).toMatchObject({ currentStep: 3, completedSteps: [1, 2] });

    // Step 3: a team on the board.
    expect((await complete(admin, msp, { step: 3 })).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.teamRequired });
    const team = await admin.post(`/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${msp.customDomain}`, {
      teamName: 'Wizard first line',
      boardId: board.id,
      boardName: board.name,
      members: [{ email: member.email, tierLevel: 'Tier3' }],
    });
    expect(team.statusCode, team.body).toBeLessThan(300);
    expect((await complete(admin, msp, { step: 3 })).json()).toMatchObject({ currentStep: 4 });

    // Going back to step 1 and forward again is allowed; a step past the first incomplete one is not.
    expect((await open(admin, msp, 1)).json()).toMatchObject({ currentStep: 1 });
    expect((await open(admin, msp, 4)).json()).toMatchObject({ currentStep: 4 });
    expect((await open(admin, msp, 5)).json()).toMatchObject({ status: 409, detail: WIZARD_MESSAGES.stepLocked });

    expect((await complete(admin, msp, { step: 4 })).json()).toMatchObject({ currentStep: 5 });
    expect((await complete(admin, msp, { step: 5 })).json()).toMatchObject({ currentStep: 6 });
    const finished = (await complete(admin, msp, { step: 6 })).json<TWizardProgress>();
    expect(finished).toMatchObject({ currentStep: 6, completedSteps: [1, 2, 3, 4, 5, 6], isFinished: true });
    expect(finished.finishedAt).toEqual(expect.any(String));

    // disconnecting resets the wizard to step 1.
    expect((await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`)).statusCode).toBe(200);
    expect(await progressOf(secondAdmin, msp)).toEqual({ currentStep: 1, completedSteps: [], boardId: null, boardName: null, isFinished: false, finishedAt: null });
  });

  it('refuses bad steps, missing permission, no session, no CSRF header and another tenant', async () => {
    const { msp, admin } = await connectedMsp();
    const other = await buildMsp(t);
    expect((await open(admin, msp, 7)).statusCode).toBe(400);
    expect((await admin.post(`/db/${msp.customDomain}/wizard/complete`, { step: 'first' })).statusCode).toBe(400);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.get(`/db/${msp.customDomain}/wizard`)).statusCode).toBe(403);
    expect((await technician.post(`/db/${msp.customDomain}/wizard/open`, { step: 1 })).statusCode).toBe(403);
    expect((await newClient(t).get(`/db/${msp.customDomain}/wizard`)).statusCode).toBe(401);
    expect((await admin.post(`/db/${msp.customDomain}/wizard/complete`, { step: 1 }, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await admin.get(`/db/${other.customDomain}/wizard`)).statusCode).toBe(404);
    expect((await admin.post(`/db/${other.customDomain}/wizard/open`, { step: 1 })).statusCode).toBe(404);
  });
});
