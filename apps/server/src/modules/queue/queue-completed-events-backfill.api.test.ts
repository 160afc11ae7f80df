import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { QUEUE_PATHS, type TActivitiesResponse } from '@switchboard/contracts';
import { MIGRATIONS_FOLDER, queueEvents, queueTickets } from '@switchboard/db';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { createQueueMaintenance } from './queue.maintenance';
import { createTickets, moveClockToNineUtc, technician, withQueueFixture, type TQueueFixture } from './queue-fixtures.test';

// Regression (review s28 fix #2): the activities reads count completions from the 'completed' queue events since
// 3931dd5, but a ticket closed by its technician without a completion first before that commit set completed_at
// and wrote no 'completed' event, so the Dashboards lost those completions. Migration 0034 writes the missing events.

const DAY_MS = 86_400_000;
const MIGRATION = '0034_queue_completed_events_backfill.sql';

let t: TTestApp;
let fixture: TQueueFixture;

withQueueFixture({}, (ready) => ({ t, fixture } = ready));
beforeEach(() => moveClockToNineUtc(t));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const domain = () => fixture.msp.customDomain;
const today = () => t.deps.now().toISOString().slice(0, 10);

/** Runs migration 0034's SQL, statement by statement, as the migrator does. */
async function runMigration(): Promise<void> {
  const text = readFileSync(join(MIGRATIONS_FOLDER, MIGRATION), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) await t.deps.database.db.execute(sql.raw(statement));
}

