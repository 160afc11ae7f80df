import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { DISPATCH_PATHS, MESSAGES, type TDispatchBoard, type TQueueTicket, type TSlaAlertList } from '@switchboard/contracts';
import { outboxMail } from '@switchboard/db';
import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createQueueFixture, createTickets, moveClockToNineUtc, technician, type TQueueFixture } from './queue-fixtures.test';
import type { TMail, TMailer } from '../../lib/mailer';
import { runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createSlaAlertsService } from './sla-alerts.service';
import { MAINTENANCE_INTERVAL_MS } from './queue.maintenance';

let t: TTestApp;
let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  // The SLA sweep loop runs every 50 ms here, as it runs every minute in production.
  t = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host], slaSweepIntervalMs: 50 } });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const boardOf = (client: TestClient, fixture: TQueueFixture) => client.get(`${DISPATCH_PATHS.board}?${q({ mspCustomDomain: fixture.msp.customDomain })}`);
const assign = (client: TestClient, fixture: TQueueFixture, body: Record<string, unknown>) => client.post(`${DISPATCH_PATHS.assign}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, body);
const unassign = (client: TestClient, fixture: TQueueFixture, body: Record<string, unknown>) => client.post(`${DISPATCH_PATHS.unassign}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, body);
const alertsOf = (client: TestClient, fixture: TQueueFixture) => client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: fixture.msp.customDomain })}`);

async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the dispatcher’s board (decision 018)', () => {
  let fixture: TQueueFixture;
  let ticketIds: number[];

  beforeAll(async () => {
    fixture = await createQueueFixture(t, sim);
    ticketIds = await createTickets(t, fixture, 3, { tier: 'Tier1', prefix: 'Dispatch' });
  });

  it('shows the unassigned tickets and every technician’s load; assigning claims the ticket for them and unassigning puts it back', async () => {
    const member = (await fixture.direct.listMembers())[0];
    const { user: tech } = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(member?.id ?? '') });
    const before = await boardOf(fixture.admin, fixture);
    expect(before.statusCode).toBe(200);
    const board = before.json<TDispatchBoard>();
    expect(board.unassignedTotal).toBe(3);
    expect(new Set(board.unassigned.map((ticket) => ticket.ticketId))).toEqual(new Set(ticketIds));
    expect(board.unassigned.every((ticket) => ticket.slaDueAt !== null)).toBe(true);
    const techRow = board.technicians.find((row) => row.id === tech.id);
    expect(techRow).toMatchObject({ claimedCount: 0, workingCount: 0, tickets: [], runningTicketId: null, tierLevel: 'Tier1', isActive: true });

    const target = board.unassigned[0];
    if (!target) throw new Error('no unassigned ticket');
    const assigned = await assign(fixture.admin, fixture, { id: target.id, techId: tech.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ state: 'claimed', assignedTechId: tech.id });

    const after = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(after.unassignedTotal).toBe(2);
    expect(after.technicians.find((row) => row.id === tech.id)).toMatchObject({ claimedCount: 1, tickets: [expect.objectContaining({ ticketId: target.ticketId })] });
    // The PSA gets the owner through the outbox, as for any claim.
    await expect.poll(async () => (await fixture.direct.getTicket(target.ticketId)).ownerId, { timeout: 5_000 }).toBe(member?.id ?? null);

    const again = await assign(fixture.admin, fixture, { id: target.id, techId: tech.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: MESSAGES.queue.dispatch.notQueued });

    const back = await unassign(fixture.admin, fixture, { id: target.id });
    expect(back.statusCode).toBe(200);
    expect(back.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ state: 'queued', assignedTechId: null });
    expect((await boardOf(fixture.admin, fixture)).json<TDispatchBoard>().unassignedTotal).toBe(3);
    expect((await unassign(fixture.admin, fixture, { id: target.id })).json()).toMatchObject({ status: 409, detail: MESSAGES.queue.dispatch.notAssigned });
  });

  // Regression (code review): unassigning paused the technician's timer and left it open; the ticket had left their
  // list, so nobody could complete it and their time never reached the PSA.
  it('unassigning a ticket in progress completes the technician’s timer and sends their time entry once', async () => {
    moveClockToNineUtc(t); // the session must not cross midnight
    const member = (await fixture.direct.listMembers())[0];
    if (!member) throw new Error('the simulator has no member');
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(member.id) });
    const [target] = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>().unassigned;
    if (!target) throw new Error('no unassigned ticket');
    expect((await assign(fixture.admin, fixture, { id: target.id, techId: tech.id })).statusCode).toBe(200);
    await expect.poll(async () => (await fixture.direct.getTicket(target.ticketId)).ownerId, { timeout: 5_000 }).toBe(member.id);
    expect((await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: target.ticketId, techId: tech.id })).statusCode).toBe(200);
    t.advanceClock(25 * 60_000);
    expect((await unassign(fixture.admin, fixture, { id: target.id })).statusCode).toBe(200);
    const sessions = await client.get(`/db/api/ticketActivities/${fixture.msp.customDomain}/${target.ticketId}/${tech.id}`);
    expect(sessions.json()).toMatchObject({ isActive: false });
    const entriesOfTech = async () => (await fixture.direct.listTimeEntries(target.ticketId)).filter((entry) => entry.memberId === member.id);
    // Tried after the commit; what that try leaves, the outbox's retry loop sends.
    const sent = async () => {
      await runPsaOutboxPass(t.deps);
      return (await entriesOfTech()).length;
    };
    await expect.poll(sent, { timeout: 10_000 }).toBe(1);
    expect((await entriesOfTech())[0]?.hours).toBeCloseTo(25 / 60, 2);
    // Assigned to them again later: a new timer, whose 5 minutes are a second entry, and the first is not sent twice.
    expect((await assign(fixture.admin, fixture, { id: target.id, techId: tech.id })).statusCode).toBe(200);
    expect((await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: target.ticketId, techId: tech.id })).json()).toMatchObject({ state: 'running', totalWorkMinutes: expect.closeTo(25, 0) as number });
    t.advanceClock(5 * 60_000);
    expect((await unassign(fixture.admin, fixture, { id: target.id })).statusCode).toBe(200);
    await expect.poll(sent, { timeout: 10_000 }).toBe(2);
    expect((await entriesOfTech()).map((entry) => Math.round(entry.hours * 60)).sort((a, b) => a - b)).toEqual([5, 25]);
  });

  it('refuses a technician with no tier, an unknown technician or ticket, and a body that is not ids', async () => {
    const { user: noTier } = await technician(t, fixture, { tierLevel: 'NoTier' });
    const [ticket] = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>().unassigned;
    if (!ticket) throw new Error('no unassigned ticket');
    expect((await assign(fixture.admin, fixture, { id: ticket.id, techId: noTier.id })).json()).toMatchObject({ status: 409, detail: MESSAGES.queue.dispatch.noTierTechnician });
    const otherMsp = await buildMsp(t);
    const stranger = await buildUser(t, otherMsp, { role: 'Technician', tierLevel: 'Tier1' });
    expect((await assign(fixture.admin, fixture, { id: ticket.id, techId: stranger.id })).json()).toMatchObject({ status: 404, detail: MESSAGES.queue.technicianNotFound });
    expect((await assign(fixture.admin, fixture, { id: '00000000-0000-4000-8000-000000000000', techId: fixture.adminUser.id })).json()).toMatchObject({ status: 404, detail: MESSAGES.queue.ticketNotFound });
    const bad = await assign(fixture.admin, fixture, { id: 'x', techId: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation' });
  });

  it('is for admins and people managers only: 403 for a technician, 404 for another MSP, 401 without a session, 403 without CSRF', async () => {
    const { client: plain } = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await boardOf(plain, fixture)).statusCode).toBe(403);
    const [ticket] = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>().unassigned;
    if (!ticket) throw new Error('no unassigned ticket');
    expect((await assign(plain, fixture, { id: ticket.id, techId: fixture.adminUser.id })).statusCode).toBe(403);
    const outsider = await signedInClient(t, await buildUser(t, await buildMsp(t), { role: 'Admin' }));
    expect((await boardOf(outsider, fixture)).statusCode).toBe(404);
    expect((await assign(outsider, fixture, { id: ticket.id, techId: fixture.adminUser.id })).statusCode).toBe(404);
    expect((await boardOf(new TestClient(t.app), fixture)).statusCode).toBe(401);
    const noCsrf = await fixture.admin.post(`${DISPATCH_PATHS.assign}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { id: ticket.id, techId: fixture.adminUser.id }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });
});

