import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { MESSAGES, permissionMap, type TBatchStatus } from '@switchboard/contracts';
import { psaTickets, syncRuns } from '@switchboard/db';
import type { PsaClient, TPsaType } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildApp } from '../../app';
import type { TAppDeps, TApp } from '../../app-deps';
import { createLifecycle } from '../../lib/lifecycle';
import { createAppJobQueue } from '../../app-job-queue';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, FAST_PSA_RETRY, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { insertCustomRole } from '../roles/roles.repository';

const JOBS = { queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, retryLimit: 4 }, staleAfterMs: 60_000, maxAttempts: 3 };

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({ simulator: { scale: { companies: 50, contacts: 100, tickets: 20_000 } }, app: { jobs: JOBS, psaRetry: FAST_PSA_RETRY } }, (ready) => ({ t, sim } = ready));

const directClient = (psaType: TPsaType): PsaClient => simulatorPsaClient(sim, psaType, psaType === 'connectwise' ? 'sync-direct-cw' : 'sync-direct-at');
const connectedMsp = (psaType: TPsaType, on: TTestApp = t) => buildConnectedMsp(on, sim, psaType);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The board with most tickets and an 80-day range of its history, per PSA: found once (a pass over the simulator's 20,000 tickets, ~1.5 s). */
const chosenRanges = new Map<TPsaType, Promise<{ boardId: number; startDate: string; endDate: string }>>();

async function chooseBoardAndRange(psaType: TPsaType): Promise<{ boardId: number; startDate: string; endDate: string }> {
  const dates = new Map<number, number[]>();
  for await (const ticket of directClient(psaType).streamTickets({})) {
    if (ticket.boardId === null) continue;
    const list = dates.get(ticket.boardId) ?? [];
    list.push(Date.parse(ticket.createdAt ?? '') || 0);
    dates.set(ticket.boardId, list);
  }
  const [boardId, boardDates] = [...dates.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [-1, []];
  // The middle of the board's history (the simulator's scale tickets span two years; the demo ones are recent).
  const newest = boardDates.sort((a, b) => a - b)[Math.floor(boardDates.length / 2)] ?? 0;
  return { boardId, startDate: day(newest - 80 * 86_400_000), endDate: day(newest) };
}

/** A board with tickets and an 80-day range ending in its history, with the ids the PSA holds for it now (tests add tickets). */
async function boardAndRange(psaType: TPsaType): Promise<{ boardId: number; startDate: string; endDate: string; expected: number[] }> {
  const chosen = chosenRanges.get(psaType) ?? chooseBoardAndRange(psaType);
  chosenRanges.set(psaType, chosen);
  const { boardId, startDate, endDate } = await chosen;
  const expected: number[] = [];
  for await (const ticket of directClient(psaType).streamTickets({ boardIds: [boardId], createdFrom: new Date(`${startDate}T00:00:00Z`), createdBefore: new Date(Date.parse(`${endDate}T00:00:00Z`) + 86_400_000) })) expected.push(ticket.id);
  return { boardId, startDate, endDate, expected: expected.sort((a, b) => a - b) };
}

async function copiedIds(app: TAppDeps, mspId: string): Promise<number[]> {
  const rows = await app.database.db.select({ id: psaTickets.externalId }).from(psaTickets).where(eq(psaTickets.mspId, mspId));
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

async function waitForStatus(admin: TestClient, runId: string, done: (status: TBatchStatus) => boolean, timeoutMs = 60_000): Promise<TBatchStatus> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await admin.get(`/psa/api/batch/status?parentRunId=${runId}`);
    expect(response.statusCode, response.body).toBe(200);
    const status = response.json<TBatchStatus>();
    if (done(status)) return status;
    if (Date.now() > until) throw new Error(`run ${runId} did not settle: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const settled = (status: TBatchStatus) => status.phase1.status === 'FAILED' || status.phase2?.status === 'COMPLETED' || status.phase2?.status === 'FAILED';

describe.each(['connectwise', 'autotask'] as const)('%s batch sync', (psaType) => {
  it('A-058 starts a run, A-033 reports both phases, and every ticket of the board in the range is copied once', async () => {
    const { msp, admin } = await connectedMsp(psaType);
    const { boardId, startDate, endDate, expected } = await boardAndRange(psaType);
    expect(expected.length).toBeGreaterThan(100);
    const started = await admin.post('/psa/api/batch/sync-boards', { mspCustomDomain: msp.customDomain, psaType: 'CONNECTWISE', boardIds: [boardId], startDate, endDate });
    expect(started.statusCode, started.body).toBe(200);
    const { parentRunId } = started.json<{ parentRunId: string }>();
    const status = await waitForStatus(admin, parentRunId, settled);
    expect(status).toMatchObject({ parentRunId, boardIds: [boardId], startDate, endDate, phase1: { status: 'COMPLETED', processed: 1 }, phase2: { status: 'COMPLETED', processed: expected.length } });
    expect(status.psaRequests).toBeGreaterThan(0);
    expect(await copiedIds(t.deps, msp.id)).toEqual(expected);
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(expected[0]))));
    expect(copy?.psaType).toBe(psaType === 'connectwise' ? 'CONNECTWISE' : 'AUTOTASK');
    expect(copy?.boardExternalId).toBe(String(boardId));
    expect(copy?.boardName).toBeTruthy();
    expect(copy?.statusName).toBeTruthy();

    // The same range again, one ticket changed in the PSA meanwhile: that copy is updated in place, nothing is added,
    // and the unchanged copies keep their synced_at (the queue's incremental refresh reads only what changed).
    const syncedAt = async () => new Map((await t.deps.database.db.select({ id: psaTickets.externalId, syncedAt: psaTickets.syncedAt, summary: psaTickets.summary }).from(psaTickets).where(eq(psaTickets.mspId, msp.id))).map((row) => [Number(row.id), row]));
    const before = await syncedAt();
    const changedId = expected[1] ?? 0;
    await directClient(psaType).updateTicket(changedId, { summary: 'Changed in the PSA between two syncs' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await admin.post('/psa/api/batch/sync-boards', { mspCustomDomain: msp.customDomain, boardIds: [boardId], startDate, endDate });
    expect(await waitForStatus(admin, again.json<{ parentRunId: string }>().parentRunId, settled)).toMatchObject({ phase2: { status: 'COMPLETED', processed: expected.length } });
    const [{ value }] = (await t.deps.database.db.select({ value: count() }).from(psaTickets).where(eq(psaTickets.mspId, msp.id))) as [{ value: number }];
    expect(value).toBe(expected.length);
    const after = await syncedAt();
    expect(after.get(changedId)?.summary).toBe('Changed in the PSA between two syncs');
    expect(after.get(changedId)?.syncedAt.getTime()).toBeGreaterThan(before.get(changedId)?.syncedAt.getTime() ?? Infinity);
    const rewritten = expected.filter((id) => id !== changedId && after.get(id)?.syncedAt.getTime() !== before.get(id)?.syncedAt.getTime());
    expect(rewritten).toEqual([]);
  }, 150_000);
});

describe('the range in the MSP’s time zone', () => {
  // Regression: the days of a sync were UTC days, so an MSP in New York got the evening before its first day and lost
  // the evening of its last. R-213 refuses equal dates, so the range is two days: 2 and 3 October 2025, New York time.
  it('copies the tickets entered from midnight of the first day to midnight after the last, there', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    const weights = `/db/api/ticketQueue/weights?mspCustomDomain=${msp.customDomain}`;
    const settings = (await admin.get(weights)).json<{ settings: Record<string, unknown> }>().settings;
    expect((await admin.put(weights, { ...settings, timeZone: 'America/New_York' })).statusCode).toBe(200);
    const direct = directClient('connectwise');
    const [board] = await direct.listBoards();
    let companyId = 0;
    for await (const company of direct.streamCompanies()) {
      companyId = company.id;
      break;
    }
    const enteredAt = async (iso: string): Promise<number> => {
      const ticket = await direct.createTicket({ idempotencyKey: `zone-${iso}`, summary: `Entered ${iso}`, description: 'Time zone range', boardId: board?.id ?? -1, companyId });
      expect(sim.backdateTicket(ticket.id, Date.parse(iso))).toBe(true);
      return ticket.id;
    };
    const eveningBefore = await enteredAt('2025-10-02T02:00:00Z'); // 22:00 on 1 October in New York
    const firstMorning = await enteredAt('2025-10-02T04:30:00Z'); // 00:30 on 2 October
    const firstEvening = await enteredAt('2025-10-03T03:00:00Z'); // 23:00 on 2 October
    const lastEvening = await enteredAt('2025-10-04T03:30:00Z'); // 23:30 on 3 October
    const dayAfter = await enteredAt('2025-10-04T04:30:00Z'); // 00:30 on 4 October
    const run = await admin.post('/psa/api/batch/sync-boards', { mspCustomDomain: msp.customDomain, boardIds: [board?.id ?? -1], startDate: '2025-10-02', endDate: '2025-10-03' });
    expect(run.statusCode, run.body).toBe(200);
    expect(await waitForStatus(admin, run.json<{ parentRunId: string }>().parentRunId, settled)).toMatchObject({ startDate: '2025-10-02', endDate: '2025-10-03', phase2: { status: 'COMPLETED' } });
    const copied = new Set(await copiedIds(t.deps, msp.id));
    expect({ eveningBefore: copied.has(eveningBefore), firstMorning: copied.has(firstMorning), firstEvening: copied.has(firstEvening), lastEvening: copied.has(lastEvening), dayAfter: copied.has(dayAfter) }).toEqual({
      eveningBefore: false,
      firstMorning: true,
      firstEvening: true,
      lastEvening: true,
      dayAfter: false,
    });
  });
});

describe('validation (01 §5, in order)', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp('connectwise'));
  });
  const start = (body: Record<string, unknown>) => admin.post('/psa/api/batch/sync-boards', { mspCustomDomain: msp.customDomain, ...body });

  it('gives the spec messages for dates, range and board', async () => {
    expect((await start({ boardIds: [1], endDate: '2025-01-10' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.datesRequired });
    expect((await start({ boardIds: [1], startDate: '2025-01-10', endDate: '' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.datesRequired });
    expect((await start({ boardIds: [1], startDate: 'soon', endDate: '2025-01-10' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.datesRequired });
    expect((await start({ boardIds: [1], startDate: '2025-01-10', endDate: '2025-01-10' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.startBeforeEnd });
    expect((await start({ boardIds: [1], startDate: '2025-02-10', endDate: '2025-01-10' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.startBeforeEnd });
    expect((await start({ boardIds: [1], startDate: '2025-01-01', endDate: '2025-04-02' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.rangeTooLong });
    expect((await start({ boardIds: [], startDate: '2025-01-01', endDate: '2025-04-01' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.boardRequired });
    expect((await start({ startDate: '2025-01-01', endDate: '2025-01-02' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.boardRequired });
    expect((await start({ boardIds: [987654], startDate: '2025-01-01', endDate: '2025-01-02' })).json()).toMatchObject({ status: 400, detail: MESSAGES.batchSync.boardUnknown });
  });

  it('"User configuration not found" without a PSA connection; an unknown run is 404', async () => {
    const bare = await buildMsp(t);
    const bareAdmin = await signedInClient(t, await buildUser(t, bare, { role: 'Admin' }));
    expect((await bareAdmin.post('/psa/api/batch/sync-boards', { boardIds: [1], startDate: '2025-01-01', endDate: '2025-01-02' })).json()).toMatchObject({ status: 409, detail: MESSAGES.batchSync.userConfigurationNotFound });
    expect((await admin.get('/psa/api/batch/status?parentRunId=00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ status: 404, detail: MESSAGES.batchSync.runNotFound });
    expect((await admin.get('/psa/api/batch/status?parentRunId=nope')).statusCode).toBe(400);
  });
});

describe('a PSA that fails', () => {
  it('is retried (503s) and the run still copies every ticket; a PSA that keeps failing ends FAILED, never COMPLETED', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    const { boardId, startDate, endDate, expected } = await boardAndRange('connectwise');
    sim.faults.failNext({ kind: 503, count: 2, pathPrefix: '/v4_6_release/apis/3.0/service/tickets' });
    const run = (await admin.post('/psa/api/batch/sync-boards', { boardIds: [boardId], startDate, endDate })).json<{ parentRunId: string }>();
    expect(await waitForStatus(admin, run.parentRunId, settled)).toMatchObject({ phase2: { status: 'COMPLETED', processed: expected.length } });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(await copiedIds(t.deps, msp.id)).toEqual(expected);

    const other = await connectedMsp('connectwise');
    sim.faults.failNext({ kind: 503, count: 10_000, pathPrefix: '/v4_6_release/apis/3.0/service/tickets' });
    try {
      const failing = (await other.admin.post('/psa/api/batch/sync-boards', { boardIds: [boardId], startDate, endDate })).json<{ parentRunId: string }>();
      const status = await waitForStatus(other.admin, failing.parentRunId, settled, 120_000);
      expect(status.phase1.status).toBe('COMPLETED');
      expect(status.phase2?.status).toBe('FAILED');
      expect(status.phase2?.error).toContain('unavailable');
    } finally {
      sim.faults.reset();
    }
  }, 150_000);
});

describe('a worker that stops mid-sync', () => {
  it('leaves a run that another app instance on the same database finishes, with no duplicate or missing ticket', async () => {
    // Its own database: the file's test app (whose worker has started) must not take the run; only these instances may.
    const own = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host] }, jobs: JOBS, psaRetry: FAST_PSA_RETRY });
    const { msp, admin } = await connectedMsp('autotask', own);
    const { boardId, startDate, endDate, expected } = await boardAndRange('autotask');
    expect(expected.length).toBeGreaterThan(500);
    // Each instance is another process: its own serving state and its own job queue, whose worker stops with it.
    const instance = async (): Promise<TApp> => {
      const deps: TAppDeps = { ...own.deps, lifecycle: createLifecycle(), jobQueue: createAppJobQueue(own.deps) };
      const app = await buildApp(deps);
      await app.ready();
      return app;
    };
    sim.faults.set({ latencyMs: 60 });
    const first = await instance();
    const firstAdmin = new TestClient(first);
    firstAdmin.useSession(admin.sessionCookie);
    const run = (await firstAdmin.post('/psa/api/batch/sync-boards', { boardIds: [boardId], startDate, endDate })).json<{ parentRunId: string }>();
    // Stop the first worker once phase 2 has written its first batch.
    for (let waited = 0; ; waited += 100) {
      const [row] = await own.deps.database.db.select().from(syncRuns).where(eq(syncRuns.id, run.parentRunId));
      if ((row?.phase2Processed ?? 0) > 0) break;
      if (waited > 60_000) throw new Error('phase 2 never started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.close();
    sim.faults.set({ latencyMs: 0 });
    const [stopped] = await own.deps.database.db.select().from(syncRuns).where(eq(syncRuns.id, run.parentRunId));
    expect(stopped?.phase2Status).toBe('RUNNING');
    expect(stopped?.phase2Processed).toBeLessThan(expected.length);

    const second = await instance();
    try {
      const status = await waitForStatus(admin, run.parentRunId, settled, 90_000);
      const [finished] = await own.deps.database.db.select().from(syncRuns).where(eq(syncRuns.id, run.parentRunId));
      // Claimed twice: by the first instance, then by the second after the first stopped.
      expect(finished?.attempts).toBe(2);
      expect(status.phase2?.status).toBe('COMPLETED');
      expect(await copiedIds(own.deps, msp.id)).toEqual(expected);
      // The checkpoint kept the restart from fetching (and counting) the first batch twice.
      expect(status.phase2?.processed).toBe(expected.length);
    } finally {
      await second.close();
      await own.close();
    }
  }, 150_000);
});

describe('a replica killed mid-sync (decision 021)', () => {
  it('leaves its claim behind; a live replica takes the run over once the heartbeat is older than SYNC_TAKEOVER_AFTER_MS, without a restart', async () => {
    // A hard-killed replica neither releases its claim nor fails its queue job: all that is left is a heartbeat that
    // stops moving. The run below is in exactly that state, with no job queued for it anywhere.
    const own = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host] }, jobs: { ...JOBS, staleAfterMs: 1_500 }, psaRetry: FAST_PSA_RETRY });
    try {
      const { msp, admin } = await connectedMsp('connectwise', own);
      const { boardId, startDate, endDate, expected } = await boardAndRange('connectwise');
      const deadSince = new Date(Date.now() - 10 * 60_000);
      const [run] = await own.deps.database.db
        .insert(syncRuns)
        .values({ mspId: msp.id, psaType: 'CONNECTWISE', boardIds: [boardId], startDate, endDate, phase1Status: 'RUNNING', phase1StartedAt: deadSince, attempts: 1, heartbeatAt: deadSince })
        .returning();
      if (!run) throw new Error('no run');
      const status = await waitForStatus(admin, run.id, settled, 60_000);
      expect(status.phase2).toMatchObject({ status: 'COMPLETED', processed: expected.length });
      expect(await copiedIds(own.deps, msp.id)).toEqual(expected);
      const [finished] = await own.deps.database.db.select().from(syncRuns).where(eq(syncRuns.id, run.id));
      // The dead replica's claim, then exactly one takeover.
      expect(finished?.attempts).toBe(2);
      expect(finished?.heartbeatAt).toBeNull();
    } finally {
      await own.close();
    }
  }, 150_000);

  it('a live run is not taken over: its heartbeat moves even while one PSA page takes longer than the takeover time', async () => {
    const own = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host] }, jobs: { ...JOBS, staleAfterMs: 1_000 }, psaRetry: FAST_PSA_RETRY });
    try {
      const { msp, admin } = await connectedMsp('connectwise', own);
      const { boardId, startDate, endDate, expected } = await boardAndRange('connectwise');
      // Every PSA request now takes 1.5 s, longer than the takeover time.
      sim.faults.set({ latencyMs: 1_500 });
      const run = (await admin.post('/psa/api/batch/sync-boards', { boardIds: [boardId], startDate, endDate })).json<{ parentRunId: string }>();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      sim.faults.set({ latencyMs: 0 });
      const status = await waitForStatus(admin, run.parentRunId, settled, 60_000);
      expect(status.phase2).toMatchObject({ status: 'COMPLETED', processed: expected.length });
      const [finished] = await own.deps.database.db.select().from(syncRuns).where(eq(syncRuns.id, run.parentRunId));
      expect(finished?.attempts).toBe(1);
      expect(await copiedIds(own.deps, msp.id)).toEqual(expected);
    } finally {
      sim.faults.set({ latencyMs: 0 });
      await own.close();
    }
  }, 150_000);
});

describe('access: session, tenant, permission and CSRF', () => {
  it('401 without a session, 404 for another MSP or its run, 403 without mspIntegrations, 403 csrf without the header', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    const role = await insertCustomRole(t.deps.database.db, msp.id, 'Boards only', permissionMap(['boardView']));
    const boardsOnly = await signedInClient(t, await buildUser(t, msp, { roleId: role.id }));
    const clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    const anonymous = new TestClient(t.app);
    const body = { mspCustomDomain: msp.customDomain, boardIds: [1], startDate: '2025-01-01', endDate: '2025-01-02' };
    const [board] = await directClient('connectwise').listBoards();
    const run = (await admin.post('/psa/api/batch/sync-boards', { ...body, boardIds: [board?.id ?? 1] })).json<{ parentRunId: string }>();
    const calls = [
      { method: 'POST', url: '/psa/api/batch/sync-boards', payload: body },
      { method: 'GET', url: `/psa/api/batch/status?parentRunId=${run.parentRunId}&mspCustomDomain=${msp.customDomain}` },
    ] as const;
    for (const call of calls) {
      expect((await anonymous.request(call)).statusCode, call.url).toBe(401);
      expect((await otherAdmin.request(call)).statusCode, call.url).toBe(404);
      expect((await boardsOnly.request(call)).json(), call.url).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await clientUser.request(call)).statusCode, call.url).toBe(403);
    }
    expect((await admin.request({ ...calls[0], csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    // Another MSP's admin asking for this run without naming the MSP: the run is not theirs, 404.
    expect((await otherAdmin.get(`/psa/api/batch/status?parentRunId=${run.parentRunId}`)).statusCode).toBe(404);
    await waitForStatus(admin, run.parentRunId, settled);
  });
});