async function dayOf(client: TestClient, techId: string, date: string): Promise<TActivitiesResponse> {
  const response = await client.get(`${QUEUE_PATHS.activitiesOfTechnician}?${q({ mspCustomDomain: domain(), techId, date })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TActivitiesResponse>();
}

async function queueRowOf(ticketId: number) {
  const [row] = await t.deps.database.db.select().from(queueTickets).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.psaTicketId, ticketId)));
  if (!row) throw new Error('no queue row');
  return row;
}

const eventsOf = async (queueTicketId: string, kind: 'completed' | 'incomplete' | 'closed') =>
  t.deps.database.db.select().from(queueEvents).where(and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.queueTicketId, queueTicketId), eq(queueEvents.kind, kind)));

/** A full upkeep pass, which queues the new ticket copies. */
async function runUpkeep(): Promise<void> {
  t.advanceClock(1_000);
  await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
}

/** A technician working on a new Tier1 ticket (8-hour SLA from now), picked and timer started. */
async function workingOnNewTicket() {
  const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Backfill', createdAt: t.deps.now() });
  if (ticketId === undefined) throw new Error('no ticket');
  const tech = await technician(t, fixture, { tierLevel: 'Tier1' });
  await runUpkeep();
  const picked = await tech.client.post(`${QUEUE_PATHS.manualPick}?${q({ mspCustomDomain: domain(), techId: tech.user.id, ticketQueueEntityId: (await queueRowOf(ticketId)).id })}`);
  expect(picked.statusCode, picked.body).toBe(200);
  expect((await tech.client.post(`${QUEUE_PATHS.timerBase}/${domain()}/start`, { ticketId, techId: tech.user.id })).statusCode).toBe(200);
  return { ticketId, ...tech };
}

/** Closes the ticket and leaves it as a close before 3931dd5 did: completed_at set, a 'closed' event, no 'completed' one written by the close. */
async function closeTheOldWay(client: TestClient, ticketId: number): Promise<{ queueTicketId: string; closedAt: string }> {
  const row = await queueRowOf(ticketId);
  const before = new Set((await eventsOf(row.id, 'completed')).map((event) => event.id));
  const closed = await client.post(`${QUEUE_PATHS.closeTicket}?${q({ mspCustomDomain: domain(), ticketId })}`);
  expect(closed.statusCode, closed.body).toBe(200);
  const written = (await eventsOf(row.id, 'completed')).filter((event) => !before.has(event.id));
  expect(written).toHaveLength(1);
  for (const event of written) await t.deps.database.db.delete(queueEvents).where(and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.id, event.id)));
  const after = await queueRowOf(ticketId);
  expect(after.state).toBe('closed');
  expect(after.completedAt).not.toBeNull();
  expect(await eventsOf(row.id, 'closed')).toHaveLength(1);
  return { queueTicketId: row.id, closedAt: after.completedAt?.toISOString() ?? '' };
}

describe('migration 0034 gives completions closed before 3931dd5 their completed event', () => {
  it('a ticket closed without a completion first yesterday counts as its technician’s completion that day, once however often it runs', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(20 * 60_000);
    const { queueTicketId, closedAt } = await closeTheOldWay(client, ticketId);
    const yesterday = today();
    t.advanceClock(DAY_MS);
    // As the old close left it, the Dashboards see no completion that day.
    expect((await dayOf(client, user.id, yesterday)).totals).toMatchObject([{ techId: user.id, ticketsCompleted: 0 }]);

    await runMigration();
    const day = await dayOf(client, user.id, yesterday);
    expect(day.totals).toMatchObject([{ techId: user.id, ticketsCompleted: 1, slaMet: 1 }]);
    expect(day.activities).toMatchObject([{ ticketId, completed: true, completedAt: closedAt, slaMet: true }]);
    const [event] = await eventsOf(queueTicketId, 'completed');
    expect(event).toMatchObject({ techId: user.id, details: { slaDueAt: (await queueRowOf(ticketId)).slaDueAt?.toISOString() } });

    await runMigration();
    expect(await eventsOf(queueTicketId, 'completed')).toHaveLength(1);
    expect((await dayOf(client, user.id, yesterday)).totals).toMatchObject([{ ticketsCompleted: 1 }]);
  });

  it('a ticket completed, marked incomplete, then closed the old way counts once, at the close', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    const ticketUrl = (action: string) => `/db/api/ticketQueue/${action}?${q({ mspCustomDomain: domain(), ticketId, techId: user.id })}`;
    t.advanceClock(10 * 60_000);
    expect((await client.post(ticketUrl('completeticket'))).statusCode).toBe(200);
    t.advanceClock(5 * 60_000);
    const undone = await client.post(`${QUEUE_PATHS.markIncomplete}?${q({ mspCustomDomain: domain(), ticketId, techId: user.id })}`);
    expect(undone.statusCode, undone.body).toBe(200);
    t.advanceClock(10 * 60_000);
    const { queueTicketId, closedAt } = await closeTheOldWay(client, ticketId);
    // Its only completion event was undone by the mark incomplete: the old close's completion is not counted.
    expect((await dayOf(client, user.id, today())).totals).toMatchObject([{ ticketsCompleted: 0 }]);

    await runMigration();
    await runMigration();
    expect(await eventsOf(queueTicketId, 'completed')).toHaveLength(2);
    const day = await dayOf(client, user.id, today());
    expect(day.totals).toMatchObject([{ ticketsCompleted: 1 }]);
    expect(day.activities).toMatchObject([{ ticketId, completed: true, completedAt: closedAt }]);
  });

  it('writes nothing for a completion that already has its event, nor for a ticket nobody held', async () => {
    const { ticketId, user, client } = await workingOnNewTicket();
    t.advanceClock(10 * 60_000);
    expect((await client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: domain(), ticketId, techId: user.id })}`)).statusCode).toBe(200);
    const completed = await queueRowOf(ticketId);
    // A row with completed_at set but no technician (as a broken import could leave it) is not anyone's completion.
    const [orphanId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Nobody' });
    await runUpkeep();
    const orphan = await queueRowOf(orphanId ?? 0);
    await t.deps.database.db.update(queueTickets).set({ completedAt: t.deps.now() }).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.id, orphan.id)));

    await runMigration();
    expect(await eventsOf(completed.id, 'completed')).toHaveLength(1);
    expect(await eventsOf(orphan.id, 'completed')).toEqual([]);
    expect((await dayOf(client, user.id, today())).totals).toMatchObject([{ ticketsCompleted: 1 }]);
  });
});
