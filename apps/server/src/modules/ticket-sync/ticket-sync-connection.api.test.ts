import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { permissionMap } from '@switchboard/contracts';
import { psaTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorIntegrationBody, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TActor } from '../../plugins/access';
import { findSyncRun } from './ticket-sync.repository';
import { createTicketSyncService } from './ticket-sync.service';

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

describe('a sync run whose PSA connection changed before it ran', () => {
  it('fails in plain words instead of copying the new PSA’s tickets under the old PSA type (regression)', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    // The last 80 days: the simulator's demo tickets (Autotask's too) are recent.
    const day = (offset: number) => new Date(t.deps.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const [board] = await simulatorPsaClient(sim, 'connectwise', 'sync-connection-cw').listBoards();
    // The run is stored and its job held back (as when the queue retries it later).
    const sync = createTicketSyncService({ ...t.deps, jobQueue: { ...t.deps.jobQueue, send: () => Promise.resolve(null) }, staleAfterMs: 60_000, maxAttempts: 3 });
    const actor: TActor = { mspId: msp.id, mspCustomDomain: msp.customDomain, userId: adminUser.id, userKind: 'technician', permissions: permissionMap([]), ip: '127.0.0.1', requestId: 'sync-connection' };
    const { parentRunId } = await sync.startSync(actor, { boardIds: [board?.id ?? -1], startDate: day(-80), endDate: day(0) });

    // Keys for Autotask are saved without a disconnect; then the run's job comes round.
    expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, simulatorIntegrationBody(sim, 'autotask'))).statusCode).toBe(200);
    await sync.runJob({ mspId: msp.id, runId: parentRunId }, new AbortController().signal);

    const run = await findSyncRun(t.deps.database.db, msp.id, parentRunId);
    expect(run?.phase1Status).toBe('FAILED');
    expect(run?.phase1Error).toMatch(/PSA connection changed/);
    expect(await t.deps.database.db.select().from(psaTickets).where(eq(psaTickets.mspId, msp.id))).toEqual([]);
  });
});
