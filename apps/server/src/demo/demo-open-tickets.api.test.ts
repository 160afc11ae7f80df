import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaTickets } from '@switchboard/db';
import type { TPsaTicketRecord } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../test/test-app';
import { simulatorPsaClient, withSimulatorApp } from '../../test/psa-simulator';
import { DEMO_OPEN_TICKET_COUNT, ensureDemoOpenTickets } from './demo-open-tickets';
import { copyDemoTickets } from './demo-tickets';
import { seedDemoMsp } from './seed-demo';
import { seedDemoJarvis } from './seed-demo-jarvis';

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

it('raises open tickets on the demo Help Desk board once per simulator run, categorised, and the sync copies them as open', async () => {
  const seeded = await seedDemoMsp(t.deps, { simulatorUrl: sim.url });
  await seedDemoJarvis(t.deps, seeded.mspId);
  const direct = simulatorPsaClient(sim, 'connectwise', 'demo-open-direct');
  const openTickets = async () => {
    const open: TPsaTicketRecord[] = [];
    for await (const ticket of direct.streamTickets({ openOnly: true })) open.push(ticket);
    return open;
  };
  expect(await openTickets()).toHaveLength(0);

  expect(await ensureDemoOpenTickets(t.deps, seeded.mspId)).toBe(DEMO_OPEN_TICKET_COUNT);
  const open = await openTickets();
  expect(open).toHaveLength(DEMO_OPEN_TICKET_COUNT);
  expect(open.every((ticket) => ticket.boardName === 'Help Desk' && ticket.typeId !== null && ticket.subtypeId !== null && ticket.priorityId !== null)).toBe(true);
  // A second start against the same simulator adds nothing.
  expect(await ensureDemoOpenTickets(t.deps, seeded.mspId)).toBe(0);
  expect(await openTickets()).toHaveLength(DEMO_OPEN_TICKET_COUNT);

  await copyDemoTickets(t.deps, seeded.mspId);
  const copies = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, seeded.mspId), eq(psaTickets.isClosed, false)));
  expect(copies.map((copy) => Number(copy.externalId)).sort((a, b) => a - b)).toEqual(open.map((ticket) => ticket.id).sort((a, b) => a - b));
}, 120_000);
