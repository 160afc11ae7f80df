import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../test/test-app';
import { simulatorPsaClient, withSimulatorApp } from '../../test/psa-simulator';
import { copyDemoTickets } from './demo-tickets';
import { seedDemoMsp } from './seed-demo';

let t: TTestApp;
let sim: TPsaSimulator;

// The psa-events reconcile loop every half second (the embedded start: 30 s), with room for a full pass: the one loop
// that keeps the demo's copies in step. No webhook address, so only the loop can bring the changes.
withSimulatorApp({ app: { config: { psaReconcileIntervalMs: 500, psaReconcileRequestsPerHour: 3_600_000, psaEventsUrl: undefined } } }, (ready) => ({ t, sim } = ready));

it("copies Northwind's tickets into psa_tickets; the psa-events reconcile loop keeps them in step with the simulator (new, changed, closed)", async () => {
  const seeded = await seedDemoMsp(t.deps, { simulatorUrl: sim.url });
  const direct = simulatorPsaClient(sim, 'connectwise', 'demo-tickets-direct');
  const all: number[] = [];
  for await (const ticket of direct.streamTickets({})) all.push(ticket.id);
  expect(all.length).toBeGreaterThan(0);

  const copied = await copyDemoTickets(t.deps, seeded.mspId);
  expect(copied).toBe(all.length);
  const rows = await t.deps.database.db.select().from(psaTickets).where(eq(psaTickets.mspId, seeded.mspId));
  expect(rows.map((row) => Number(row.externalId)).sort((a, b) => a - b)).toEqual(all.sort((a, b) => a - b));
  expect(rows.every((row) => row.companyName !== null && row.statusName !== null && row.boardName !== null)).toBe(true);

  const copyOf = async (id: number) =>
    (await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, seeded.mspId), eq(psaTickets.externalId, String(id)))))[0];
  const waitFor = async (id: number, done: (row: Awaited<ReturnType<typeof copyOf>>) => boolean) => {
    for (let waited = 0; waited < 10_000; waited += 100) {
      const row = await copyOf(id);
      if (done(row)) return row;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return copyOf(id);
  };
  const board = (await direct.listBoards())[0];
  const company = rows[0]?.companyExternalId ?? '0';
  const created = await direct.createTicket({ idempotencyKey: 'demo-in-step-1', summary: 'Printer on fire', description: 'Smoke from tray 2', boardId: board?.id ?? 0, companyId: Number(company) });
  expect((await waitFor(created.id, (row) => row !== undefined))?.isClosed).toBe(false);
  await direct.updateTicket(created.id, { summary: 'Printer on fire (changed in the PSA)' });
  expect((await waitFor(created.id, (row) => row?.summary === 'Printer on fire (changed in the PSA)'))?.summary).toBe('Printer on fire (changed in the PSA)');
  await direct.closeTicket(created.id, { resolution: 'Replaced the fuser' });
  expect((await waitFor(created.id, (row) => row?.isClosed === true))?.isClosed).toBe(true);
});
