import { describe, expect, it } from 'vitest';
import { RequestBudget } from './budget';
import { createFakeClock } from './fake-clock';

describe('RequestBudget', () => {
  it('makes a tenant wait once its window allowance is spent, without slowing other tenants', async () => {
    const clock = createFakeClock();
    const budget = new RequestBudget({ requestsPerWindow: 2, windowMs: 1000, concurrentPerEndpoint: 10 }, clock);
    (await budget.acquire('msp-a', 'Tickets'))();
    (await budget.acquire('msp-a', 'Tickets'))();
    expect(clock.sleeps).toEqual([]);
    (await budget.acquire('msp-b', 'Tickets'))();
    expect(clock.sleeps).toEqual([]);
    (await budget.acquire('msp-a', 'Tickets'))();
    expect(clock.sleeps).toEqual([500]);
  });

  it('lets at most the configured number of requests run at once per endpoint', async () => {
    const budget = new RequestBudget({ requestsPerWindow: 100, windowMs: 1000, concurrentPerEndpoint: 3 }, createFakeClock());
    const releases = await Promise.all([1, 2, 3].map(() => budget.acquire('msp', 'Tickets')));
    let isFourthRunning = false;
    const fourth = budget.acquire('msp', 'Tickets').then((release) => {
      isFourthRunning = true;
      return release;
    });
    const otherEndpoint = await budget.acquire('msp', 'Contacts');
    await Promise.resolve();
    expect(isFourthRunning).toBe(false);
    releases[0]?.();
    (await fourth)();
    expect(isFourthRunning).toBe(true);
    otherEndpoint();
  });
});
