import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES, type TQueueTicket } from '@switchboard/contracts';
import { queueTickets, users } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createQueueMaintenance } from './queue.maintenance';
import { createQueueFixture, createTickets, moveClockToNineUtc, technician, type TQueueFixture } from './queue-fixtures.test';

const DAY_MS = 86_400_000;

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

async function next(client: TestClient, fixture: TQueueFixture, techId: string, limit = 5) {
  return client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId, psaMemberId: '', limit })}`);
}
const ticketsOf = (response: { json: <T>() => T }) => response.json<{ tickets: TQueueTicket[] }>().tickets;

describe('nextTickets (A-122): claims by tier, never twice', () => {
  let fixture: TQueueFixture;
  let tier1Ids: number[];
  let tier2Ids: number[];

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    tier1Ids = await createTickets(t, fixture, 4, { tier: 'Tier1' });
    tier2Ids = await createTickets(t, fixture, 3, { tier: 'Tier2' });
  });

  it('gives a Tier2 technician their own tier first, then Tier1, and claims them (owner and "Assigned" in the PSA)', async () => {
    const member = (await fixture.direct.listMembers())[0];
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier2', psaMemberId: String(member?.id ?? '') });
    const response = await next(client, fixture, user.id);
    expect(response.statusCode).toBe(200);
    const tickets = ticketsOf(response);
    expect(tickets).toHaveLength(5);
    expect(tickets.slice(0, 3).map((ticket) => ticket.tier)).toEqual(['Tier2', 'Tier2', 'Tier2']);
    expect(new Set(tickets.slice(0, 3).map((ticket) => ticket.ticketId))).toEqual(new Set(tier2Ids));
    expect(tickets.slice(3).every((ticket) => ticket.tier === 'Tier1' && tier1Ids.includes(ticket.ticketId))).toBe(true);
    expect(tickets.every((ticket) => ticket.state === 'claimed' && ticket.assignedTechId === user.id)).toBe(true);
    expect(tickets[0]).toMatchObject({ boardId: fixture.boardId, categoryId: fixture.typeId, subCategoryId: fixture.subtypes.tier2, completed: false, closed: false });
    expect(typeof tickets[0]?.slaDueAt).toBe('string');
    // Pressing next again does not hoard more: the same five come back.
    const again = ticketsOf(await next(client, fixture, user.id));
    expect(again.map((ticket) => ticket.id).sort()).toEqual(tickets.map((ticket) => ticket.id).sort());
    // The claim reaches the PSA: owner is the member and the status is "Assigned".
    await expect.poll(async () => (await fixture.direct.getTicket(tier2Ids[0] ?? 0)).ownerId, { timeout: 5000 }).toBe(member?.id);
    expect((await fixture.direct.getTicket(tier2Ids[0] ?? 0)).statusName).toBe('Assigned');
  });

  it('gives a Tier1 technician only what is left of Tier1, and a NoTier technician nothing', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const tickets = ticketsOf(await next(client, fixture, user.id));
    expect(tickets).toHaveLength(2);
    expect(tickets.every((ticket) => ticket.tier === 'Tier1')).toBe(true);
    const noTier = await technician(t, fixture, { tierLevel: 'NoTier' });
    const refused = await next(noTier.client, fixture, noTier.user.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.queue.noTier });
  });

  it('refuses another technician’s techId (403) and a limit over 5 (400)', async () => {
    const { client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const other = await technician(t, fixture, { tierLevel: 'Tier1' });
    const response = await next(client, fixture, other.user.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ detail: MESSAGES.queue.ownQueueOnly });
    expect((await next(client, fixture, other.user.id, 6)).statusCode).toBe(400);
  });

  it('is a state-changing GET: refused without the CSRF header, without a session, for a client user and for another MSP', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const url = `/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, limit: 5 })}`;
    expect((await client.get(url, { csrf: false })).statusCode).toBe(403);
    expect((await new TestClient(t.app).get(url)).statusCode).toBe(401);
    const clientUser = await signedInClient(t, await buildUser(t, fixture.msp, { kind: 'client', password: null }));
    expect((await clientUser.get(url)).statusCode).toBe(403);
    const otherMsp = await buildMsp(t);
    const stranger = await signedInClient(t, await buildUser(t, otherMsp, { password: null }));
    expect((await stranger.get(url)).statusCode).toBe(404);
  });
});

describe('nextTickets answers the new tickets first', () => {
  let fixture: TQueueFixture;
  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 3, { tier: 'Tier1' });
  });

  it('answers the newly claimed tickets first, the ones held before after them (the screen makes the first active and starts its timer, R-294)', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [held] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!held) throw new Error('no ticket');
    const tickets = ticketsOf(await next(client, fixture, user.id, 3));
    expect(tickets).toHaveLength(3);
    expect(tickets.at(-1)?.ticketId).toBe(held.ticketId);
    expect(tickets.slice(0, 2).map((ticket) => ticket.ticketId)).not.toContain(held.ticketId);
  });
});

describe('working, eligible, all tickets and manual pick (A-123, A-124, A-015, A-127)', () => {
  let fixture: TQueueFixture;
  let ids: number[];

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    ids = await createTickets(t, fixture, 6, { tier: 'Tier1' });
    await createTickets(t, fixture, 1, { tier: 'Tier2' });
  });

  it('lists the eligible tickets best first without claiming them, and what the technician works', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const eligible = await client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, psaMemberId: '' })}`);
    expect(eligible.statusCode).toBe(200);
    const list = ticketsOf(eligible);
    expect(list.map((ticket) => ticket.ticketId).sort()).toEqual([...ids].sort());
    expect(list.every((ticket) => ticket.state === 'queued')).toBe(true);
    const scores = list.map((ticket) => ticket.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const working = await client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id })}`);
    expect(ticketsOf(working)).toEqual([]);
  });

  it('picks one ticket by its queue id; another technician gets a clear refusal; a Tier2 ticket is refused to Tier1', async () => {
    const first = await technician(t, fixture, { tierLevel: 'Tier1' });
    const second = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [target] = ticketsOf(await first.client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: first.user.id })}`));
    if (!target) throw new Error('no eligible ticket');
    const pick = (client: TestClient, techId: string, id: string) => client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId, ticketQueueEntityId: id })}`);
    const picked = await pick(first.client, first.user.id, target.id);
    expect(picked.statusCode).toBe(200);
    expect(picked.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ id: target.id, state: 'claimed', assignedTechId: first.user.id });
    const refused = await pick(second.client, second.user.id, target.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.queue.heldByOther });
    const working = ticketsOf(await first.client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: first.user.id })}`));
    expect(working.map((ticket) => ticket.id)).toEqual([target.id]);
    const all = await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, show: 'all', sort: 'score' })}`);
    const tier2 = all.json<{ tickets: TQueueTicket[] }>().tickets.find((ticket) => ticket.tier === 'Tier2');
    if (!tier2) throw new Error('no Tier2 ticket');
    const tooHigh = await pick(second.client, second.user.id, tier2.id);
    expect(tooHigh.statusCode).toBe(409);
    expect(tooHigh.json()).toMatchObject({ detail: MESSAGES.queue.tierTooHigh });
    expect((await pick(second.client, second.user.id, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('pages and filters all tickets (A-015), and answers 404 for another MSP', async () => {
    const all = await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain })}`);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 7, page: 1, pageSize: 30 });
    const newest = all.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.createdAt ?? '');
    expect([...newest].sort().reverse()).toEqual(newest);
    const filtered = await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, subCategoryId: fixture.subtypes.tier2 })}`);
    expect(filtered.json()).toMatchObject({ total: 1 });
    const searched = await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, search: 'Queue ticket 3' })}`);
    expect(searched.json<{ total: number }>().total).toBeGreaterThanOrEqual(1);
    const otherMsp = await buildMsp(t);
    expect((await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: otherMsp.customDomain })}`)).statusCode).toBe(404);
  });
});

describe('complete, mark incomplete, requeue, reject and release (A-119–A-121)', () => {
  let fixture: TQueueFixture;

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 20, { tier: 'Tier1' });
  });

  it('completes a working ticket (its timer completes with "Ticket completed"), marks it incomplete again, and completes both aliases', async () => {
    moveClockToNineUtc(t); // its session must not cross midnight
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [first, second] = ticketsOf(await next(client, fixture, user.id, 2));
    if (!first || !second) throw new Error('no tickets');
    const start = await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: first.ticketId, techId: user.id });
    expect(start.statusCode).toBe(200);
    t.advanceClock(30 * 60_000);
    const done = await client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: first.ticketId, techId: user.id })}`);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ ticket: { state: 'completed', completed: true }, totalWorkHours: 0.5 });
    const sessions = await client.get(`/db/api/ticketActivities/${fixture.msp.customDomain}/${first.ticketId}/${user.id}`);
    expect(sessions.json()).toMatchObject({ isActive: false });
    expect(sessions.json<{ totalWorkMinutes: number }>().totalWorkMinutes).toBeCloseTo(30, 0);
    const twice = await client.post(`/db/api/ticketQueue/complete?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: first.ticketId, techId: user.id })}`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ detail: MESSAGES.queue.alreadyCompleted });
    const incomplete = await client.post(`/db/api/ticketQueue/markIncomplete?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: first.ticketId, techId: user.id })}`);
    expect(incomplete.statusCode).toBe(200);
    expect(incomplete.json()).toMatchObject({ ticket: { state: 'working', completed: false, completedAt: null } });
    const notCompleted = await client.post(`/db/api/ticketQueue/markIncomplete?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: second.ticketId, techId: user.id })}`);
    expect(notCompleted.statusCode).toBe(409);
    expect(notCompleted.json()).toMatchObject({ detail: MESSAGES.queue.notCompleted });
    const alias = await client.post(`/db/api/ticketQueue/complete?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: second.ticketId, techId: user.id })}`);
    expect(alias.json()).toMatchObject({ ticket: { state: 'completed' }, totalWorkHours: 0 });
    const stranger = await technician(t, fixture, { tierLevel: 'Tier1' });
    const notYours = await stranger.client.post(`/db/api/ticketQueue/markIncomplete?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: second.ticketId, techId: stranger.user.id })}`);
    expect(notYours.json()).toMatchObject({ detail: MESSAGES.queue.heldByOther });
  });

  it('requeues with a hold, a reserved assignee and a new tier; without an active ticket: "No active ticket to requeue"', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier2' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    const url = (params: Record<string, string | number>) => `/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, ...params })}`;
    const missing = await client.post(url({ holdTimeInHours: 2 }), {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ detail: MESSAGES.queue.noActiveTicketToRequeue });
    const requeued = await client.post(url({ holdTimeInHours: 2, assignedFlag: 'false', newTier: 'Tier2' }), ticket);
    expect(requeued.statusCode).toBe(200);
    const back = requeued.json<{ ticket: TQueueTicket }>().ticket;
    expect(back).toMatchObject({ state: 'held', tier: 'Tier2', assignedTechId: null });
    expect(new Date(back.holdUntil ?? 0).getTime() - t.deps.now().getTime()).toBeGreaterThan(119 * 60_000);
    const again = await client.post(url({ holdTimeInHours: 0 }), ticket);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: MESSAGES.queue.noActiveTicketToRequeue });
    // Held: nobody gets it before the hold ends; a Tier1 technician never (new tier).
    const tier2 = await technician(t, fixture, { tierLevel: 'Tier2' });
    expect(ticketsOf(await next(tier2.client, fixture, tier2.user.id)).map((each) => each.id)).not.toContain(ticket.id);
    await tier2.client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tier2.user.id })}`);
    t.advanceClock(2 * 3_600_000 + 1000);
    const later = await technician(t, fixture, { tierLevel: 'Tier2' });
    expect(ticketsOf(await next(later.client, fixture, later.user.id)).map((each) => each.id)).toContain(ticket.id);
    await later.client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: later.user.id })}`);
  });

  // Regression (issue #10): a hand-back always unassigned in the PSA, even when the claim had assigned nothing there
  // (a technician without a PSA member), clearing an owner someone had set in the PSA itself.
  it('unassigns in the PSA on a requeue only what the claim assigned there', async () => {
    const [member] = await fixture.direct.listMembers();
    if (!member) throw new Error('the simulator has no member');
    const linked = await technician(t, fixture, { tierLevel: 'Tier3', psaMemberId: String(member.id) });
    const [assigned] = ticketsOf(await next(linked.client, fixture, linked.user.id, 1));
    if (!assigned) throw new Error('no ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(assigned.ticketId)).ownerId, { timeout: 10_000 }).toBe(member.id);
    const url = (techId: string) => `/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId, holdTimeInHours: 0, assignedFlag: 'false' })}`;
    expect((await linked.client.post(url(linked.user.id), { ticketId: assigned.ticketId })).statusCode).toBe(200);
    expect(await fixture.direct.getTicket(assigned.ticketId)).toMatchObject({ ownerId: null });
    // A release unassigns in the PSA as well (the release statement says which tickets the queue assigned there).
    const [released] = ticketsOf(await next(linked.client, fixture, linked.user.id, 1));
    if (!released) throw new Error('no ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(released.ticketId)).ownerId, { timeout: 10_000 }).toBe(member.id);
    expect((await linked.client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: linked.user.id })}`)).json()).toEqual({ released: 1 });
    await expect.poll(async () => (await fixture.direct.getTicket(released.ticketId)).ownerId, { timeout: 10_000 }).toBe(null);

    // Owned in the PSA by a member the queue never assigned; a technician without a PSA member claims and hands it back.
    const unlinked = await technician(t, fixture, { tierLevel: 'Tier3' });
    const [ticket] = ticketsOf(await next(unlinked.client, fixture, unlinked.user.id, 1));
    if (!ticket) throw new Error('no ticket');
    await fixture.direct.assignTicket(ticket.ticketId, { memberId: member.id });
    expect((await unlinked.client.post(url(unlinked.user.id), { ticketId: ticket.ticketId })).statusCode).toBe(200);
    expect(await fixture.direct.getTicket(ticket.ticketId)).toMatchObject({ ownerId: member.id });
  });

  // The release hands back tickets the PSA never heard of in one statement and the ones the queue assigned there in a
  // transaction with their unassign (bench/README, issue #10): one call with both kinds releases both, unassigning one.
  it('releases both a ticket the queue assigned in the PSA and one it did not, and unassigns only the first', async () => {
    const [member, other] = await fixture.direct.listMembers();
    if (!member || !other) throw new Error('the simulator has too few members');
    const tech = await technician(t, fixture, { tierLevel: 'Tier3' });
    const [quiet] = ticketsOf(await next(tech.client, fixture, tech.user.id, 1));
    if (!quiet) throw new Error('no ticket');
    await fixture.direct.assignTicket(quiet.ticketId, { memberId: other.id });
    // Linked to a PSA member from now on: the next claim is assigned in the PSA.
    await t.deps.database.db.update(users).set({ psaMemberId: String(member.id) }).where(eq(users.id, tech.user.id));
    const claimed = ticketsOf(await next(tech.client, fixture, tech.user.id, 2));
    const assigned = claimed.find((each) => each.id !== quiet.id);
    if (!assigned) throw new Error('no second ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(assigned.ticketId)).ownerId, { timeout: 10_000 }).toBe(member.id);
    const release = await tech.client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id })}`);
    expect(release.json()).toEqual({ released: 2 });
    await expect.poll(async () => (await fixture.direct.getTicket(assigned.ticketId)).ownerId, { timeout: 10_000 }).toBe(null);
    expect(await fixture.direct.getTicket(quiet.ticketId)).toMatchObject({ ownerId: other.id });
    const working = ticketsOf(await tech.client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id })}`));
    expect(working).toEqual([]);
  });

  it('a requeue with assignedFlag keeps the ticket for the same technician', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    const requeued = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, holdTimeInHours: 0, assignedFlag: 'true' })}`, { ticketId: ticket.ticketId });
    expect(requeued.json()).toMatchObject({ ticket: { state: 'queued', assignedTechId: user.id } });
    const other = await technician(t, fixture, { tierLevel: 'Tier3' });
    const eligible = ticketsOf(await other.client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: other.user.id })}`));
    expect(eligible.map((each) => each.id)).not.toContain(ticket.id);
    expect(ticketsOf(await next(client, fixture, user.id, 1)).map((each) => each.id)).toEqual([ticket.id]);
  });

  it('rejects with a reason: back in the queue, not offered to the same technician, the reason an internal note in the PSA', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    const url = `/db/api/ticketQueue/rejectTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, techId: user.id })}`;
    const blank = await client.post(url, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ detail: MESSAGES.queue.rejectReasonRequired });
    const rejected = await client.post(url, { reason: 'Needs on-site visit' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ ticketId: ticket.ticketId, note: { status: 'done' } });
    const notes = await fixture.direct.listNotes(ticket.ticketId);
    expect(notes.filter((note) => note.text.includes('Needs on-site visit') && note.kind === 'internal')).toHaveLength(1);
    const mine = ticketsOf(await next(client, fixture, user.id, 5));
    expect(mine.map((each) => each.id)).not.toContain(ticket.id);
    const other = await technician(t, fixture, { tierLevel: 'Tier1' });
    const eligible = ticketsOf(await other.client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: other.user.id })}`));
    expect(eligible.map((each) => each.id)).toContain(ticket.id);
  });

  it('releases claimed but unstarted tickets on request and when the technician signs out', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier3' });
    const claimed = ticketsOf(await next(client, fixture, user.id, 2));
    expect(claimed.length).toBeGreaterThan(0);
    const released = await client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id })}`);
    expect(released.json()).toEqual({ released: claimed.length });
    const leaver = await technician(t, fixture, { tierLevel: 'Tier3' });
    const held = ticketsOf(await next(leaver.client, fixture, leaver.user.id, 2));
    expect(held.length).toBeGreaterThan(0);
    expect((await leaver.client.post('/auth/api/auth/logout', {})).statusCode).toBe(200);
    t.advanceClock(16_000);
    const watcher = await technician(t, fixture, { tierLevel: 'Tier3' });
    const eligible = ticketsOf(await watcher.client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: watcher.user.id })}`));
    for (const ticket of held) expect(eligible.map((each) => each.id)).toContain(ticket.id);
  });

  it('releases the claimed but unstarted tickets of a technician idle for the idle-release time (60 minutes by default), not before', async () => {
    const idler = await technician(t, fixture, { tierLevel: 'Tier3' });
    const held = ticketsOf(await next(idler.client, fixture, idler.user.id, 2));
    expect(held.length).toBeGreaterThan(0);
    const watcher = await technician(t, fixture, { tierLevel: 'Tier3' });
    const eligibleIds = async () =>
      ticketsOf(await watcher.client.get(`/db/api/ticketQueue/eligibleTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: watcher.user.id })}`)).map((each) => each.id);
    t.advanceClock(59 * 60_000);
    for (const ticket of held) expect(await eligibleIds()).not.toContain(ticket.id);
    t.advanceClock(2 * 60_000);
    for (const ticket of held) expect(await eligibleIds()).toContain(ticket.id);
    const working = ticketsOf(await idler.client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: idler.user.id })}`));
    expect(working).toEqual([]);
  });

  // Regression (code review): a ticket, board or note type id past PostgreSQL's integer range reached an integer column
  // and answered 500 "Something went wrong on our side." instead of saying what was wrong.
  it('refuses a requeue ticketId, a note type and a board id past the integer range with a 400 in plain words', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier3' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    const tooBig = 99_999_999_999;
    const requeue = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, holdTimeInHours: 0 })}`, { ticketId: tooBig });
    expect(requeue.json()).toMatchObject({ status: 400, code: 'validation', detail: 'Ticket id must be at most 2147483647.' });
    const note = await client.post(`/psa/addNotesToTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, noteType: tooBig })}`, { info: '', text: 'Checked the printer' });
    expect(note.json()).toMatchObject({ status: 400, code: 'validation', detail: 'Note type must be at most 2147483647.' });
    const all = await client.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, boardId: tooBig })}`);
    expect(all.json()).toMatchObject({ status: 400, code: 'validation', detail: 'Board id must be at most 2147483647.' });
    const close = await client.post(`/psa/closeTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, boardId: tooBig })}`);
    expect(close.json()).toMatchObject({ status: 400, code: 'validation', detail: 'Board id must be at most 2147483647.' });
    await client.post(`/db/api/ticketQueue/release?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id })}`);
  });
});

// Regression (code review): a hand-off or a close left the outgoing technician's timer paused or running and open. Their
// time never reached the PSA (the ticket had left their list, so nobody could complete it), and on a closed ticket
// the minutes kept counting.
describe('the timer of a ticket that leaves the technician or closes is completed, its time entry sent once', () => {
  let fixture: TQueueFixture;
  let memberA: number;
  let memberB: number;

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 6, { tier: 'Tier1' });
    const [first, second] = await fixture.direct.listMembers();
    if (!first || !second) throw new Error('the simulator has too few members');
    memberA = first.id;
    memberB = second.id;
  });

  const timer = (client: TestClient, action: string, body: Record<string, unknown>) => client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/${action}`, body);
  const sessionsOf = async (client: TestClient, ticketId: number, techId: string) =>
    (await client.get(`/db/api/ticketActivities/${fixture.msp.customDomain}/${ticketId}/${techId}`)).json<{ isActive: boolean; totalWorkMinutes: number }>();
  const entriesOf = async (ticketId: number, memberId: number) => (await fixture.direct.listTimeEntries(ticketId)).filter((entry) => entry.memberId === memberId);
  /** A Tier1 technician who is PSA member A claims one ticket, and the claim's assignment has landed in the PSA. */
  const claimOneAsMemberA = async () => {
    const a = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(memberA) });
    const [ticket] = ticketsOf(await next(a.client, fixture, a.user.id, 1));
    if (!ticket) throw new Error('no ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(ticket.ticketId)).ownerId, { timeout: 5_000 }).toBe(memberA);
    return { a, ticket };
  };
  /** Someone closes the ticket in the PSA, and the sync brings the closed copy. */
  const closeInPsaAndCopy = async (ticket: { ticketId: number; title: string }) => {
    await fixture.direct.closeTicket(ticket.ticketId, { statusId: fixture.closingStatusId });
    await upsertTicketCopies(
      t.deps.database.db,
      fixture.msp.id,
      'CONNECTWISE',
      [{ externalId: ticket.ticketId, summary: ticket.title, board: { id: fixture.boardId, name: 'Board' }, type: { id: fixture.typeId, name: 'Type' }, subtype: { id: fixture.subtypes.tier1, name: 'Tier1' }, priority: { id: fixture.priorityId, name: 'Priority' }, company: { id: fixture.companyId, name: 'Company' }, isClosed: true, closedAt: t.deps.now() }],
      t.deps.now(),
    );
  };

  it('a requeue kept for the technician keeps the timer paused; one handed back completes it, and the next technician’s completion sends only their own', async () => {
    moveClockToNineUtc(t); // the sessions must not cross midnight
    const a = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(memberA) });
    const [ticket] = ticketsOf(await next(a.client, fixture, a.user.id, 1));
    if (!ticket) throw new Error('no ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(ticket.ticketId)).ownerId, { timeout: 5_000 }).toBe(memberA); // the claim's assignment landed
    const requeue = (assignedFlag: 'true' | 'false') =>
      a.client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, holdTimeInHours: 0, assignedFlag })}`, { ticketId: ticket.ticketId });
    expect((await timer(a.client, 'start', { ticketId: ticket.ticketId, techId: a.user.id })).statusCode).toBe(200);
    t.advanceClock(20 * 60_000);
    // Kept for A: paused, not completed, nothing sent; A takes it again and resumes the same timer.
    expect((await requeue('true')).statusCode).toBe(200);
    expect(await entriesOf(ticket.ticketId, memberA)).toHaveLength(0);
    expect(ticketsOf(await next(a.client, fixture, a.user.id, 1)).map((each) => each.id)).toEqual([ticket.id]);
    expect((await timer(a.client, 'resume', { ticketId: ticket.ticketId, techId: a.user.id })).statusCode).toBe(200);
    t.advanceClock(10 * 60_000);
    // Handed back: A's 30 minutes go to the PSA at once, under A's member.
    expect((await requeue('false')).json()).toMatchObject({ ticket: { state: 'queued', assignedTechId: null } });
    expect(await sessionsOf(a.client, ticket.ticketId, a.user.id)).toMatchObject({ isActive: false });
    const sent = await entriesOf(ticket.ticketId, memberA);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.hours).toBeCloseTo(0.5, 2);
    // B takes it over and completes it: B's entry is sent, A's stays the one it was.
    const b = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(memberB) });
    const picked = await b.client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId: b.user.id, ticketQueueEntityId: ticket.id })}`);
    expect(picked.statusCode).toBe(200);
    expect((await timer(b.client, 'start', { ticketId: ticket.ticketId, techId: b.user.id })).statusCode).toBe(200);
    t.advanceClock(10 * 60_000);
    expect((await b.client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, techId: b.user.id })}`)).statusCode).toBe(200);
    expect(await entriesOf(ticket.ticketId, memberA)).toHaveLength(1);
    expect(await entriesOf(ticket.ticketId, memberB)).toHaveLength(1);
    expect(await fixture.direct.listTimeEntries(ticket.ticketId)).toHaveLength(2);
  });

  it('a reject completes the technician’s timer and sends its time entry', async () => {
    moveClockToNineUtc(t);
    const { a, ticket } = await claimOneAsMemberA();
    expect((await timer(a.client, 'start', { ticketId: ticket.ticketId, techId: a.user.id })).statusCode).toBe(200);
    t.advanceClock(15 * 60_000);
    const rejected = await a.client.post(`/db/api/ticketQueue/rejectTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, techId: a.user.id })}`, { reason: 'Needs the network team' });
    expect(rejected.statusCode).toBe(200);
    expect(await sessionsOf(a.client, ticket.ticketId, a.user.id)).toMatchObject({ isActive: false });
    const sent = await entriesOf(ticket.ticketId, memberA);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.hours).toBeCloseTo(0.25, 2);
  });

  it('a ticket closed in the PSA stops its timer at the refresh that closes it, and the time entry is sent', async () => {
    moveClockToNineUtc(t);
    const { a, ticket } = await claimOneAsMemberA();
    // The ticket may be the one rejected above, with that technician's entry (the same PSA member) already there.
    const earlier = (await entriesOf(ticket.ticketId, memberA)).length;
    expect((await timer(a.client, 'start', { ticketId: ticket.ticketId, techId: a.user.id })).statusCode).toBe(200);
    t.advanceClock(15 * 60_000);
    // Closed by someone in the PSA; the sync brings the closed copy.
    await closeInPsaAndCopy(ticket);
    t.advanceClock(16_000); // the next upkeep pass
    const working = ticketsOf(await a.client.get(`/db/api/ticketQueue/currentWorking?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id })}`));
    expect(working.map((each) => each.id)).not.toContain(ticket.id);
    const stopped = await sessionsOf(a.client, ticket.ticketId, a.user.id);
    expect(stopped.isActive).toBe(false);
    t.advanceClock(30 * 60_000);
    expect((await sessionsOf(a.client, ticket.ticketId, a.user.id)).totalWorkMinutes).toBeCloseTo(stopped.totalWorkMinutes, 2);
    // The outbox's retry loop sends what the upkeep queued (after the claim's assignment, in order).
    const sentByRetries = async () => {
      await runPsaOutboxPass(t.deps);
      return (await entriesOf(ticket.ticketId, memberA)).length;
    };
    await expect.poll(sentByRetries, { timeout: 5_000 }).toBe(earlier + 1);
    await runPsaOutboxPass(t.deps);
    const entries = await entriesOf(ticket.ticketId, memberA);
    expect(entries).toHaveLength(earlier + 1);
    expect(entries.filter((entry) => entry.notes.includes(MESSAGES.queue.completed))).toHaveLength(1);
  });

  // Regression (code review): a timer left running on a ticket closed before closing completed timers (fdd49ba) stayed
  // open for good: only a ticket's next close completed its timers, and a closed ticket never closes again.
  it('the upkeep completes a timer left running on a ticket closed earlier, and its time entry is sent once however often it runs', async () => {
    moveClockToNineUtc(t);
    const { a, ticket } = await claimOneAsMemberA();
    const earlier = (await entriesOf(ticket.ticketId, memberA)).length;
    expect((await timer(a.client, 'start', { ticketId: ticket.ticketId, techId: a.user.id })).statusCode).toBe(200);
    t.advanceClock(20 * 60_000);
    // As a server before that fix left it: the ticket closed in the PSA and in the queue, its timer still running.
    await closeInPsaAndCopy(ticket);
    await t.deps.database.db.update(queueTickets).set({ state: 'closed', closedAt: t.deps.now() }).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.id, ticket.id)));
    expect((await sessionsOf(a.client, ticket.ticketId, a.user.id)).isActive).toBe(true);

    // The upkeep of two replicas at once.
    await Promise.all([createQueueMaintenance(t.deps).maintain(fixture.msp.id, true), createQueueMaintenance(t.deps).maintain(fixture.msp.id, true)]);
    const stopped = await sessionsOf(a.client, ticket.ticketId, a.user.id);
    expect(stopped.isActive).toBe(false);
    expect(stopped.totalWorkMinutes).toBeCloseTo(20, 1);
    t.advanceClock(30 * 60_000);
    expect((await sessionsOf(a.client, ticket.ticketId, a.user.id)).totalWorkMinutes).toBeCloseTo(20, 1);
    const sentByRetries = async () => {
      await runPsaOutboxPass(t.deps);
      return (await entriesOf(ticket.ticketId, memberA)).length;
    };
    await expect.poll(sentByRetries, { timeout: 5_000 }).toBe(earlier + 1);

    // The upkeep again: nothing more is queued or sent.
    await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
    await runPsaOutboxPass(t.deps);
    const entries = await entriesOf(ticket.ticketId, memberA);
    expect(entries).toHaveLength(earlier + 1);
    expect(entries.at(-1)?.hours).toBeCloseTo(20 / 60, 2);
  });
});

describe('activities (A-125, A-126) and weights', () => {
  let fixture: TQueueFixture;

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 3, { tier: 'Tier1' });
  });

  it('reports minutes worked and completions for the day, per technician and for the MSP', async () => {
    moveClockToNineUtc(t); // its session must not cross midnight
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: ticket.ticketId, techId: user.id });
    t.advanceClock(20 * 60_000);
    await client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticket.ticketId, techId: user.id })}`);
    const date = t.deps.now().toISOString().slice(0, 10);
    const mine = await client.get(`/db/api/ticketQueue/activities/tech?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, date })}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ date, activities: [{ techId: user.id, ticketId: ticket.ticketId, completed: true }], totals: [{ techId: user.id, ticketsCompleted: 1 }] });
    expect(mine.json<{ totals: { totalWorkMinutes: number }[] }>().totals[0]?.totalWorkMinutes).toBeCloseTo(20, 0);
    const all = await fixture.admin.get(`/db/api/ticketQueue/activities?${q({ mspCustomDomain: fixture.msp.customDomain, date })}`);
    expect(all.json<{ totals: { techId: string }[] }>().totals.map((total) => total.techId)).toContain(user.id);
    // A technician without people management sees only their own.
    expect((await client.get(`/db/api/ticketQueue/activities?${q({ mspCustomDomain: fixture.msp.customDomain, date })}`)).statusCode).toBe(403);
    const other = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await other.client.get(`/db/api/ticketQueue/activities/tech?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, date })}`)).statusCode).toBe(403);
    expect((await client.get(`/db/api/ticketQueue/activities/tech?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, date: '23-11-2026' })}`)).statusCode).toBe(400);
  });

  // Regression (code review): dates PostgreSQL cannot hold (year 0, or a day whose next day is year 10000) passed the
  // date check and answered 500.
  it('answers 400 with the date hint for a day outside the years it can count', async () => {
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    for (const date of ['9999-12-31', '0000-01-01']) {
      const mine = await client.get(`/db/api/ticketQueue/activities/tech?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, date })}`);
      expect(mine.statusCode, `${date}: ${mine.body}`).toBe(400);
      expect(mine.json()).toMatchObject({ detail: MESSAGES.queue.badDate });
      const all = await fixture.admin.get(`/db/api/ticketQueue/activities?${q({ mspCustomDomain: fixture.msp.customDomain, date })}`);
      expect(all.statusCode, `${date}: ${all.body}`).toBe(400);
      expect(all.json()).toMatchObject({ detail: MESSAGES.queue.badDate });
    }
  });

  it('counts the day from midnight to midnight in the MSP’s time zone', async () => {
    const weights = `/db/api/ticketQueue/weights?${q({ mspCustomDomain: fixture.msp.customDomain })}`;
    const settings = (await fixture.admin.get(weights)).json<{ settings: Record<string, unknown> }>().settings;
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = ticketsOf(await next(client, fixture, user.id, 1));
    if (!ticket) throw new Error('no ticket');
    // 02:00 to 02:30 UTC is 21:00 to 21:30 (22:00 to 22:30 in summer) the evening before in New York.
    moveClockToNineUtc(t);
    t.advanceClock(17 * 3_600_000);
    const utcDay = t.deps.now().toISOString().slice(0, 10);
    const newYorkDay = new Date(t.deps.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: ticket.ticketId, techId: user.id });
    t.advanceClock(30 * 60_000);
    expect((await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/pause`, { ticketId: ticket.ticketId, techId: user.id })).statusCode).toBe(200);
    const minutesOn = async (date?: string) => {
      const response = await client.get(`/db/api/ticketQueue/activities/tech?${q({ mspCustomDomain: fixture.msp.customDomain, techId: user.id, ...(date === undefined ? {} : { date }) })}`);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ date: string; timeZone: string; totals: { totalWorkMinutes: number }[] }>();
      return { date: body.date, timeZone: body.timeZone, minutes: Math.round(body.totals[0]?.totalWorkMinutes ?? 0) };
    };
    try {
      expect((await fixture.admin.put(weights, { ...settings, timeZone: 'America/New_York' })).statusCode).toBe(200);
      expect(await minutesOn(newYorkDay)).toEqual({ date: newYorkDay, timeZone: 'America/New_York', minutes: 30 });
      expect((await minutesOn(utcDay)).minutes).toBe(0);
      // Today is today in New York.
      expect(await minutesOn()).toEqual({ date: newYorkDay, timeZone: 'America/New_York', minutes: 30 });
      expect((await fixture.admin.put(weights, { ...settings, timeZone: 'UTC' })).statusCode).toBe(200);
      expect(await minutesOn(utcDay)).toEqual({ date: utcDay, timeZone: 'UTC', minutes: 30 });
      expect((await minutesOn(newYorkDay)).minutes).toBe(0);
    } finally {
      await fixture.admin.put(weights, settings);
    }
  });

  it('lets an admin change the weights, which re-ranks the queue; a technician may not', async () => {
    const url = `/db/api/ticketQueue/weights?${q({ mspCustomDomain: fixture.msp.customDomain })}`;
    const current = await fixture.admin.get(url);
    expect(current.statusCode).toBe(200);
    const settings = { ...current.json<{ settings: Record<string, unknown> }>().settings, ageWeight: 0, slaWeight: 0, priorityWeight: 0, subtypeWeight: 1 };
    const { client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await client.put(url, settings)).statusCode).toBe(403);
    const saved = await fixture.admin.put(url, settings);
    expect(saved.statusCode).toBe(200);
    const page = await fixture.admin.get(`/db/api/ticketQueue/getAll?${q({ mspCustomDomain: fixture.msp.customDomain, sort: 'score' })}`);
    // Subtype score alone now: Tier1 subtypes score 10.
    expect(page.json<{ tickets: TQueueTicket[] }>().tickets.every((ticket) => ticket.score === 10)).toBe(true);
    expect((await fixture.admin.put(url, { ...settings, ageWeight: -1 })).statusCode).toBe(400);
    const badZone = await fixture.admin.put(url, { ...settings, timeZone: 'Mars/Olympus_Mons' });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json<{ detail: string }>().detail).toContain('Choose a time zone from the list');
    expect((await fixture.admin.put(url, { ...settings, timeZone: 'America/New_York' })).json()).toMatchObject({ settings: { timeZone: 'America/New_York' } });
    expect((await fixture.admin.get(url)).json()).toMatchObject({ settings: { timeZone: 'America/New_York', subtypeWeight: 1 } });
  });
});
