import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DISPATCH_PATHS, type TDispatchBoard, type TQueueTicket, type TSlaAlertList } from '@switchboard/contracts';
import { psaTickets, slaAlerts } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildUser, signedInClient } from '../../../test/factories';
import { withSimulatorApp } from '../../../test/psa-simulator';
import type { TMail, TMailer } from '../../lib/mailer';
import { createQueueFixture, createTickets, technician, type TQueueFixture } from './queue-fixtures.test';
import { SLA_MAIL_LEASE_MS, takeUnsentSlaMails } from './sla-alerts.repository';
import { createSlaAlertsService, SLA_MAIL_SEND_WINDOW_MS } from './sla-alerts.service';

let t: TTestApp;
let sim: TPsaSimulator;

// No sweep loop in this app: each test runs the sweeps it means to.
withSimulatorApp({ app: { config: { slaSweepIntervalMs: 0 } } }, (ready) => ({ t, sim } = ready));

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

/** A ticket 9 hours old (past its 8-hour Tier1 SLA) claimed by a new technician, its alerts listed: four mails wait (90 and 100 %, to them and the admin). */
async function lateTicketWithMails(prefix: string): Promise<{ fixture: TQueueFixture; to: string[] }> {
  const fixture = await createQueueFixture(t, sim);
  const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix, createdAt: new Date(t.deps.now().getTime() - 9 * 3_600_000) });
  const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
  const claimed = await client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: 5 })}`);
  expect(claimed.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([ticketId]);
  const listed = await client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: fixture.msp.customDomain })}`);
  expect(listed.json<TSlaAlertList>().alerts).toHaveLength(4);
  return { fixture, to: [tech.email.toLowerCase(), fixture.adminUser.email.toLowerCase()] };
}

/** An SMTP fake that records every mail it accepts, after `delayMs` (so two sweeps at once overlap), and runs `onSend` first. */
function recordingMailer(options: { delayMs?: number; onSend?: (mail: TMail) => void } = {}): TMailer & { delivered: TMail[] } {
  const delivered: TMail[] = [];
  return {
    delivered,
    async send(mail) {
      options.onSend?.(mail);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      delivered.push(mail);
    },
    health: async () => 'ok',
  };
}

const ofMsp = (delivered: TMail[], fixture: TQueueFixture) => delivered.filter((mail) => mail.mspId === fixture.msp.id).map((mail) => `${mail.to.toLowerCase()} ${mail.subject.slice(0, 8)}`);

describe('SLA alert mails survive a process that dies between taking and sending them (decision 018)', () => {
  // Regression (code review): taking a batch marked it sent, so a process killed (crash, deploy, replica stopped) after
  // taking it and before sending lost those mails for good: no later sweep ever took them again.
  it('sends a batch a dead process took once its lease runs out, exactly once, though two sweeps run at the same time', async () => {
    const { fixture, to } = await lateTicketWithMails('Crash');
    // A process takes the batch and dies before sending any of it.
    const taken = await takeUnsentSlaMails(t.deps.database.db, t.deps.now(), 50);
    expect(taken.filter((mail) => mail.mspId === fixture.msp.id)).toHaveLength(4);

    // While the dead process's lease lasts, another process leaves the mails alone (the taker may still be sending).
    const early = recordingMailer();
    t.advanceClock(SLA_MAIL_LEASE_MS - 60_000);
    await createSlaAlertsService({ ...t.deps, mailer: early }).sweep();
    expect(ofMsp(early.delivered, fixture)).toEqual([]);

    // Past the lease, two replicas sweep at once: each mail goes out once.
    t.advanceClock(2 * 60_000);
    const first = recordingMailer({ delayMs: 20 });
    const second = recordingMailer({ delayMs: 20 });
    await Promise.all([createSlaAlertsService({ ...t.deps, mailer: first }).sweep(), createSlaAlertsService({ ...t.deps, mailer: second }).sweep()]);
    const sent = [...ofMsp(first.delivered, fixture), ...ofMsp(second.delivered, fixture)];
    expect(sent.sort()).toEqual(to.flatMap((address) => [`${address} SLA 100 `, `${address} SLA 90 %`]).sort());

    // Sent is sent: later sweeps, even after another lease, send nothing again.
    t.advanceClock(SLA_MAIL_LEASE_MS + 60_000);
    const later = recordingMailer();
    await createSlaAlertsService({ ...t.deps, mailer: later }).sweep();
    expect(ofMsp(later.delivered, fixture)).toEqual([]);
  });

  it('a sweep whose sending outlasts its send window stops and puts the rest back, so no mail goes out after its lease', async () => {
    const { fixture, to } = await lateTicketWithMails('Slow');
    // Every send of this mail server takes longer than the window (the clock moves on while it answers).
    const slow = recordingMailer({ onSend: () => t.advanceClock(SLA_MAIL_SEND_WINDOW_MS + 1_000) });
    const sweeps = createSlaAlertsService({ ...t.deps, mailer: slow });
    const passes: number[] = [];
    for (let pass = 0; pass < 8 && ofMsp(slow.delivered, fixture).length < 4; pass += 1) passes.push((await sweeps.sweep()).mails);
    // One send per sweep (the next would start past the window); the rest waited for the next sweep, none was lost or doubled.
    expect(passes.every((mails) => mails <= 1)).toBe(true);
    const sent = ofMsp(slow.delivered, fixture);
    expect(sent.sort()).toEqual(to.flatMap((address) => [`${address} SLA 100 `, `${address} SLA 90 %`]).sort());
    expect((await sweeps.sweep()).mails).toBe(0);
  });
});

