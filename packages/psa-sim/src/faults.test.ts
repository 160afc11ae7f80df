import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, connectWiseCall } from './test-support';

let sim: TPsaSimulator;
let clock = Date.UTC(2026, 5, 1, 12, 0, 0);

beforeAll(async () => {
  sim = await startPsaSimulator({ now: () => clock });
});

afterEach(async () => {
  sim.faults.reset();
  sim.setRateLimit(false);
  await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
});

afterAll(async () => {
  await sim.close();
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After in each vendor error shape, and recovers when the window passes', async () => {
    sim.setRateLimit({ perMinute: 2 });
    expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
    clock += 10_000;
    expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
    const limited = await connectWiseCall(sim, 'GET', '/service/boards');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(asRecord(limited.body)).toMatchObject({ code: 'TooManyRequests' });
    expect((await autotaskCall(sim, 'GET', '/Tickets/100001')).status).toBe(200);
    expect((await autotaskCall(sim, 'GET', '/Tickets/100001')).status).toBe(200);
    const atLimited = await autotaskCall(sim, 'GET', '/Tickets/100001');
    expect(atLimited.status).toBe(429);
    expect(asArray(asRecord(atLimited.body).errors)).toHaveLength(1);
    clock += 60_000;
    expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
  });

  it('exempts codebase and zone discovery from the limit', async () => {
    sim.setRateLimit({ perMinute: 1 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await fetch(`${sim.url}/login/companyinfo/northwind`)).status).toBe(200);
      expect((await fetch(`${sim.autotask.zoneDiscoveryUrl}?user=${sim.autotask.username}`)).status).toBe(200);
    }
  });

  it("enforces Autotask's 3-thread limit per endpoint", async () => {
    sim.faults.set({ latencyMs: 150 });
    const responses = await Promise.all(Array.from({ length: 5 }, () => autotaskCall(sim, 'GET', '/Tickets/100001')));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const rejected = responses.find((response) => response.status === 429);
    expect(asArray(asRecord(rejected?.body).errors)[0]).toMatch(/Itgenatr005/);
  });
});