describe('assigning to a technician who is not signed in, and what the board keeps', () => {
  const next = (client: TestClient, fixture: TQueueFixture, techId: string, limit = 5) =>
    client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId, psaMemberId: '', limit })}`);
  const techRowOf = (board: TDispatchBoard, techId: string) => board.technicians.find((row) => row.id === techId);

  // Regression (code review): the assignment was a claim, which the upkeep's release-on-sign-out put back in the queue
  // on the next board read (the PSA got an assign, then an unassign), so work could not be given out for tomorrow.
  it('keeps a ticket assigned to a signed-out technician reserved for them past the release, and gives it to them on their next', async () => {
    const fixture = await createQueueFixture(t, sim);
    const ticketIds = await createTickets(t, fixture, 2, { tier: 'Tier1', prefix: 'Tomorrow' });
    const [higher] = await createTickets(t, fixture, 1, { tier: 'Tier2', prefix: 'Higher' });
    const member = (await fixture.direct.listMembers())[0];
    if (!member) throw new Error('the simulator has no member');
    // Not signed in: no session at all.
    const absent = await buildUser(t, fixture.msp, { role: 'Technician', tierLevel: 'Tier1', password: null, psaMemberId: String(member.id) });
    const before = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>().unassigned;
    const target = before.find((ticket) => ticket.ticketId === ticketIds[0]);
    const tier2 = before.find((ticket) => ticket.ticketId === higher);
    if (!target || !tier2) throw new Error('the tickets are not on the board');

    const assigned = await assign(fixture.admin, fixture, { id: target.id, techId: absent.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ assignedTechId: absent.id });
    // The PSA hears of the assignment as for any other.
    await expect.poll(async () => (await fixture.direct.getTicket(target.ticketId)).ownerId, { timeout: 5_000 }).toBe(member.id);

    t.advanceClock(MAINTENANCE_INTERVAL_MS + 1_000); // the upkeep runs on this read
    const board = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(board.unassigned.map((ticket) => ticket.id)).not.toContain(target.id);
    expect(board.unassignedTotal).toBe(2);
    // Reserved for them (queued, theirs), not a claim the release would take back.
    expect(techRowOf(board, absent.id)?.tickets).toEqual([expect.objectContaining({ id: target.id, state: 'queued', assignedTechId: absent.id })]);
    await runPsaOutboxPass(t.deps);
    expect((await fixture.direct.getTicket(target.ticketId)).ownerId).toBe(member.id);

    // A colleague pressing next first does not get it; the technician does when they sign in.
    const colleague = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await next(colleague.client, fixture, colleague.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.id)).not.toContain(target.id);
    const client = await signedInClient(t, absent);
    const mine = (await next(client, fixture, absent.id)).json<{ tickets: TQueueTicket[] }>().tickets;
    expect(mine).toEqual([expect.objectContaining({ id: target.id, state: 'claimed', assignedTechId: absent.id })]);

    // "Next" never gives a technician a ticket above their tier: such a reservation is refused in plain words.
    const away = await buildUser(t, fixture.msp, { role: 'Technician', tierLevel: 'Tier1', password: null });
    expect((await assign(fixture.admin, fixture, { id: tier2.id, techId: away.id })).json()).toMatchObject({ status: 409, detail: MESSAGES.queue.dispatch.reservationAboveTier });
  });

  // Regression (code review): a ticket reserved for a technician (requeued with assignedFlag) showed in no list of the board.
  it('shows a reserved ticket under its technician, and unassigning it sends it back to the open queue', async () => {
    const fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Reserved' });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = (await next(client, fixture, tech.id, 1)).json<{ tickets: TQueueTicket[] }>().tickets;
    if (!ticket) throw new Error('no ticket');
    const requeued = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, holdTimeInHours: 0, assignedFlag: 'true' })}`, { ticketId: ticket.ticketId });
    expect(requeued.statusCode, requeued.body).toBe(200);

    const board = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(board.unassignedTotal).toBe(0);
    expect(techRowOf(board, tech.id)).toMatchObject({ claimedCount: 0, workingCount: 0, tickets: [expect.objectContaining({ id: ticket.id, state: 'queued', assignedTechId: tech.id })] });

    const back = await unassign(fixture.admin, fixture, { id: ticket.id });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ state: 'queued', assignedTechId: null });
    const after = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(after.unassigned.map((each) => each.id)).toEqual([ticket.id]);
    expect(techRowOf(after, tech.id)?.tickets).toEqual([]);
    // No longer reserved: anyone of the tier may take it.
    const colleague = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await next(colleague.client, fixture, colleague.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.id)).toEqual([ticket.id]);
  });

  // Regression: unassigning a ticket its technician had requeued "assigned" with hold hours kept the hold, so the ticket
  // the dispatcher took back to give out sat in the open queue, given to nobody, until the hold ran out.
  it('unassigning a reserved ticket with a hold clears the hold: it is open to anyone at once', async () => {
    const fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'HeldReserved' });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = (await next(client, fixture, tech.id, 1)).json<{ tickets: TQueueTicket[] }>().tickets;
    if (!ticket) throw new Error('no ticket');
    const requeued = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, holdTimeInHours: 4, assignedFlag: 'true' })}`, { id: ticket.id });
    expect(requeued.statusCode, requeued.body).toBe(200);
    expect(requeued.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ assignedTechId: tech.id, holdUntil: expect.any(String) as string });

    const back = await unassign(fixture.admin, fixture, { id: ticket.id });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<{ ticket: TQueueTicket }>().ticket).toMatchObject({ state: 'queued', assignedTechId: null, holdUntil: null });
    const board = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(board.unassigned).toEqual([expect.objectContaining({ id: ticket.id, state: 'queued', holdUntil: null })]);
    expect(techRowOf(board, tech.id)?.tickets).toEqual([]);
    // Another technician of the tier gets it on their next, well before the 4 hours are up.
    const colleague = await technician(t, fixture, { tierLevel: 'Tier1' });
    const taken = (await next(colleague.client, fixture, colleague.user.id)).json<{ tickets: TQueueTicket[] }>().tickets;
    expect(taken).toEqual([expect.objectContaining({ id: ticket.id, state: 'claimed', assignedTechId: colleague.user.id })]);
  });

  // Regression (code review): the board listed active technicians only, so the tickets of one deactivated while holding
  // them vanished from it and nobody could unassign them.
  it('lists a deactivated technician while they hold tickets, so the dispatcher can unassign them; nothing new is assigned to them', async () => {
    moveClockToNineUtc(t); // the timer session must not cross midnight
    const fixture = await createQueueFixture(t, sim);
    await createTickets(t, fixture, 3, { tier: 'Tier1', prefix: 'Leaver' });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [working, reserved] = (await next(client, fixture, tech.id, 2)).json<{ tickets: TQueueTicket[] }>().tickets;
    if (!working || !reserved) throw new Error('no tickets');
    expect((await client.post(`/db/api/ticketActivities/${fixture.msp.customDomain}/start`, { ticketId: working.ticketId, techId: tech.id })).statusCode).toBe(200);
    const requeued = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, holdTimeInHours: 0, assignedFlag: 'true' })}`, { id: reserved.id });
    expect(requeued.statusCode, requeued.body).toBe(200);
    const removed = await fixture.admin.get(`/db/${fixture.msp.customDomain}/technicianUsers/delete?id=${tech.id}`);
    expect(removed.statusCode, removed.body).toBe(200);

    t.advanceClock(MAINTENANCE_INTERVAL_MS + 1_000);
    const board = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    const row = techRowOf(board, tech.id);
    expect(row?.workingCount).toBe(1);
    // Said as such, so the web's Assign menu can leave them out.
    expect(row?.isActive).toBe(false);
    expect(new Set(row?.tickets.map((ticket) => `${ticket.id} ${ticket.state}`))).toEqual(new Set([`${working.id} working`, `${reserved.id} queued`]));
    const [spare] = board.unassigned;
    if (!spare) throw new Error('no unassigned ticket');
    expect((await assign(fixture.admin, fixture, { id: spare.id, techId: tech.id })).json()).toMatchObject({ status: 409, detail: MESSAGES.queue.dispatch.inactiveTechnician });

    for (const ticket of [working, reserved]) expect((await unassign(fixture.admin, fixture, { id: ticket.id })).statusCode).toBe(200);
    const after = (await boardOf(fixture.admin, fixture)).json<TDispatchBoard>();
    expect(techRowOf(after, tech.id)).toBeUndefined();
    expect(after.unassignedTotal).toBe(3);
  });
});

