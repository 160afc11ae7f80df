import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, type TSimContext } from './context';
import { FaultController, RateLimiter, ThreadLimiter } from './faults';
import { startPsaSimulator, type TPsaSimulator } from './index';
import { CW_API_PREFIX } from './connectwise/common';
import { connectWiseApiRoutes } from './server';
import { SimStore } from './store';
import { asArray, asRecord, connectWiseCall } from './test-support';

// ConnectWise answers `{list}/count` on every list it serves; so must the simulator, including lists added later.
// The route table is read here, so a new list route is checked the moment it is added.

/** GET routes that answer one object, not a list. */
const NOT_LISTS = new Set(['/system/info']);

/** Ids the demo seed holds, to fill the `{id}` of a nested list: board 1 and the first historical ticket. */
function concretePath(template: string): string {
  return template.replace(/\/(\w+)\/\{id\}/g, (_whole, parent: string) => `/${parent}/${parent.toLowerCase() === 'tickets' ? 100001 : 1}`);
}

function listTemplates(): string[] {
  const now = Date.now;
  const context: TSimContext = {
    store: new SimStore(now),
    credentials: DEMO_CREDENTIALS,
    faults: new FaultController(),
    rateLimiter: new RateLimiter(now),
    threadLimiter: new ThreadLimiter(),
    stats: { requests: 0, byPath: new Map(), creates: 0, webhookDeliveries: 0 },
    autotaskCallTimes: [],
    webhookSecret: 'unused',
    now,
  };
  return connectWiseApiRoutes(context)
    .filter((route) => route.method === 'GET' && !/\{\w+\}$/.test(route.template))
    .map((route) => route.template.slice(CW_API_PREFIX.length))
    .filter((template) => !NOT_LISTS.has(template));
}

let sim: TPsaSimulator;
beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0 });
});
afterAll(async () => sim.close());

describe('ConnectWise /count', () => {
  const templates = listTemplates();

  it('covers the lists that once answered 404', () => {
    for (const list of ['/service/priorities', '/company/companies/statuses', '/company/communicationTypes', '/system/departments', '/system/locations']) {
      expect(templates).toContain(list);
    }
  });

  it.each(templates)('GET %s/count counts every row of the list, and honours its conditions', async (template) => {
    const path = concretePath(template);
    const listed = await connectWiseCall(sim, 'GET', `${path}?pageSize=1000`);
    expect(listed.status).toBe(200);
    const rows = asArray(listed.body);
    const counted = await connectWiseCall(sim, 'GET', `${path}/count`);
    expect(counted.status).toBe(200);
    expect(asRecord(counted.body)).toEqual({ count: rows.length });
    const firstId = rows[0]?.id;
    if (typeof firstId === 'number') {
      const filtered = await connectWiseCall(sim, 'GET', `${path}/count?conditions=${encodeURIComponent(`id=${firstId}`)}`);
      expect(asRecord(filtered.body).count).toBe(rows.filter((row) => row.id === firstId).length);
    }
  });

  it('answers 404 for the count of something that is not a list, and of a board that does not exist', async () => {
    expect((await connectWiseCall(sim, 'GET', '/system/info/count')).status).toBe(404);
    expect((await connectWiseCall(sim, 'GET', '/service/boards/999999/statuses/count')).status).toBe(404);
    expect((await connectWiseCall(sim, 'GET', '/service/priorities/count?conditions=name%3D')).status).toBe(400);
  });
});