describe('fault injection', () => {
  it('fails the next N matching requests with a status, then recovers', async () => {
    sim.faults.failNext({ kind: 503, count: 2, pathPrefix: '/v4_6_release/apis/3.0/service/tickets' });
    expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
    expect((await connectWiseCall(sim, 'GET', '/service/tickets')).status).toBe(503);
    expect((await connectWiseCall(sim, 'GET', '/service/tickets/100001')).status).toBe(503);
    expect((await connectWiseCall(sim, 'GET', '/service/tickets')).status).toBe(200);
  });

  it('drops the connection and holds a request open for timeout faults', async () => {
    sim.faults.failNext({ kind: 'drop' });
    await expect(connectWiseCall(sim, 'GET', '/service/boards')).rejects.toThrow();
    sim.faults.failNext({ kind: 'timeout' });
    const started = Date.now();
    await expect(fetch(`${sim.url}/ATServicesRest/V1.0/Tickets/100001`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("lets an 'after' fault's request take effect before losing its answer, and matches on method", async () => {
    const countTickets = async () => asRecord((await connectWiseCall(sim, 'GET', '/service/tickets/count')).body).count;
    const before = await countTickets();
    sim.faults.failNext({ kind: 502, phase: 'after', method: 'POST', pathPrefix: '/v4_6_release/apis/3.0/service/tickets' });
    // A GET to the same path does not consume the POST-only fault.
    expect((await connectWiseCall(sim, 'GET', '/service/tickets/100001')).status).toBe(200);
    expect(sim.faults.pendingCount()).toBe(1);
    const failed = await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Landed anyway', company: { id: 1 }, board: { id: 1 } });
    expect(failed.status).toBe(502);
    expect(await countTickets()).toBe(Number(before) + 1);
    sim.faults.failNext({ kind: 'drop', phase: 'after', method: 'POST' });
    await expect(connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Landed, then dropped', company: { id: 1 }, board: { id: 1 } })).rejects.toThrow();
    expect(await countTickets()).toBe(Number(before) + 2);
    sim.faults.failNext({ kind: 503, method: 'POST' });
    expect((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Never landed', company: { id: 1 }, board: { id: 1 } })).status).toBe(503);
    expect(await countTickets()).toBe(Number(before) + 2);
  });

  it('adds latency and answers every request with 500 at errorRate 1', async () => {
    sim.faults.set({ latencyMs: 120 });
    const started = Date.now();
    await connectWiseCall(sim, 'GET', '/service/boards');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    sim.faults.set({ latencyMs: 0, errorRate: 1 });
    const failed = await autotaskCall(sim, 'GET', '/Tickets/100001');
    expect(failed.status).toBe(500);
    expect(asRecord(failed.body)).toHaveProperty('errors');
  });

  it('is driven over the admin HTTP API: faults, stats and reset with data', async () => {
    const set = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ failNext: { status: 502, pathPrefix: '/ATServicesRest' } }) });
    expect(set.status).toBe(200);
    expect((await autotaskCall(sim, 'GET', '/Tickets/100001')).status).toBe(502);
    await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Counted', company: { id: 1 } });
    const stats = asRecord(await (await fetch(`${sim.url}/__sim/stats`)).json());
    expect(stats.requests).toBe(2);
    expect(stats.creates).toBe(1);
    expect(asRecord(stats.byPath)['/ATServicesRest/V1.0/Tickets/100001']).toBe(1);
    const invalid = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ errorRate: 7 }) });
    expect(invalid.status).toBe(400);
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST', body: JSON.stringify({ data: true }) });
    const count = asRecord((await connectWiseCall(sim, 'GET', '/service/tickets/count')).body);
    expect(count.count).toBe(520);
    expect(sim.stats().requests).toBe(1);
  });

  it('strikes random mixed faults on one route only, at about the asked rate, with a settable Retry-After', async () => {
    sim.faults.set({ retryAfterSeconds: 0.05 });
    sim.faults.random({ rate: 0.5, kinds: [429, 500], pathPrefix: '/v4_6_release/apis/3.0/service/tickets', method: 'GET' });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const response = await connectWiseCall(sim, 'GET', '/service/tickets/100001');
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
    }
    const failed = statuses.filter((status) => status !== 200).length;
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(45);
    expect(new Set(statuses)).toEqual(new Set([200, 429, 500]));
    expect(retryAfter).toBe('0.05');
    expect(sim.faults.struckCount()).toBe(failed);
    // Other routes and other methods are untouched.
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
    sim.faults.reset();
    expect(sim.faults.struckCount()).toBe(0);
    expect((await connectWiseCall(sim, 'GET', '/service/tickets/100001')).status).toBe(200);
  });

  it("strikes 'after' random faults once the write took effect, but a 429 always before it", async () => {
    const countEntries = async () => asArray(asRecord((await autotaskCall(sim, 'POST', '/TimeEntries/query', { filter: [{ op: 'gte', field: 'id', value: 0 }] })).body).items).length;
    const before = await countEntries();
    const entry = (minute: number) => ({ ticketID: 100001, resourceID: 1, roleID: 29683354, dateWorked: '2026-06-01T00:00:00Z', startDateTime: `2026-06-01T09:${String(minute).padStart(2, '0')}:00Z`, endDateTime: `2026-06-01T10:${String(minute).padStart(2, '0')}:00Z`, hoursWorked: 1, summaryNotes: `Worked ${minute}` });
    sim.faults.random({ rate: 1, kinds: [502], phase: 'after', path: '/atservicesrest/v1.0/timeentries', method: 'POST' });
    expect((await autotaskCall(sim, 'POST', '/TimeEntries', entry(1))).status).toBe(502);
    expect(await countEntries()).toBe(before + 1);
    sim.faults.reset();
    sim.faults.random({ rate: 1, kinds: [429], phase: 'after', path: '/atservicesrest/v1.0/timeentries', method: 'POST' });
    expect((await autotaskCall(sim, 'POST', '/TimeEntries', entry(2))).status).toBe(429);
    expect(await countEntries()).toBe(before + 1);
  });

  it('takes random faults and a Retry-After over the admin HTTP API', async () => {
    const set = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ retryAfterSeconds: 2, random: { rate: 1, kinds: [429], pathPrefix: '/ATServicesRest/V1.0/Tickets' } }) });
    expect(set.status).toBe(200);
    const limited = await autotaskCall(sim, 'GET', '/Tickets/100001');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect((await connectWiseCall(sim, 'GET', '/service/boards')).status).toBe(200);
    const invalid = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ random: { rate: 2 } }) });
    expect(invalid.status).toBe(400);
  });
});