describe('SLA alerts: swept in the background at 50/75/90/100 %, mailed at 90 and 100 % once', () => {
  it('alerts the assignee as the SLA runs out and mails them and the dispatchers exactly once per threshold', async () => {
    const fixture = await createQueueFixture(t, sim);
    // Tier1 tickets have an 8-hour SLA: created 7.5 hours ago is 94 %.
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Sla', createdAt: new Date(t.deps.now().getTime() - 7.5 * 3_600_000) });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const claimed = await client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: 5 })}`);
    expect(claimed.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([ticketId]);

    // No request triggers it: the process's sweep loop finds the ticket on its own.
    const seen = await waitFor(async () => (await alertsOf(client, fixture)).json<TSlaAlertList>(), (list) => list.alerts.length >= 3);
    expect(seen.alerts.map((alert) => alert.threshold)).toEqual([90, 75, 50]);
    expect(seen.alerts.every((alert) => alert.ticketId === ticketId && !alert.isRead)).toBe(true);
    expect(seen.unreadCount).toBe(3);

    const mailsTo = async () => t.deps.database.db.select().from(outboxMail).where(and(eq(outboxMail.mspId, fixture.msp.id), inArray(outboxMail.to, [tech.email.toLowerCase(), fixture.adminUser.email.toLowerCase()])));
    const first = await waitFor(mailsTo, (rows) => rows.length >= 2);
    expect(first.map((mail) => mail.to).sort()).toEqual([tech.email.toLowerCase(), fixture.adminUser.email.toLowerCase()].sort());
    expect(first.every((mail) => mail.subject.startsWith(`SLA 90 %: ticket #${ticketId}`))).toBe(true);

    t.advanceClock(60 * 60_000); // 8.5 hours: past the SLA
    const late = await waitFor(async () => (await alertsOf(client, fixture)).json<TSlaAlertList>(), (list) => list.alerts.length >= 4);
    expect(late.alerts[0]).toMatchObject({ threshold: 100, ticketId });
    const second = await waitFor(mailsTo, (rows) => rows.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 300)); // several more sweeps
    const final = await mailsTo();
    expect(final).toHaveLength(4);
    expect(second.filter((mail) => mail.subject.startsWith('SLA 100 %'))).toHaveLength(2);

    const read = await client.post(`${DISPATCH_PATHS.slaAlertsRead}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { ids: [late.alerts[0]?.id] });
    expect(read.statusCode).toBe(200);
    expect(read.json<TSlaAlertList>()).toMatchObject({ unreadCount: 3 });
    expect(read.json<TSlaAlertList>().alerts[0]).toMatchObject({ threshold: 100, isRead: true });

    // Another technician sees none of these and cannot mark them read.
    const { client: colleague } = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await alertsOf(colleague, fixture)).json<TSlaAlertList>()).toEqual({ alerts: [], unreadCount: 0 });
    await colleague.post(`${DISPATCH_PATHS.slaAlertsRead}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { ids: late.alerts.map((alert) => alert.id) });
    expect((await alertsOf(client, fixture)).json<TSlaAlertList>().unreadCount).toBe(3);
    expect((await client.post(`${DISPATCH_PATHS.slaAlertsRead}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { ids: [] })).statusCode).toBe(400);
    expect((await alertsOf(new TestClient(t.app), fixture)).statusCode).toBe(401);
  });
});

describe('SLA alerts of a ticket just taken', () => {
  // No sweep loop in this app: what the list shows, it found by itself.
  let quiet: TTestApp;
  beforeAll(async () => {
    quiet = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host], slaSweepIntervalMs: 0 } });
  });
  afterAll(async () => {
    await quiet.close();
  });

  it('shows a technician the alerts of a ticket past its SLA the moment they take it; the sweep mails them once', async () => {
    const fixture = await createQueueFixture(quiet, sim);
    // Tier1 tickets have an 8-hour SLA: created 9 hours ago is past it.
    const [ticketId] = await createTickets(quiet, fixture, 1, { tier: 'Tier1', prefix: 'Late', createdAt: new Date(quiet.deps.now().getTime() - 9 * 3_600_000) });
    const { user: tech, client } = await technician(quiet, fixture, { tierLevel: 'Tier1' });
    expect((await alertsOf(client, fixture)).json<TSlaAlertList>()).toEqual({ alerts: [], unreadCount: 0 });
    const claimed = await client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: 5 })}`);
    expect(claimed.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([ticketId]);

    const seen = (await alertsOf(client, fixture)).json<TSlaAlertList>();
    expect(seen.alerts.map((alert) => [alert.threshold, alert.ticketId])).toEqual([100, 90, 75, 50].map((threshold) => [threshold, ticketId]));
    expect(seen.unreadCount).toBe(4);
    expect((await alertsOf(client, fixture)).json<TSlaAlertList>().alerts).toHaveLength(4);
    // A colleague's list finds none of them.
    const { client: colleague } = await technician(quiet, fixture, { tierLevel: 'Tier1' });
    expect((await alertsOf(colleague, fixture)).json<TSlaAlertList>()).toEqual({ alerts: [], unreadCount: 0 });

    const mailsTo = async () => quiet.deps.database.db.select().from(outboxMail).where(and(eq(outboxMail.mspId, fixture.msp.id), inArray(outboxMail.to, [tech.email.toLowerCase(), fixture.adminUser.email.toLowerCase()])));
    expect(await mailsTo()).toHaveLength(0);
    const sweeps = createSlaAlertsService(quiet.deps);
    expect(await sweeps.sweep()).toMatchObject({ alerts: 0, mails: 4 });
    expect(await sweeps.sweep()).toMatchObject({ alerts: 0, mails: 0 });
    const mails = await mailsTo();
    expect(mails.map((mail) => mail.subject.slice(0, 8)).sort()).toEqual(['SLA 100 ', 'SLA 100 ', 'SLA 90 %', 'SLA 90 %']);
  });

  // Regression (code review): a sweep marked its whole batch sent before sending; one failed send put back only that mail
  // and threw, so the rest of the batch was never mailed, and an address that always failed did this every sweep.
  it('sends every other mail of a sweep when one address fails, and the failed ones on a later sweep, each exactly once', async () => {
    const fixture = await createQueueFixture(quiet, sim);
    const [ticketId] = await createTickets(quiet, fixture, 1, { tier: 'Tier1', prefix: 'Bounce', createdAt: new Date(quiet.deps.now().getTime() - 9 * 3_600_000) });
    const { user: tech, client } = await technician(quiet, fixture, { tierLevel: 'Tier1' });
    const claimed = await client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: 5 })}`);
    expect(claimed.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([ticketId]);

    // The mail server refuses the technician's address until it is fixed; every mail it accepts is recorded.
    const delivered: TMail[] = [];
    let refused = tech.email.toLowerCase();
    const mailer: TMailer = {
      async send(mail) {
        if (mail.to.toLowerCase() === refused) throw new Error('550 mailbox unavailable');
        delivered.push(mail);
      },
      health: async () => 'ok',
    };
    const errors: unknown[] = [];
    const sweeps = createSlaAlertsService({ ...quiet.deps, mailer });
    const ours = () => delivered.filter((mail) => mail.mspId === fixture.msp.id).map((mail) => `${mail.to.toLowerCase()} ${mail.subject.slice(0, 8)}`);

    const first = await sweeps.sweep({ onMailError: (error) => errors.push(error) });
    expect(first).toMatchObject({ failed: 2 });
    expect(errors).toHaveLength(2);
    const admin = fixture.adminUser.email.toLowerCase();
    expect(ours()).toEqual(expect.arrayContaining([`${admin} SLA 100 `, `${admin} SLA 90 %`]));
    expect(ours().some((mail) => mail.startsWith(refused))).toBe(false);
    const othersCount = ours().length;

    // Still refused: tried again, nothing else is sent twice.
    expect(await sweeps.sweep()).toMatchObject({ mails: 0, failed: 2 });
    refused = '';
    expect(await sweeps.sweep()).toMatchObject({ mails: 2, failed: 0 });
    expect(await sweeps.sweep()).toMatchObject({ mails: 0, failed: 0 });
    const all = ours();
    expect(all).toHaveLength(othersCount + 2);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining([`${tech.email.toLowerCase()} SLA 100 `, `${tech.email.toLowerCase()} SLA 90 %`]));
  });

  // Regression (code review): the list and unread count kept the alerts of tickets the technician had finished or handed
  // back, so the badge never cleared.
  it('takes a ticket’s alerts off the technician’s list and unread count once they complete or requeue it', async () => {
    const fixture = await createQueueFixture(quiet, sim);
    const ticketIds = await createTickets(quiet, fixture, 2, { tier: 'Tier1', prefix: 'Done', createdAt: new Date(quiet.deps.now().getTime() - 9 * 3_600_000) });
    const { user: tech, client } = await technician(quiet, fixture, { tierLevel: 'Tier1' });
    const claimed = (await client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: 5 })}`)).json<{ tickets: TQueueTicket[] }>().tickets;
    expect(claimed.map((ticket) => ticket.ticketId).sort()).toEqual([...ticketIds].sort());
    const [completed, requeued] = claimed;
    if (!completed || !requeued) throw new Error('no tickets');
    const ticketsOnList = async () => {
      const list = (await alertsOf(client, fixture)).json<TSlaAlertList>();
      return { tickets: [...new Set(list.alerts.map((alert) => alert.ticketId))].sort(), count: list.alerts.length, unreadCount: list.unreadCount };
    };
    expect(await ticketsOnList()).toEqual({ tickets: [...ticketIds].sort(), count: 8, unreadCount: 8 });

    const done = await client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: completed.ticketId, techId: tech.id })}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(await ticketsOnList()).toEqual({ tickets: [requeued.ticketId], count: 4, unreadCount: 4 });

    const back = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, holdTimeInHours: 0, assignedFlag: 'false' })}`, { ticketId: requeued.ticketId });
    expect(back.statusCode, back.body).toBe(200);
    expect(await ticketsOnList()).toEqual({ tickets: [], count: 0, unreadCount: 0 });
  });
});
