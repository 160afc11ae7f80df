import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { QUEUE_PATHS, type TActivitiesResponse } from '@switchboard/contracts';
import { queueTickets, queueTimerSessions } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { signedInClient } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { createQueueMaintenance } from './queue.maintenance';
import { createQueueFixture, createTickets, moveClockToNineUtc, technician, withQueueFixture, type TQueueFixture } from './queue-fixtures.test';

// Usability (s29): on a weekend or a Monday morning the Dashboards opened on an empty today, and the person pressed
// "Previous day" until work showed up. The activities reads now name the latest earlier day with work in the same scope
// (the technician's own for A-125, the MSP's for A-126), counted in the MSP's time zone, so the view can offer it.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

let t: TTestApp;
let sim: TPsaSimulator;
let fixture: TQueueFixture;

withQueueFixture({}, (ready) => ({ t, sim, fixture } = ready));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const sharedFixture = () => fixture;
const today = () => t.deps.now().toISOString().slice(0, 10);
const timer = (client: TestClient, domain: string, action: string, body: Record<string, unknown>) => client.post(`${QUEUE_PATHS.timerBase}/${domain}/${action}`, body);

async function techDay(client: TestClient, techId: string, date?: string, domain = fixture.msp.customDomain): Promise<TActivitiesResponse> {
  const response = await client.get(`${QUEUE_PATHS.activitiesOfTechnician}?${q({ mspCustomDomain: domain, techId, ...(date === undefined ? {} : { date }) })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TActivitiesResponse>();
}

async function mspDay(client: TestClient, date?: string, domain = fixture.msp.customDomain): Promise<TActivitiesResponse> {
  const response = await client.get(`${QUEUE_PATHS.activities}?${q({ mspCustomDomain: domain, ...(date === undefined ? {} : { date }) })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TActivitiesResponse>();
}

/** A technician of the MSP who picks a new ticket, works on it for `minutes` (timer started, then paused) from now. */
async function worksFor(minutes: number, fixture: TQueueFixture = sharedFixture()) {
  const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Previous day' });
  if (ticketId === undefined) throw new Error('no ticket');
  const tech = await technician(t, fixture, { tierLevel: 'Tier1' });
  t.advanceClock(1_000);
  await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
  const [row] = await t.deps.database.db.select().from(queueTickets).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.psaTicketId, ticketId)));
  if (!row) throw new Error('no queue row');
  const picked = await tech.client.post(`${QUEUE_PATHS.manualPick}?${q({ mspCustomDomain: fixture.msp.customDomain, techId: tech.user.id, ticketQueueEntityId: row.id })}`);
  expect(picked.statusCode, picked.body).toBe(200);
  expect((await timer(tech.client, fixture.msp.customDomain, 'start', { ticketId, techId: tech.user.id })).statusCode).toBe(200);
  t.advanceClock(minutes * 60_000);
  expect((await timer(tech.client, fixture.msp.customDomain, 'pause', { ticketId, techId: tech.user.id })).statusCode).toBe(200);
  return tech;
}

