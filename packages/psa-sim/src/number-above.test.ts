import { afterEach, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asRecord, connectWiseCall } from './test-support';

const started: TPsaSimulator[] = [];
afterEach(async () => {
  for (const sim of started.splice(0)) await sim.close();
});

const createdId = async (sim: TPsaSimulator, path: string, body: Record<string, unknown>) => Number(asRecord((await connectWiseCall(sim, 'POST', path, body)).body).id);
const resetData = (sim: TPsaSimulator) => fetch(`${sim.url}/__sim/reset`, { method: 'POST', body: JSON.stringify({ data: true }) });

describe('numberAbove holds across a data reset', () => {
  // Regression (review s28 fix #3): the embedded demo sets the floor once at start; a reset with data rebuilt the store
  // from the seed and numbered from the seed's ids again, handing out ticket numbers the app's database still holds.
  it('numbers new tickets, companies and contacts above the highest floor given, after POST /__sim/reset {"data":true}', async () => {
    const sim = await startPsaSimulator();
    started.push(sim);
    sim.numberAbove({ tickets: 200_000, companies: 500, contacts: 900 });
    // A lower floor given later does not lower the one kept.
    sim.numberAbove({ tickets: 10, companies: 1 });
    expect((await resetData(sim)).status).toBe(200);

    expect(await createdId(sim, '/service/tickets', { summary: 'After the reset', company: { id: 1 }, board: { id: 1 } })).toBe(200_001);
    expect(await createdId(sim, '/company/companies', { identifier: 'AfterReset', name: 'After Reset' })).toBe(501);
    expect(await createdId(sim, '/company/contacts', { firstName: 'After', lastName: 'Reset', company: { id: 1 } })).toBe(901);
    // The reset still restores the seed's data: the seeded tickets are back, the one made before it is gone.
    expect(asRecord((await connectWiseCall(sim, 'GET', '/service/tickets/count')).body).count).toBe(521);
  });

  it('a reset without a floor given numbers from the seed as before', async () => {
    const sim = await startPsaSimulator();
    started.push(sim);
    const first = await createdId(sim, '/service/tickets', { summary: 'Before the reset', company: { id: 1 }, board: { id: 1 } });
    expect((await resetData(sim)).status).toBe(200);
    expect(await createdId(sim, '/service/tickets', { summary: 'After the reset', company: { id: 1 }, board: { id: 1 } })).toBe(first);
  });
});
