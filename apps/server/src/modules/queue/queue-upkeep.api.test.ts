import { describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { QUEUE_PATHS, type TQueueTicket } from '@switchboard/contracts';
import { psaOutbox, queueTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';
import { runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createQueueMaintenance } from './queue.maintenance';
import { QUEUE_WRITES } from './queue.psa-writes';
import { createTickets, technician, withQueueFixture, type TQueueFixture } from './queue-fixtures.test';

// Regressions (code review of the queue's upkeep): a ticket reopened in the PSA never came back to the queue (its row
// stayed closed for good), and a ticket moved to a board that is not configured stayed queued and could be claimed.

let t: TTestApp;
let sim: TPsaSimulator;
let fixture: TQueueFixture;

withQueueFixture({}, (ready) => ({ t, sim, fixture } = ready));

const q = (params: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const ticketsOf = (response: { json: <T>() => T }) => response.json<{ tickets: TQueueTicket[] }>().tickets;

async function eligibleIds(client: TestClient, techId: string): Promise<number[]> {
  const response = await client.get(`${QUEUE_PATHS.eligibleTickets}?${q({ mspCustomDomain: fixture.msp.customDomain, techId })}`);
  expect(response.statusCode).toBe(200);
  return ticketsOf(response).map((ticket) => ticket.ticketId);
}

/** A full upkeep pass, as a replica that has not run one yet does. */
async function runUpkeep(): Promise<void> {
  t.advanceClock(1_000);
  await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
}

/** The sync brings the ticket's copy as the PSA shows it now (the summary tells the versions apart). */
async function syncCopy(ticketId: number, change: { isClosed: boolean; boardId?: number; summary: string }): Promise<void> {
  const copy: TTicketCopy = {
    externalId: ticketId,
    summary: change.summary,
    board: { id: change.boardId ?? fixture.boardId, name: 'Board' },
    type: { id: fixture.typeId, name: 'Type' },
    subtype: { id: fixture.subtypes.tier1, name: 'Tier1' },
    priority: { id: fixture.priorityId, name: 'Priority' },
    company: { id: fixture.companyId, name: 'Company' },
    isClosed: change.isClosed,
    ...(change.isClosed ? { closedAt: t.deps.now() } : {}),
  };
  await upsertTicketCopies(t.deps.database.db, fixture.msp.id, 'CONNECTWISE', [copy], t.deps.now());
}

async function queueRowOf(ticketId: number) {
  const [row] = await t.deps.database.db
    .select()
    .from(queueTickets)
    .where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.psaTicketId, ticketId)));
  if (!row) throw new Error('no queue row');
  return row;
}

