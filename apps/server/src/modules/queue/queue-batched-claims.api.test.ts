import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TQueueTicket } from '@switchboard/contracts';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TApp } from '../../app-deps';
import { createReplicaApp, TestClient, type TTestApp } from '../../../test/test-app';
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
      .filter((text) => text.includes('queue_claim_up_to_limit'))
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

// Regression (the "next" race): pressing "next" several times at once — a double-click, two tabs, a client retry,
// two replicas — gave a technician up to twice the limit. Each call claimed `limit - working count` with a count
// read before any lock, so calls that did not share a batch (another replica's, or a PSA-linked technician's own
// transactions) all read 0 and all claimed the limit. The claim now counts under the technician's lock.
describe('nextTickets pressed several times at once for one technician (double-click, two tabs, two replicas)', () => {
  let replica: TApp;

  beforeAll(async () => {
    replica = await createReplicaApp(t);
  });
  afterAll(async () => {
    await replica.close();
  });

  async function pressNextAtOnce(options: { isLinkedToPsa: boolean }) {
    const fixture = await createQueueFixture(t, sim);
    const ids = await createTickets(t, fixture, 12, { tier: 'Tier1' });
    const [member] = await fixture.direct.listMembers();
    if (!member) throw new Error('the simulator has no member');
    const tech = await technician(t, fixture, { tierLevel: 'Tier1', ...(options.isLinkedToPsa ? { psaMemberId: String(member.id) } : {}) });
    // The same session on another replica of the server (a second tab served by the other one).
    const onReplica = new TestClient(replica, tech.client.ip);
    onReplica.useSession(tech.client.sessionCookie);
    // Both replicas bring the queue up to date first, so the calls below only claim.
    for (const client of [tech.client, onReplica]) expect((await client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id })}`)).statusCode).toBe(200);

    const responses = await Promise.all([tech.client, tech.client, tech.client, onReplica, onReplica, onReplica].map((client) => client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id, limit: 5 })}`)));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);

    // What the technician sees as their current tickets: exactly five, each once, all theirs.
    const working = ticketsOf(await tech.client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id })}`));
    expect(working).toHaveLength(5);
    expect(new Set(working.map((ticket) => ticket.id)).size).toBe(5);
    expect(working.every((ticket) => ticket.state === 'claimed' && ticket.assignedTechId === tech.user.id)).toBe(true);
    // The queue holds no other claim, and every call answered those five (none a ticket the technician does not hold).
    const all = ticketsOf(await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, show: 'all', sort: 'score', page: 1 })}`));
    expect(all.filter((ticket) => ticket.state === 'claimed').map((ticket) => ticket.id).sort()).toEqual(working.map((ticket) => ticket.id).sort());
    for (const response of responses) expect(ticketsOf(response).map((ticket) => ticket.id).sort()).toEqual(working.map((ticket) => ticket.id).sort());
    return { fixture, ids, member, working };
  }

  it('a technician without a PSA member ends up with exactly five tickets (batched claims of two replicas)', async () => {
    await pressNextAtOnce({ isLinkedToPsa: false });
  });

  it('a technician with a PSA member ends up with exactly five tickets, and only those five are assigned in the PSA', async () => {
    const { fixture, ids, member, working } = await pressNextAtOnce({ isLinkedToPsa: true });
    const held = new Set(working.map((ticket) => ticket.ticketId));
    for (const ticketId of held) await expect.poll(async () => (await fixture.direct.getTicket(ticketId)).ownerId, { timeout: 10_000 }).toBe(member.id);
    for (const ticketId of ids.filter((id) => !held.has(id))) expect((await fixture.direct.getTicket(ticketId)).ownerId).toBeNull();
  });
});