describe('SLA alerts follow the PSA and reach dispatchers once (decision 018)', () => {
  const next = (client: TestClient, fixture: TQueueFixture, techId: string) =>
    client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId, psaMemberId: '', limit: 5 })}`);
  const alertsOf = async (client: TestClient, fixture: TQueueFixture) => (await client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: fixture.msp.customDomain })}`)).json<TSlaAlertList>();
  const closeCopy = (fixture: TQueueFixture, ticketId: number) =>
    t.deps.database.db.update(psaTickets).set({ isClosed: true }).where(and(eq(psaTickets.mspId, fixture.msp.id), eq(psaTickets.externalId, String(ticketId))));

  // Regression (code review): the sweep looked only at the queue's state, so a ticket closed in the PSA (before the
  // upkeep closed its queue row) still raised alerts and mailed its technician and every dispatcher.
  it('raises no alert and sends no mail for a ticket closed in the PSA, and takes earlier alerts of it off the list', async () => {
    const fixture = await createQueueFixture(t, sim);
    const [fresh] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'ClosedFresh' });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await next(client, fixture, tech.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([fresh]);
    await closeCopy(fixture, fresh ?? 0);
    t.advanceClock(9 * 3_600_000); // past its 8-hour SLA
    const mailer = recordingMailer();
    await createSlaAlertsService({ ...t.deps, mailer }).sweep();
    expect(ofMsp(mailer.delivered, fixture)).toEqual([]);
    expect(await alertsOf(client, fixture)).toEqual({ alerts: [], unreadCount: 0 });
    expect(await t.deps.database.db.select().from(slaAlerts).where(eq(slaAlerts.mspId, fixture.msp.id))).toEqual([]);

    // Alerted while open, then closed in the PSA: off the list and the unread count.
    const [late] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'ClosedLate', createdAt: new Date(t.deps.now().getTime() - 9 * 3_600_000) });
    expect((await next(client, fixture, tech.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toContain(late);
    expect((await alertsOf(client, fixture)).unreadCount).toBe(4);
    await closeCopy(fixture, late ?? 0);
    expect(await alertsOf(client, fixture)).toEqual({ alerts: [], unreadCount: 0 });
    // Its 90 % and 100 % mails, queued while it was open, are not sent once it is closed (they went out all the same),
    // and stay settled: a later sweep sends none of them either.
    const afterClose = recordingMailer();
    await createSlaAlertsService({ ...t.deps, mailer: afterClose }).sweep();
    t.advanceClock(SLA_MAIL_LEASE_MS + 60_000);
    await createSlaAlertsService({ ...t.deps, mailer: afterClose }).sweep();
    expect(ofMsp(afterClose.delivered, fixture)).toEqual([]);
  });

  // Regression (code review): the alert key holds the technician, so each reassignment of a breached ticket mailed every
  // dispatcher its 90 % and 100 % again.
  it('mails each dispatcher once per ticket and threshold however often the ticket changes technician; each assignee gets theirs', async () => {
    const fixture = await createQueueFixture(t, sim);
    const dispatcher = await buildUser(t, fixture.msp, { role: 'Admin', tierLevel: 'Tier3', password: null });
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Reassigned', createdAt: new Date(t.deps.now().getTime() - 9 * 3_600_000) });
    const first = await technician(t, fixture, { tierLevel: 'Tier1' });
    const second = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = (await next(first.client, fixture, first.user.id)).json<{ tickets: TQueueTicket[] }>().tickets;
    expect(ticket?.ticketId).toBe(ticketId);
    const mailer = recordingMailer();
    const sweeps = createSlaAlertsService({ ...t.deps, mailer });
    await sweeps.sweep();

    const dispatch = (path: string, body: Record<string, unknown>) => fixture.admin.post(`${path}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, body);
    expect((await dispatch(DISPATCH_PATHS.unassign, { id: ticket?.id })).statusCode).toBe(200);
    expect((await dispatch(DISPATCH_PATHS.assign, { id: ticket?.id, techId: second.user.id })).statusCode).toBe(200);
    await sweeps.sweep();
    expect((await dispatch(DISPATCH_PATHS.unassign, { id: ticket?.id })).statusCode).toBe(200);
    expect((await dispatch(DISPATCH_PATHS.assign, { id: ticket?.id, techId: first.user.id })).statusCode).toBe(200);
    await sweeps.sweep();

    const count = (email: string) => ofMsp(mailer.delivered, fixture).filter((mail) => mail.startsWith(`${email.toLowerCase()} `)).sort();
    for (const email of [fixture.adminUser.email, dispatcher.email]) expect(count(email)).toEqual([`${email.toLowerCase()} SLA 100 `, `${email.toLowerCase()} SLA 90 %`]);
    expect(count(first.user.email)).toEqual([`${first.user.email.toLowerCase()} SLA 100 `, `${first.user.email.toLowerCase()} SLA 90 %`]);
    expect(count(second.user.email)).toEqual([`${second.user.email.toLowerCase()} SLA 100 `, `${second.user.email.toLowerCase()} SLA 90 %`]);
  });
});

describe('SLA alerts and mails follow who holds the ticket (review s28)', () => {
  const next = (client: TestClient, fixture: TQueueFixture, techId: string) =>
    client.get(`/db/api/ticketQueue/nextTickets?${q({ mspCustomDomain: fixture.msp.customDomain, techId, psaMemberId: '', limit: 5 })}`);
  const alertsOf = async (client: TestClient, fixture: TQueueFixture) => (await client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: fixture.msp.customDomain })}`)).json<TSlaAlertList>();
  const namedTechnician = async (fixture: TQueueFixture, firstName: string, lastName: string) => {
    const user = await buildUser(t, fixture.msp, { role: 'Technician', tierLevel: 'Tier1', password: null, firstName, lastName });
    return { user, client: await signedInClient(t, user) };
  };
  const textsTo = (delivered: TMail[], fixture: TQueueFixture, email: string) =>
    delivered.filter((mail) => mail.mspId === fixture.msp.id && mail.to.toLowerCase() === email.toLowerCase()).map((mail) => mail.text);

  // Regression (review s28 #1): a ticket requeued "kept for me" (queued, reserved, its technician known) was left out of
  // the sweep, the alert list and the unread count, so it breached its SLA and nobody was told.
  it('alerts and mails on a ticket kept for its technician by a requeue with a hold', async () => {
    const fixture = await createQueueFixture(t, sim);
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'KeptForMe' });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const [ticket] = (await next(client, fixture, tech.id)).json<{ tickets: TQueueTicket[] }>().tickets;
    expect(ticket?.ticketId).toBe(ticketId);
    const requeued = await client.post(`/db/api/ticketQueue/requeueticket?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, holdTimeInHours: 4, assignedFlag: 'true' })}`, ticket);
    expect(requeued.statusCode).toBe(200);
    expect(requeued.json<{ ticket: TQueueTicket }>().ticket.assignedTechId).toBe(tech.id);

    t.advanceClock(9 * 3_600_000); // past its 8-hour SLA, the ticket still kept for them
    const mailer = recordingMailer();
    expect((await createSlaAlertsService({ ...t.deps, mailer }).sweep()).alerts).toBeGreaterThanOrEqual(4);
    const to = [tech.email.toLowerCase(), fixture.adminUser.email.toLowerCase()];
    expect(ofMsp(mailer.delivered, fixture).sort()).toEqual(to.flatMap((address) => [`${address} SLA 100 `, `${address} SLA 90 %`]).sort());
    const listed = await alertsOf(client, fixture);
    expect(listed.alerts.map((alert) => [alert.ticketId, alert.threshold])).toEqual([100, 90, 75, 50].map((threshold) => [ticketId, threshold]));
    expect(listed.unreadCount).toBe(4);
  });

  // Regression (review s28 #2): a mail queued by the 90 % alert was still sent after the ticket was completed, or after
  // its technician handed it back (naming them to the dispatchers); only a closed ticket settled its mails.
  it('sends no mail for a ticket completed since its alert, and none naming a technician who handed it back', async () => {
    const fixture = await createQueueFixture(t, sim);
    const created = new Date(t.deps.now().getTime() - 9 * 3_600_000);
    const [done, handedBack] = await createTickets(t, fixture, 2, { tier: 'Tier1', prefix: 'LeftSince', createdAt: created });
    const first = await namedTechnician(fixture, 'Ada', 'Handedback');
    expect((await next(first.client, fixture, first.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.ticketId).sort()).toEqual([done, handedBack].sort());
    // Listing raises their 50–100 % alerts; the 90 and 100 % mails (to Ada and the admin) now wait for the sweep.
    expect((await alertsOf(first.client, fixture)).alerts).toHaveLength(8);
    const ticketUrl = (action: string, ticketId: number | undefined) => `/db/api/ticketQueue/${action}?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticketId ?? 0, techId: first.user.id })}`;
    expect((await first.client.post(ticketUrl('completeticket', done))).statusCode).toBe(200);
    expect((await first.client.post(ticketUrl('rejectTicket', handedBack), { reason: 'Needs a site visit' })).statusCode).toBe(200);
    const mailer = recordingMailer();
    const sweeps = createSlaAlertsService({ ...t.deps, mailer });
    await sweeps.sweep();
    expect(ofMsp(mailer.delivered, fixture)).toEqual([]);

    // Whoever takes the handed-back ticket next is mailed, and the dispatchers are told once, naming them.
    const second = await namedTechnician(fixture, 'Bo', 'Taker');
    expect((await next(second.client, fixture, second.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.ticketId)).toEqual([handedBack]);
    await sweeps.sweep();
    expect(ofMsp(mailer.delivered, fixture).sort()).toEqual(
      [second.user.email.toLowerCase(), fixture.adminUser.email.toLowerCase()].flatMap((address) => [`${address} SLA 100 `, `${address} SLA 90 %`]).sort(),
    );
    const toAdmin = textsTo(mailer.delivered, fixture, fixture.adminUser.email);
    expect(toAdmin.map((text) => text.includes(`#${handedBack} `) && text.includes('(with Bo Taker)'))).toEqual([true, true]);
    await sweeps.sweep();
    expect(ofMsp(mailer.delivered, fixture)).toHaveLength(4);
  });

  // Regression (review s28 fix #1): a ticket that changed hands between two sweeps never reached the dispatchers. When
  // the next holder's alert was raised, the dispatcher's unsent mail of the first holder's alert still existed and counted
  // as "already told", then the same sweep dropped that mail as moot; the dispatcher got neither.
  it('mails the dispatchers naming the next holder when the ticket changes hands before any sweep', async () => {
    const fixture = await createQueueFixture(t, sim);
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'BetweenSweeps', createdAt: new Date(t.deps.now().getTime() - 9 * 3_600_000) });
    const first = await namedTechnician(fixture, 'Ann', 'Firsthand');
    expect((await next(first.client, fixture, first.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.ticketId)).toEqual([ticketId]);
    // Ann's list raises her alerts and queues her 90 and 100 % mails and the admin's; no sweep runs yet.
    expect((await alertsOf(first.client, fixture)).alerts).toHaveLength(4);
    const handBack = `/db/api/ticketQueue/rejectTicket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId: ticketId ?? 0, techId: first.user.id })}`;
    expect((await first.client.post(handBack, { reason: 'Needs a site visit' })).statusCode).toBe(200);
    const second = await namedTechnician(fixture, 'Bo', 'Nexthand');
    expect((await next(second.client, fixture, second.user.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.ticketId)).toEqual([ticketId]);

    const mailer = recordingMailer();
    const sweeps = createSlaAlertsService({ ...t.deps, mailer });
    await sweeps.sweep();
    await sweeps.sweep();
    expect(ofMsp(mailer.delivered, fixture).sort()).toEqual(
      [second.user.email.toLowerCase(), fixture.adminUser.email.toLowerCase()].flatMap((address) => [`${address} SLA 100 `, `${address} SLA 90 %`]).sort(),
    );
    const toAdmin = textsTo(mailer.delivered, fixture, fixture.adminUser.email);
    expect(toAdmin.map((text) => text.includes(`#${ticketId} `) && text.includes('(with Bo Nexthand)'))).toEqual([true, true]);
  });

  // Regression (review s28 #3): the mail gave the due time in UTC, while the MSP's screens use its own time zone.
  it('states the due time in the MSP’s time zone and names it', async () => {
    const fixture = await createQueueFixture(t, sim);
    const weights = `/db/api/ticketQueue/weights?${q({ mspCustomDomain: fixture.msp.customDomain })}`;
    const settings = (await fixture.admin.get(weights)).json<{ settings: Record<string, unknown> }>().settings;
    expect((await fixture.admin.put(weights, { ...settings, timeZone: 'America/New_York' })).statusCode).toBe(200);
    // Created 05:00 UTC on 1 July 2026 with an 8-hour SLA: due 13:00 UTC, 09:00 in New York (UTC−4 in summer).
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'NewYork', createdAt: new Date('2026-07-01T05:00:00.000Z') });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect((await next(client, fixture, tech.id)).json<{ tickets: TQueueTicket[] }>().tickets.map((each) => each.ticketId)).toEqual([ticketId]);
    const mailer = recordingMailer();
    await createSlaAlertsService({ ...t.deps, mailer }).sweep();
    const texts = textsTo(mailer.delivered, fixture, tech.email);
    expect(texts).toHaveLength(2);
    for (const text of texts) expect(text).toContain('It is due 1 Jul 2026 09:00 (America/New_York).');
  });
});