describe('the upkeep puts a ticket reopened in the PSA back in the queue', () => {
  it('a ticket claimed, then closed and reopened in the PSA, is queued again for anyone, without its technician', async () => {
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Reopened' });
    if (ticketId === undefined) throw new Error('no ticket');
    const a = await technician(t, fixture, { tierLevel: 'Tier1' });
    const b = await technician(t, fixture, { tierLevel: 'Tier1' });
    await runUpkeep();
    const picked = await a.client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, ticketQueueEntityId: (await queueRowOf(ticketId)).id })}`);
    expect(picked.statusCode).toBe(200);

    await syncCopy(ticketId, { isClosed: true, summary: 'Closed in the PSA' });
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'closed' });
    expect(await eligibleIds(b.client, b.user.id)).not.toContain(ticketId);

    await syncCopy(ticketId, { isClosed: false, summary: 'Reopened in the PSA' });
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'queued', closedAt: null, completedAt: null, assignedTechId: null, isReserved: false, holdUntil: null, claimedAt: null });
    expect(await eligibleIds(b.client, b.user.id)).toContain(ticketId);
  });

  it('a ticket closed through the app stays closed while its close is pending in the PSA, and after it landed on a copy read before it', async () => {
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Closed here' });
    if (ticketId === undefined) throw new Error('no ticket');
    const a = await technician(t, fixture, { tierLevel: 'Tier1' });
    await runUpkeep();
    const queueTicketId = (await queueRowOf(ticketId)).id;
    expect((await a.client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, ticketQueueEntityId: queueTicketId })}`)).statusCode).toBe(200);
    expect((await a.client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId, techId: a.user.id })}`)).statusCode).toBe(200);
    // The PSA is out of reach: the close waits in the outbox.
    sim.faults.failNext({ kind: 503, count: 200, pathPrefix: `/v4_6_release/apis/3.0/service/tickets/${ticketId}` });
    const closed = await a.client.post(`${QUEUE_PATHS.closeTicket}?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId })}`);
    expect(closed.statusCode).toBe(200);
    const closeWrite = async () => {
      const [row] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.kind, QUEUE_WRITES.close), like(psaOutbox.idempotencyKey, `close:${queueTicketId}:%`)));
      return row;
    };
    expect(await closeWrite()).toMatchObject({ status: 'pending' });

    // The sync rereads the ticket, still open in the PSA (changed meanwhile), before the close lands: it stays closed.
    await syncCopy(ticketId, { isClosed: false, summary: 'Edited in the PSA before the close landed' });
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'closed' });
    expect(await eligibleIds(a.client, a.user.id)).not.toContain(ticketId);

    // The close lands; the copy is still the one read before it: it stays closed.
    sim.faults.reset();
    t.advanceClock(10 * 60_000);
    await expect.poll(async () => {
      await runPsaOutboxPass(t.deps);
      return (await closeWrite())?.status;
    }, { timeout: 5_000 }).toBe('done');
    expect((await fixture.direct.getTicket(ticketId)).isClosed).toBe(true);
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'closed' });
    expect(await eligibleIds(a.client, a.user.id)).not.toContain(ticketId);

    // Someone reopens it in the PSA after the close landed, and the sync brings it: it is queued again.
    await syncCopy(ticketId, { isClosed: false, summary: 'Reopened in the PSA after the close' });
    await runUpkeep();
    expect(await queueRowOf(ticketId)).toMatchObject({ state: 'queued', assignedTechId: null, closedAt: null });
    expect(await eligibleIds(a.client, a.user.id)).toContain(ticketId);

    // Worked and closed here again: the PSA gets this second close too (regression: its outbox key was the queue row's
    // alone, so the first close's landed write answered for it and the ticket stayed open in the PSA).
    expect((await a.client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, ticketQueueEntityId: queueTicketId })}`)).statusCode).toBe(200);
    expect((await a.client.post(`/db/api/ticketQueue/completeticket?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId, techId: a.user.id })}`)).statusCode).toBe(200);
    expect((await a.client.post(`${QUEUE_PATHS.closeTicket}?${q({ mspCustomDomain: fixture.msp.customDomain, ticketId })}`)).statusCode).toBe(200);
    const closeWrites = () => t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.kind, QUEUE_WRITES.close), like(psaOutbox.idempotencyKey, `close:${queueTicketId}:%`)));
    await expect.poll(async () => {
      await runPsaOutboxPass(t.deps);
      return (await closeWrites()).map((row) => row.status);
    }, { timeout: 5_000 }).toEqual(['done', 'done']);
  });
});

describe('the upkeep takes a ticket moved to a board that is not configured out of the queue', () => {
  it('a queued ticket, and one reserved for a technician, moved to another board are no longer offered; a claimed one stays with its technician', async () => {
    const [moved, reserved, claimed] = await createTickets(t, fixture, 3, { tier: 'Tier1', prefix: 'Moved' });
    if (moved === undefined || reserved === undefined || claimed === undefined) throw new Error('no ticket');
    const a = await technician(t, fixture, { tierLevel: 'Tier1' });
    await runUpkeep();
    const reservedRow = await queueRowOf(reserved);
    await t.deps.database.db.update(queueTickets).set({ isReserved: true, assignedTechId: a.user.id }).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.id, reservedRow.id)));
    expect((await a.client.post(`/db/api/ticketQueue/manualPick?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, ticketQueueEntityId: (await queueRowOf(claimed)).id })}`)).statusCode).toBe(200);
    expect(await eligibleIds(a.client, a.user.id)).toEqual(expect.arrayContaining([moved, reserved]));

    const otherBoard = fixture.boardId + 100_000;
    for (const ticketId of [moved, reserved, claimed]) await syncCopy(ticketId, { isClosed: false, boardId: otherBoard, summary: 'Moved to an unconfigured board' });
    await runUpkeep();
    const eligible = await eligibleIds(a.client, a.user.id);
    expect(eligible).not.toContain(moved);
    expect(eligible).not.toContain(reserved);
    const next = ticketsOf(await a.client.get(`${QUEUE_PATHS.nextTickets}?${q({ mspCustomDomain: fixture.msp.customDomain, techId: a.user.id, psaMemberId: '', limit: 5 })}`));
    expect(next.map((ticket) => ticket.ticketId)).not.toContain(moved);
    expect(next.map((ticket) => ticket.ticketId)).not.toContain(reserved);
    expect(await queueRowOf(claimed)).toMatchObject({ state: 'claimed', assignedTechId: a.user.id });

    // Its board configured again (moved back): it is queued again.
    await syncCopy(moved, { isClosed: false, summary: 'Moved back' });
    await runUpkeep();
    expect(await queueRowOf(moved)).toMatchObject({ state: 'queued' });
  });
});
