import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TQueueTicket } from '@switchboard/contracts';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { withSimulatorApp } from '../../../test/psa-simulator';
import { createQueueFixture, createTickets, technician, type TQueueFixture } from './queue-fixtures.test';

// "Next" calls of one MSP that arrive together are claimed in one statement (decision 029). Each
// technician must still get exactly what claiming one after the other would give: own tier first,
// never a ticket they handed back, a ticket reserved for them, never one reserved for someone else,
// and no ticket twice. Runs on PGlite and PostgreSQL (the batching happens in the app).

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const ticketsOf = (response: { json: <T>() => T }) => response.json<{ tickets: TQueueTicket[] }>().tickets;

describe('nextTickets called by several technicians at once (one batched claim)', () => {
  let fixture: TQueueFixture;
  let tier1Ids: number[];
  let tier2Ids: number[];

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    // Created oldest first, so within a tier the earlier ones rank higher.
    tier2Ids = await createTickets(t, fixture, 3, { tier: 'Tier2', createdAt: new Date('2026-01-01T00:00:00Z') });
    tier1Ids = await createTickets(t, fixture, 12, { tier: 'Tier1', createdAt: new Date('2026-01-02T00:00:00Z') });
  });

  const next = (client: TestClient, techId: string, limit: number) => client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId, limit })}`);

  it('gives each technician what one-after-the-other claims would: own tier first, no hand-backs, reservations kept, nothing twice', async () => {
    const tier2 = await technician(t, fixture, { tierLevel: 'Tier2' });
    const plain = await technician(t, fixture, { tierLevel: 'Tier1' });
    const rejecter = await technician(t, fixture, { tierLevel: 'Tier1' });
    const reserver = await technician(t, fixture, { tierLevel: 'Tier1' });

    // The reserver requeues the best Tier1 ticket reserved for themself; the rejecter hands back the next best.
    const [reserved] = ticketsOf(await next(reserver.client, reserver.user.id, 1));
    if (!reserved) throw new Error('no ticket to reserve');
    expect(reserved.ticketId).toBe(tier1Ids[0]);
    const requeued = await reserver.client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: reserver.user.id, holdTimeInHours: 0, assignedFlag: 'true' })}`, { ticketId: reserved.ticketId });
    expect(requeued.json()).toMatchObject({ ticket: { state: 'queued', assignedTechId: reserver.user.id } });
    const [handedBack] = ticketsOf(await next(rejecter.client, rejecter.user.id, 1));
    if (!handedBack) throw new Error('no ticket to hand back');
    expect(handedBack.ticketId).toBe(tier1Ids[1]);
    const rejected = await rejecter.client.post(`/db/api/ticketQueue/rejectTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: handedBack.ticketId, techId: rejecter.user.id })}`, { reason: 'Needs a site visit' });
    expect(rejected.statusCode).toBe(200);

    // The four press "next" at the same moment: their claims go to the database together.
    const execute = vi.spyOn(t.deps.database.db, 'execute');
    const people = [tier2, plain, rejecter, reserver];
    const responses = await Promise.all(people.map(({ user, client }) => next(client, user.id, 3)));
    const batchSizes = execute.mock.calls
      .map(([query]) => JSON.stringify(query))
      .filter((text) => text.includes('queue_claim_batch'))
      .map((text) => /\{([0-9a-f-]{36}(?:,[0-9a-f-]{36})*)\}/.exec(text)?.[1]?.split(',').length ?? 0);
    execute.mockRestore();
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    const [forTier2, forPlain, forRejecter, forReserver] = responses.map((response) => ticketsOf(response));

    // Tier2 first: all three Tier2 tickets.
    expect(new Set(forTier2?.map((ticket) => ticket.ticketId))).toEqual(new Set(tier2Ids));
    // The reserved ticket goes to the one it is reserved for, and to nobody else.
    expect(forReserver?.map((ticket) => ticket.ticketId)).toContain(reserved.ticketId);
    for (const other of [forTier2, forPlain, forRejecter]) expect(other?.map((ticket) => ticket.ticketId)).not.toContain(reserved.ticketId);
    // Everyone got a full batch of three, and no ticket went to two of them.
    const all = [forTier2, forPlain, forRejecter, forReserver].flatMap((tickets) => tickets ?? []);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((ticket) => ticket.ticketId)).size).toBe(12);
    for (const [index, tickets] of [forTier2, forPlain, forRejecter, forReserver].entries()) {
      expect(tickets?.every((ticket) => ticket.state === 'claimed' && ticket.assignedTechId === people[index]?.user.id)).toBe(true);
    }
    // The handed-back ticket goes to another Tier1 technician, never back to the one who handed it back.
    expect(forRejecter?.map((ticket) => ticket.ticketId)).not.toContain(handedBack.ticketId);
    expect([...(forPlain ?? []), ...(forReserver ?? [])].map((ticket) => ticket.ticketId)).toContain(handedBack.ticketId);
    // Tier1 technicians take Tier1 tickets only, best first among what was left: the eight after the reserved one.
    const tier1Taken = [forPlain, forRejecter, forReserver].flatMap((tickets) => tickets ?? []).filter((ticket) => ticket.ticketId !== reserved.ticketId);
    expect(tier1Taken.every((ticket) => ticket.tier === 'Tier1')).toBe(true);
    expect(tier1Taken.map((ticket) => ticket.ticketId).sort((a, b) => a - b)).toEqual(tier1Ids.slice(1, 9));
  });
});
