import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, ne } from 'drizzle-orm';
import { QUEUE_PATHS, type TActivitiesResponse } from '@switchboard/contracts';
import { psaOutbox, queueEvents, queueTickets, queueTimers, queueTimerSessions, users } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { signedInClient } from '../../test/factories';
import type { TestClient, TTestApp } from '../../test/test-app';
import { withSimulatorApp } from '../../test/psa-simulator';
import { createQueueMaintenance } from '../modules/queue/queue.maintenance';
import { copyDemoTickets } from './demo-tickets';
import { ensureDemoOpenTickets } from './demo-open-tickets';
import { seedDemoTeam } from './demo-team';
import { DEMO_WORK_DAYS, seedDemoWorkHistory } from './demo-work-history';
import { DEMO_MSP, seedDemoMsp } from './seed-demo';
import { seedDemoJarvis } from './seed-demo-jarvis';

// Bug: on a first `npm start` the Dashboards showed 0 minutes, 0 completed and no SLA for every day, because the demo
// history was ticket copies only and the Dashboards count queue work (timer sessions and `completed` queue events).

// Wednesday 25 November 2026, 16:00 UTC: yesterday (Tuesday) is a working day, Sunday the 22nd is not, and the window
// of ten working days reaches back into the demo history's last closing days (it ends on 18 November).
const WEDNESDAY = Date.parse('2026-11-25T16:00:00.000Z');
const offset = WEDNESDAY - Date.now();

let t: TTestApp;
let sim: TPsaSimulator;
let mspId: string;
let admin: TestClient;

withSimulatorApp({ app: { now: () => new Date(Date.now() + offset) } }, (ready) => ({ t, sim } = ready));
beforeAll(async () => {
  mspId = (await seedDemoMsp(t.deps, { simulatorUrl: sim.url })).mspId;
  await seedDemoJarvis(t.deps, mspId);
  await seedDemoTeam(t.deps, mspId);
  await ensureDemoOpenTickets(t.deps, mspId);
  await copyDemoTickets(t.deps, mspId);
  const [user] = await t.deps.database.db.select().from(users).where(and(eq(users.mspId, mspId), eq(users.email, 'samuel.whitaker@northwind-it.example')));
  if (!user) throw new Error('demo admin missing');
  admin = await signedInClient(t, { id: user.id, mspId, email: user.email, password: '', kind: 'technician', roleId: user.roleId });
}, 180_000);

async function dayOf(date: string): Promise<TActivitiesResponse> {
  const response = await admin.get(`${QUEUE_PATHS.activities}?mspCustomDomain=${DEMO_MSP.customDomain}&date=${date}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TActivitiesResponse>();
}

async function tally() {
  const db = t.deps.database.db;
  const of = async (table: typeof queueTickets | typeof queueEvents | typeof queueTimers | typeof queueTimerSessions | typeof psaOutbox) =>
    (await db.select({ value: count() }).from(table).where(eq(table.mspId, mspId)))[0]?.value ?? 0;
  return { tickets: await of(queueTickets), events: await of(queueEvents), timers: await of(queueTimers), sessions: await of(queueTimerSessions), outbox: await of(psaOutbox) };
}

const openQueueRows = () =>
  t.deps.database.db
    .select()
    .from(queueTickets)
    .where(and(eq(queueTickets.mspId, mspId), ne(queueTickets.state, 'closed')))
    .orderBy(queueTickets.id);

describe("the demo's Dashboards show past work (first-run review: all zeros)", () => {
  it('gives the demo technicians ten working days of queue work: minutes, completions and SLA, once, nothing sent to the PSA', async () => {
    // The queue hands out the open tickets before the history is written (the app's upkeep on start).
    await createQueueMaintenance(t.deps).maintain(mspId, true);
    const openBefore = await openQueueRows();
    expect(openBefore.length).toBeGreaterThan(0);
    const before = await tally();
    expect((await dayOf('2026-11-24')).totals).toEqual([]);

    const seeded = await seedDemoWorkHistory(t.deps, mspId);
    expect(seeded.days).toBe(DEMO_WORK_DAYS + 1);
    expect(seeded.tickets).toBeGreaterThan(DEMO_WORK_DAYS * 3);

    const yesterday = await dayOf('2026-11-24');
    const working = yesterday.totals.filter((total) => total.totalWorkMinutes > 0 && total.ticketsCompleted > 0);
    expect(working.length, JSON.stringify(yesterday.totals)).toBeGreaterThanOrEqual(2);
    expect(yesterday.totals.reduce((sum, total) => sum + total.slaMet, 0)).toBeGreaterThan(0);
    // Nothing of it waits for confirmation: every session ended the same day, none flagged.
    expect(yesterday.totals.every((total) => total.unconfirmedMinutes === 0)).toBe(true);
    expect(yesterday.activities.every((activity) => activity.sessions.every((session) => session.flag === null && session.endTime !== null))).toBe(true);

    // Ten working days back, and today up to now; not the weekend; some completions met the SLA and a few missed it.
    const days = ['2026-11-11', '2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23', '2026-11-24', '2026-11-25'];
    const activities = (await Promise.all(days.map(dayOf))).flatMap((day) => day.activities);
    expect(new Set(activities.map((activity) => activity.techId)).size).toBe(3);
    for (const day of days) expect((await dayOf(day)).totals.length, day).toBeGreaterThan(0);
    expect((await dayOf('2026-11-22')).totals).toEqual([]);
    expect((await dayOf('2026-11-10')).totals).toEqual([]);
    const met = activities.filter((activity) => activity.slaMet === true).length;
    const missed = activities.filter((activity) => activity.slaMet === false).length;
    expect(missed).toBeGreaterThan(0);
    expect(met).toBeGreaterThan(missed * 3);
    // Today's work ended before now.
    expect(activities.every((activity) => activity.completedAt !== null && Date.parse(activity.completedAt) <= WEDNESDAY + 60_000)).toBe(true);

    // Closed history only: the open tickets' queue rows are as they were, and no PSA write was queued.
    expect(await openQueueRows()).toEqual(openBefore);
    const after = await tally();
    expect(after.outbox).toBe(before.outbox);
    expect(after.tickets - before.tickets).toBe(seeded.tickets);

    // A second start adds nothing, and the queue's upkeep leaves the history closed as it was.
    expect(await seedDemoWorkHistory(t.deps, mspId)).toEqual({ days: 0, tickets: 0 });
    await createQueueMaintenance(t.deps).maintain(mspId, true);
    expect(await tally()).toEqual(after);
    expect(await dayOf('2026-11-24')).toEqual(yesterday);
  });
});