describe('the latest earlier day with work (previousDayWithWork on A-125 and A-126)', () => {
  beforeEach(() => moveClockToNineUtc(t));

  it('names the latest earlier day with work of the same scope, and is absent when there is none', async () => {
    // Day 0: Ann works 30 minutes. Day 1: Bob works 20 minutes. Day 3 (today): nobody has worked yet.
    const day0 = today();
    const ann = await worksFor(30);
    t.advanceClock(DAY_MS);
    const day1 = today();
    const bob = await worksFor(20);
    t.advanceClock(2 * DAY_MS);
    // Signed in afresh: three days on, the fixture's admin session has ended.
    const admin = await signedInClient(t, fixture.adminUser);

    const annToday = await techDay(ann.client, ann.user.id);
    expect(annToday).toMatchObject({ date: today(), activities: [], totals: [] });
    // Ann's own scope: Bob's day 1 is not hers.
    expect(annToday.previousDayWithWork).toBe(day0);
    expect((await techDay(bob.client, bob.user.id)).previousDayWithWork).toBe(day1);
    // The MSP's scope: everyone's work, and only days before the one asked for.
    expect((await mspDay(admin)).previousDayWithWork).toBe(day1);
    expect((await mspDay(admin, day1)).previousDayWithWork).toBe(day0);
    // Nothing earlier: absent, not null.
    const annDay0 = await techDay(ann.client, ann.user.id, day0);
    expect(annDay0.totals).toMatchObject([{ techId: ann.user.id }]);
    expect(annDay0).not.toHaveProperty('previousDayWithWork');
    const newcomer = await technician(t, fixture, { tierLevel: 'Tier1' });
    expect(await techDay(newcomer.client, newcomer.user.id)).not.toHaveProperty('previousDayWithWork');
  });

  it('counts the day in the MSP’s time zone', async () => {
    // 02:00 to 02:15 UTC is the evening before in New York.
    t.advanceClock(17 * HOUR_MS);
    const utcDay = today();
    const newYorkDay = new Date(t.deps.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    const tech = await worksFor(15);
    t.advanceClock(3 * DAY_MS);
    const admin = await signedInClient(t, fixture.adminUser);
    const weights = `/db/api/ticketQueue/weights?${q({ mspCustomDomain: fixture.msp.customDomain })}`;
    const settings = (await admin.get(weights)).json<{ settings: Record<string, unknown> }>().settings;
    try {
      expect((await admin.put(weights, { ...settings, timeZone: 'America/New_York' })).statusCode).toBe(200);
      expect((await techDay(tech.client, tech.user.id)).previousDayWithWork).toBe(newYorkDay);
      expect((await admin.put(weights, { ...settings, timeZone: 'UTC' })).statusCode).toBe(200);
      expect((await techDay(tech.client, tech.user.id)).previousDayWithWork).toBe(utcDay);
    } finally {
      await admin.put(weights, settings);
    }
  });

  // Review s29 #3 read the latest start first: a session begun earlier that ran on longer (confirmed past midnight, or
  // still running) must still count to its end.
  it('counts a session begun before the latest start to its end, and a running one until now', async () => {
    const other = await createQueueFixture(t, sim);
    const day0 = today();
    const ann = await worksFor(30, other);
    t.advanceClock(3 * HOUR_MS);
    await worksFor(20, other);
    const day1 = new Date(t.deps.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    const annSession = and(eq(queueTimerSessions.mspId, other.msp.id), eq(queueTimerSessions.techId, ann.user.id));
    // Ann's session, begun before Bob's, ran on to 10:00 the next day (as a confirmation of a flagged session sets it).
    await t.deps.database.db.update(queueTimerSessions).set({ endedAt: new Date(`${day1}T10:00:00Z`) }).where(annSession);
    t.advanceClock(3 * DAY_MS);
    const admin = await signedInClient(t, other.adminUser);
    expect((await mspDay(admin, undefined, other.msp.customDomain)).previousDayWithWork).toBe(day1);
    expect((await mspDay(admin, day1, other.msp.customDomain)).previousDayWithWork).toBe(day0);
    // Still running: it is work up to now, so yesterday has work.
    await t.deps.database.db.update(queueTimerSessions).set({ endedAt: null }).where(annSession);
    const yesterday = new Date(t.deps.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    expect((await mspDay(admin, undefined, other.msp.customDomain)).previousDayWithWork).toBe(yesterday);
    expect((await techDay(ann.client, ann.user.id, undefined, other.msp.customDomain)).previousDayWithWork).toBe(yesterday);
  });

  it('an MSP without any work has none, and another MSP’s work is not counted', async () => {
    const other = await createQueueFixture(t, sim);
    expect(await mspDay(other.admin, undefined, other.msp.customDomain)).not.toHaveProperty('previousDayWithWork');
    expect(await techDay(other.admin, other.adminUser.id, undefined, other.msp.customDomain)).not.toHaveProperty('previousDayWithWork');
  });
});
