import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES, type TCompleteTicketResponse, type TPsaWrite, type TQueueTicket } from '@switchboard/contracts';
import { auditEvents, psaOutbox } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { moveClockToNineUtc, technician, withQueueFixture, type TQueueFixture } from '../queue/queue-fixtures.test';
import { QUEUE_WRITES } from '../queue/queue.psa-writes';
import { runPsaOutboxPass } from './psa-outbox';

// Regressions of the review of PSA writes that fail for good (s29): a time entry the PSA refused vanished without a
// word to the technician (1); a refused write showed on the ticket as "pending … it will be retried" (2); nothing could
// clear a write the PSA refused for good (3).

let t: TTestApp;
let sim: TPsaSimulator;
let fixture: TQueueFixture;

withQueueFixture({ tickets: { count: 5, tier: 'Tier1' } }, (ready) => ({ t, sim, fixture } = ready));

const domain = () => fixture.msp.customDomain;
const TIME_ENTRIES = '/v4_6_release/apis/3.0/time/entries';
const notesPath = (ticketId: number) => `/v4_6_release/apis/3.0/service/tickets/${ticketId}/notes`;
const LIST = '/db/api/psa-writes';

let tech: { user: { id: string }; client: TestClient };
let tickets: TQueueTicket[];

/** The technician claims the 5 tickets, at 09:00 UTC (the day's timers must not cross midnight and wait for a confirmation). */
async function claimAll(): Promise<void> {
  moveClockToNineUtc(t);
  const member = (await fixture.direct.listMembers())[0];
  tech = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(member?.id ?? '') });
  tickets = (await tech.client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain()}&techId=${tech.user.id}&limit=5`)).json<{ tickets: TQueueTicket[] }>().tickets;
  expect(tickets).toHaveLength(5);
}

function ticketAt(index: number): TQueueTicket {
  const ticket = tickets[index];
  if (!ticket) throw new Error(`no ticket ${index}`);
  return ticket;
}

/** Starts the technician's timer on the ticket and lets 15 minutes pass. */
async function workOn(ticket: TQueueTicket): Promise<void> {
  expect((await tech.client.post(`/db/api/ticketActivities/${domain()}/start`, { ticketId: ticket.ticketId, techId: tech.user.id })).statusCode).toBe(200);
  t.advanceClock(15 * 60_000);
}

async function queueTicketOf(psaTicketId: number): Promise<TQueueTicket> {
  const all = (await fixture.admin.get(`/db/api/ticketQueue/getAll?mspCustomDomain=${domain()}&show=all`)).json<{ tickets: TQueueTicket[] }>().tickets;
  const found = all.find((each) => each.ticketId === psaTicketId);
  if (!found) throw new Error(`ticket ${psaTicketId} not listed`);
  return found;
}

/** A note on the ticket that the PSA answers with `status` (400: refused for good; 503: kept and retried). */
async function noteRefusedWith(ticket: TQueueTicket, status: 400 | 503): Promise<string> {
  sim.faults.failNext({ kind: status, count: status === 400 ? 1 : 30, method: 'POST', path: notesPath(ticket.ticketId) });
  const text = `Note ${status} on ${ticket.ticketId}`;
  expect((await tech.client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&internalAnalysisFlag=true`, { info: '', text })).statusCode).toBe(200);
  sim.faults.reset();
  const [row] = await t.deps.database.db
    .select({ id: psaOutbox.id, status: psaOutbox.status })
    .from(psaOutbox)
    .where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.kind, QUEUE_WRITES.note), eq(psaOutbox.status, status === 400 ? 'failed' : 'pending')));
  if (!row) throw new Error('the note write is not stored');
  return row.id;
}

