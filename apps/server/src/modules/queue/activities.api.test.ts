import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { QUEUE_PATHS, type TActivitiesResponse, type TTimerSessionsResponse } from '@switchboard/contracts';
import { queueEvents, queueTickets } from '@switchboard/db';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { createQueueMaintenance } from './queue.maintenance';
import { createTickets, moveClockToNineUtc, technician, withQueueFixture, type TQueueFixture } from './queue-fixtures.test';

// The activities reads tell what happened on a past day; what happens to the ticket later must not
// rewrite it, and a timer nobody stopped is not a day's work until its technician confirms it (decision 043).

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

let t: TTestApp;
let fixture: TQueueFixture;

withQueueFixture({}, (ready) => ({ t, fixture } = ready));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const domain = () => fixture.msp.customDomain;
const today = () => t.deps.now().toISOString().slice(0, 10);
const timer = (client: TestClient, action: string, body: Record<string, unknown>) => client.post(`${QUEUE_PATHS.timerBase}/${domain()}/${action}`, body);

async function dayOf(client: TestClient, techId: string, date: string): Promise<TActivitiesResponse> {
  const response = await client.get(`${QUEUE_PATHS.activitiesOfTechnician}?${q({ mspCustomDomain: domain(), techId, date })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TActivitiesResponse>();
}

/** A full upkeep pass, as a replica that has not run one yet does. */
async function runUpkeep(): Promise<void> {
  t.advanceClock(1_000);
  await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
}

/** The sync brings the ticket's copy as the PSA shows it now. */
async function syncCopy(ticketId: number, isClosed: boolean): Promise<void> {
  await upsertTicketCopies(
    t.deps.database.db,
    fixture.msp.id,
    'CONNECTWISE',
    [
      {
        externalId: ticketId,
        summary: isClosed ? 'Closed in the PSA' : 'Reopened in the PSA',
        board: { id: fixture.boardId, name: 'Board' },
        type: { id: fixture.typeId, name: 'Type' },
        subtype: { id: fixture.subtypes.tier1, name: 'Tier1' },
        priority: { id: fixture.priorityId, name: 'Priority' },
        company: { id: fixture.companyId, name: 'Company' },
        isClosed,
        ...(isClosed ? { closedAt: t.deps.now() } : {}),
      },
    ],
    t.deps.now(),
  );
}

async function queueRowOf(ticketId: number) {
  const [row] = await t.deps.database.db.select().from(queueTickets).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.psaTicketId, ticketId)));
  if (!row) throw new Error('no queue row');
  return row;
}

/** A technician working on a ticket created at `createdAt` (now by default; its 8-hour SLA runs from then), picked, timer started. */
async function workingOnNewTicket(createdAt: Date = t.deps.now()) {
  const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Activities', createdAt });
  if (ticketId === undefined) throw new Error('no ticket');
  const tech = await technician(t, fixture, { tierLevel: 'Tier1' });
  await runUpkeep();
  const picked = await tech.client.post(`${QUEUE_PATHS.manualPick}?${q({ mspCustomDomain: domain(), techId: tech.user.id, ticketQueueEntityId: (await queueRowOf(ticketId)).id })}`);
  expect(picked.statusCode, picked.body).toBe(200);
  expect((await timer(tech.client, 'start', { ticketId, techId: tech.user.id })).statusCode).toBe(200);
  return { ticketId, ...tech };
}

const completeTicket = (client: TestClient, ticketId: number, techId: string) => client.post(`${QUEUE_PATHS.completeTicket}?${q({ mspCustomDomain: domain(), ticketId, techId })}`);

describe('a completion stays on its day (A-125, A-126)', () => {
  beforeEach(() => moveClockToNineUtc(t));

  // Regression (review): the reopen clears completed_at and assigned_tech_id, and the reads took completions from those
  // columns, so a ticket closed and reopened in the PSA the next day erased the technician's completion of the day before.
  it('a ticket completed on day 1, closed and reopened in the PSA on day 2, still counts on day 1 with its SLA as it was', async () => {
    // Created two days ago with an 8-hour SLA: missed when completed.
    const { ticketId, user, client } = await workingOnNewTicket(new Date(t.deps.now().getTime() - 2 * DAY_MS));
    t.advanceClock(20 * 60_000);
    expect((await completeTicket(client, ticketId, user.id)).statusCode).toBe(200);
    const day1 = today();
    const before = await dayOf(client, user.id, day1);
    expect(before.totals).toMatchObject([{ techId: user.id, ticketsCompleted: 1, slaMet: 0 }]);
    expect(before.activities).toMatchObject([{ ticketId, completed: true, slaMet: false }]);

    await syncCopy(ticketId, true);
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'closed' });
    t.advanceClock(DAY_MS);
    await syncCopy(ticketId, false);
    await runUpkeep();
    // Reopened: queued for anyone, its completion and technician cleared, its SLA counted from the copy read now.
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'queued', completedAt: null, assignedTechId: null });

    const after = await dayOf(client, user.id, day1);
    expect(after.totals).toMatchObject([{ techId: user.id, ticketsCompleted: 1, slaMet: 0 }]);
    expect(after.totals[0]?.totalWorkMinutes).toBeCloseTo(20, 0);
    expect(after.activities).toMatchObject([{ ticketId, completed: true, completedAt: before.activities[0]?.completedAt, slaMet: false }]);
    const everyone = await fixture.admin.get(`${QUEUE_PATHS.activities}?${q({ mspCustomDomain: domain(), date: day1 })}`);
    expect(everyone.json<TActivitiesResponse>().totals.find((total) => total.techId === user.id)).toMatchObject({ ticketsCompleted: 1, slaMet: 0 });
    // Day 2, when it was reopened, has no completion of it.
    expect((await dayOf(client, user.id, today())).totals).toEqual([]);
  });

  it('a completion marked incomplete no longer counts, also when marked so the next day; completed again, it counts once', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(10 * 60_000);
    expect((await completeTicket(client, ticketId, user.id)).statusCode).toBe(200);
    const day1 = today();
    t.advanceClock(DAY_MS);
    const incomplete = await client.post(`${QUEUE_PATHS.markIncomplete}?${q({ mspCustomDomain: domain(), ticketId, techId: user.id })}`);
    expect(incomplete.statusCode, incomplete.body).toBe(200);
    expect((await dayOf(client, user.id, day1)).activities).toMatchObject([{ ticketId, completed: false, completedAt: null, slaMet: null }]);
    expect((await dayOf(client, user.id, day1)).totals).toMatchObject([{ ticketsCompleted: 0 }]);

    t.advanceClock(60_000);
    expect((await completeTicket(client, ticketId, user.id)).statusCode).toBe(200);
    expect((await dayOf(client, user.id, today())).totals).toMatchObject([{ techId: user.id, ticketsCompleted: 1 }]);
    expect((await dayOf(client, user.id, day1)).totals).toMatchObject([{ ticketsCompleted: 0 }]);
  });

  it('a completion recorded before completions kept their SLA is measured against the ticket’s current SLA', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(10 * 60_000);
    expect((await completeTicket(client, ticketId, user.id)).statusCode).toBe(200);
    const row = await queueRowOf(ticketId);
    const eventsOfTicket = and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.queueTicketId, row.id), eq(queueEvents.kind, 'completed'));
    expect((await t.deps.database.db.select().from(queueEvents).where(eventsOfTicket))[0]?.details).toEqual({ slaDueAt: row.slaDueAt?.toISOString() });
    // As an event written before the change: no SLA kept; the ticket's SLA now ended before the completion.
    await t.deps.database.db.update(queueEvents).set({ details: {} }).where(eventsOfTicket);
    await t.deps.database.db.update(queueTickets).set({ slaDueAt: new Date(t.deps.now().getTime() - HOUR_MS) }).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.id, row.id)));
    expect((await dayOf(client, user.id, today())).activities).toMatchObject([{ ticketId, completed: true, slaMet: false }]);
  });

  it('a ticket closed by its technician without a completion first (A-113) counts as their completion', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(15 * 60_000);
    const closed = await client.post(`${QUEUE_PATHS.closeTicket}?${q({ mspCustomDomain: domain(), ticketId })}`);
    expect(closed.statusCode, closed.body).toBe(200);
    const day = await dayOf(client, user.id, today());
    expect(day.totals).toMatchObject([{ techId: user.id, ticketsCompleted: 1, slaMet: 1 }]);
    expect(day.activities).toMatchObject([{ ticketId, completed: true, slaMet: true }]);
  });
});

describe('time awaiting confirmation (decision 043) is not counted as work', () => {
  beforeEach(() => moveClockToNineUtc(t));

  // Regression (review): a timer left running counted as 1,440 minutes worked on every later day.
  it('a timer left running for 48 hours: the day in between shows no minutes worked, its 1,440 minutes await confirmation', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    const day0 = today();
    const startedAt = t.deps.now().getTime();
    t.advanceClock(DAY_MS);
    const day1 = today();
    t.advanceClock(DAY_MS);

    const middle = await dayOf(client, user.id, day1);
    expect(middle.totals).toMatchObject([{ techId: user.id, totalWorkMinutes: 0, unconfirmedMinutes: 1440 }]);
    expect(middle.activities).toMatchObject([{ ticketId, totalWorkMinutes: 0, unconfirmedMinutes: 1440 }]);
    const first = await dayOf(client, user.id, day0);
    expect(first.totals[0]?.totalWorkMinutes).toBe(0);
    expect(first.totals[0]?.unconfirmedMinutes).toBeCloseTo(15 * 60, 0);

    // The technician confirms it with its real end, 8 hours after the start: day 0 has 8 hours of work, day 1 none.
    const [running] = (await client.get(`${QUEUE_PATHS.timerBase}/${domain()}/${ticketId}/${user.id}`)).json<TTimerSessionsResponse>().sessions;
    const confirmed = await timer(client, 'confirm', { sessionId: running?.id, techId: user.id, endTime: new Date(startedAt + 8 * HOUR_MS).toISOString() });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await dayOf(client, user.id, day0)).totals).toMatchObject([{ totalWorkMinutes: 480, unconfirmedMinutes: 0 }]);
    expect((await dayOf(client, user.id, day1)).totals).toEqual([]);
  });

  it('a session ended past midnight and not yet confirmed waits apart; unflagged time counts as work', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(30 * 60_000);
    expect((await timer(client, 'pause', { ticketId, techId: user.id })).statusCode).toBe(200);
    const day = today();
    // Resumed at 23:40, paused at 00:20: flagged for crossing midnight.
    t.advanceClock(14 * HOUR_MS + 10 * 60_000);
    expect((await timer(client, 'resume', { ticketId, techId: user.id })).statusCode).toBe(200);
    t.advanceClock(40 * 60_000);
    expect((await timer(client, 'pause', { ticketId, techId: user.id })).statusCode).toBe(200);
    const totals = (await dayOf(client, user.id, day)).totals[0];
    expect(totals?.totalWorkMinutes).toBeCloseTo(30, 0);
    expect(totals?.unconfirmedMinutes).toBeCloseTo(20, 0);
  });
});