describe('the alert list keeps unread alerts within its limit (review s28, SLA panel)', () => {
  const alertsOf = async (client: TestClient, fixture: TQueueFixture) => (await client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: fixture.msp.customDomain })}`)).json<TSlaAlertList>();
  /** The dispatcher gives `techId` every queued ticket whose title starts with `prefix` (the board lists them all: fewer than its limit). */
  async function assignQueued(fixture: TQueueFixture, techId: string, prefix: string): Promise<number> {
    const board = (await fixture.admin.get(`${DISPATCH_PATHS.board}?${q({ mspCustomDomain: fixture.msp.customDomain })}`)).json<TDispatchBoard>();
    const tickets = board.unassigned.filter((ticket) => ticket.title.startsWith(prefix));
    for (const ticket of tickets) {
      expect((await fixture.admin.post(`${DISPATCH_PATHS.assign}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { id: ticket.id, techId })).statusCode).toBe(200);
    }
    return tickets.length;
  }

  // Regression (review s28, SLA panel): the list held the newest 50 alerts, read or not, so a technician whose newest 50
  // were read got none of their older unread ones: the panel stayed hidden and "Mark all read" could not reach them.
  it('lists the 10 older unread alerts when the newest 50 of 60 are read', async () => {
    const fixture = await createQueueFixture(t, sim);
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const hoursAgo = (hours: number) => new Date(t.deps.now().getTime() - hours * 3_600_000);
    // Past their 8-hour SLA (4 alerts each), or at 81 % of it (50 and 75 %): 2 + 1 older tickets, then 12 + 1 newer.
    await createTickets(t, fixture, 2, { tier: 'Tier1', prefix: 'Older late', createdAt: hoursAgo(9) });
    await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Older half', createdAt: hoursAgo(6.5) });
    await createTickets(t, fixture, 12, { tier: 'Tier1', prefix: 'Newer late', createdAt: hoursAgo(9) });
    await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Newer half', createdAt: hoursAgo(6.5) });

    // The older tickets reach the technician first: 10 alerts.
    expect(await assignQueued(fixture, tech.id, 'Older')).toBe(3);
    const older = await alertsOf(client, fixture);
    expect(older.alerts).toHaveLength(10);
    const olderIds = older.alerts.map((alert) => alert.id);

    // A minute later the newer ones: 50 newer alerts, which the technician reads.
    t.advanceClock(60_000);
    expect(await assignQueued(fixture, tech.id, 'Newer')).toBe(13);
    const all = await alertsOf(client, fixture);
    expect(all.unreadCount).toBe(60);
    const newerIds = all.alerts.map((alert) => alert.id).filter((id) => !olderIds.includes(id));
    expect(newerIds).toHaveLength(50);
    const read = await client.post(`${DISPATCH_PATHS.slaAlertsRead}?${q({ mspCustomDomain: fixture.msp.customDomain })}`, { ids: newerIds });
    expect(read.statusCode).toBe(200);

    // 60 alerts, the newest 50 read: the list (50 long) holds all 10 unread ones and the newest read ones, newest first;
    // the answer to the read (what the panel shows next) too.
    for (const list of [read.json<TSlaAlertList>(), await alertsOf(client, fixture)]) {
      expect(list.unreadCount).toBe(10);
      expect(list.alerts).toHaveLength(50);
      expect(list.alerts.filter((alert) => !alert.isRead).map((alert) => alert.id).sort()).toEqual([...olderIds].sort());
      const times = list.alerts.map((alert) => alert.createdAt);
      expect(times).toEqual([...times].sort().reverse());
    }
  });
});