describe('PSA writes refused for good', () => {
  it('complete, requeue and reject say when the PSA refused the time entry (finding 1)', async () => {
    await claimAll();
    const [a, b, c] = [ticketAt(0), ticketAt(1), ticketAt(2)];

    await workOn(a);
    sim.faults.failNext({ kind: 400, method: 'POST', path: TIME_ENTRIES });
    const completed = await tech.client.post(`/db/api/ticketQueue/completeticket?mspCustomDomain=${domain()}&ticketId=${a.ticketId}&techId=${tech.user.id}&close=true`);
    expect(completed.statusCode).toBe(200);
    const answer = completed.json<TCompleteTicketResponse>();
    expect(answer.close?.status).toBe('done');
    expect(answer.timeEntry).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(answer.timeEntry?.message).toBeTruthy();

    await workOn(b);
    sim.faults.failNext({ kind: 400, method: 'POST', path: TIME_ENTRIES });
    const requeued = await tech.client.post(`/db/api/ticketQueue/requeueticket?mspCustomDomain=${domain()}&techId=${tech.user.id}&holdTimeInHours=0&assignedFlag=false`, { id: b.id });
    expect(requeued.statusCode).toBe(200);
    expect(requeued.json()).toMatchObject({ timeEntry: { status: 'failed' } });

    await workOn(c);
    const rejected = await tech.client.post(`/db/api/ticketQueue/rejectTicket?mspCustomDomain=${domain()}&ticketId=${c.ticketId}&techId=${tech.user.id}`, { reason: 'Needs on-site work' });
    expect(rejected.statusCode).toBe(200);
    // The PSA took this one.
    expect(rejected.json()).toMatchObject({ timeEntry: { status: 'done', message: null } });
  });

  it('a note the PSA refused counts as failed on the ticket, not as pending (finding 2)', async () => {
    const ticket = ticketAt(3);
    await noteRefusedWith(ticket, 400);
    expect(await queueTicketOf(ticket.ticketId)).toMatchObject({ psaPendingWrites: 0, psaFailedWrites: 1 });
  });

  it('an admin discards a refused write: gone from the list and the counts, never sent; refused elsewhere (finding 3)', async () => {
    const ticket = ticketAt(3);
    const [failed] = (await fixture.admin.get(`${LIST}?status=failed`)).json<{ writes: TPsaWrite[] }>().writes.filter((write) => write.ticket?.psaTicketId === ticket.ticketId);
    if (!failed) throw new Error('the refused note is not listed');
    expect(failed).toMatchObject({ canSendAgain: true, canDiscard: true });
    const discardPath = `${LIST}/${failed.id}/discard`;

    // Access: declared on the route (the technician lacks the permission), tenant-scoped, CSRF-checked.
    expect((await tech.client.post(discardPath)).statusCode).toBe(403);
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await otherAdmin.post(discardPath)).statusCode).toBe(404);
    expect((await fixture.admin.post(discardPath, undefined, { csrf: false })).statusCode).toBe(403);

    // Only a failed write: one still being retried is refused in plain words.
    const pendingId = await noteRefusedWith(ticketAt(4), 503);
    const pending = await fixture.admin.post(`${LIST}/${pendingId}/discard`);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.psa.discardOnlyFailed });

    const discarded = await fixture.admin.post(discardPath);
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json()).toMatchObject({ writeId: failed.id });
    const listed = (await fixture.admin.get(LIST)).json<{ writes: TPsaWrite[] }>().writes.map((write) => write.id);
    expect(listed).not.toContain(failed.id);
    expect(listed).toContain(pendingId);
    expect(await queueTicketOf(ticket.ticketId)).toMatchObject({ psaPendingWrites: 0, psaFailedWrites: 0 });
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, fixture.msp.id), eq(auditEvents.action, 'psa_write.discard'), eq(auditEvents.target, failed.id)));
    expect(audits).toHaveLength(1);

    // Never sent afterwards: Send again and a second discard find nothing, and the retry loop leaves it.
    expect((await fixture.admin.post(`${LIST}/${failed.id}/retry`)).statusCode).toBe(404);
    expect((await fixture.admin.post(discardPath)).statusCode).toBe(404);
    t.advanceClock(24 * 3_600_000);
    await runPsaOutboxPass(t.deps, 100);
    expect((await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text.includes('Note 400'))).toEqual([]);
    const [row] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, failed.id)));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.discardedAt).not.toBeNull();
    // The technician's note list still says the PSA does not have that note.
    const notes = (await tech.client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<{ items: Array<{ text: string; psa: { status: string } }> }>().items;
    expect(notes.find((note) => note.text.includes('Note 400'))?.psa.status).toBe('failed');
  });
});
