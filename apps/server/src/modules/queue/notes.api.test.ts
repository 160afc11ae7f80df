import { describe, expect, it } from 'vitest';
import { MESSAGES, PSA_WRITE_MESSAGES, type TPsaWrite, type TQueueNoteItems, type TQueueTicket, type TTimerSessionsResponse } from '@switchboard/contracts';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createTickets, moveClockToNineUtc, withQueueFixture, technician, type TQueueFixture } from './queue-fixtures.test';

let t: TTestApp;
let sim: TPsaSimulator;
let fixture: TQueueFixture;

withQueueFixture({ tickets: { count: 8, tier: 'Tier1' } }, (ready) => ({ t, sim, fixture } = ready));

async function claimOne() {
  const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
  const response = await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${fixture.msp.customDomain}&techId=${user.id}&limit=1`);
  const [ticket] = response.json<{ tickets: TQueueTicket[] }>().tickets;
  if (!ticket) throw new Error('no ticket');
  return { user, client, ticket };
}
const domain = () => fixture.msp.customDomain;

describe('notes (A-110, A-111)', () => {
  it('sends each category under its PSA flag with the info label, once; blank notes are refused', async () => {
    const { client, ticket } = await claimOne();
    const plain = await client.post(`/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`, { info: 'Technician: (42): ', text: 'Checked the cable' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json<TQueueNoteItems>().items[0]).toMatchObject({ kind: 'description', text: 'Checked the cable', info: 'Technician: (42): ', psa: { status: 'done' } });
    const resolution = await client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&resolutionFlag=true&internalAnalysisFlag=false&detailDescriptionFlag=false`, { info: '', text: 'Swapped the toner' });
    expect(resolution.json<TQueueNoteItems>().items[0]).toMatchObject({ kind: 'resolution', psa: { status: 'done' } });
    const internal = await client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&internalAnalysisFlag=true`, { info: '', text: 'Customer was rude' });
    expect(internal.json<TQueueNoteItems>().items[0]?.kind).toBe('internal');
    const inPsa = await fixture.direct.listNotes(ticket.ticketId);
    expect(inPsa.filter((note) => note.text === 'Technician: (42): Checked the cable' && note.kind === 'description')).toHaveLength(1);
    expect(inPsa.filter((note) => note.text.endsWith('Swapped the toner') && note.text.startsWith('Technician: (') && note.kind === 'resolution')).toHaveLength(1);
    expect(inPsa.filter((note) => note.text.endsWith('Customer was rude') && note.kind === 'internal')).toHaveLength(1);
    const blank = await client.post(`/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`, { info: '', text: '  \n ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ detail: MESSAGES.queue.emptyNote });
    const read = await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`);
    expect(read.json<TQueueNoteItems>().items.map((note) => note.kind)).toEqual(['description', 'resolution', 'internal']);
    expect(read.json<TQueueNoteItems>().items.every((note) => note.psaNoteId !== null)).toBe(true);
  });

  it('keeps a note the PSA refused for now as pending, and answers 404 for an unknown ticket, 401/403/404 at the doors', async () => {
    const { client, ticket } = await claimOne();
    sim.faults.failNext({ kind: 503, count: 10, method: 'POST', pathPrefix: '/v4_6_release/apis/3.0/service/tickets' });
    const pending = await client.post(`/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`, { info: '', text: 'Will land later' });
    sim.faults.reset();
    expect(pending.statusCode).toBe(200);
    expect(pending.json<TQueueNoteItems>().items[0]?.psa.status).toBe('pending');
    const list = await client.get(`/db/api/ticketQueue/getAll?mspCustomDomain=${domain()}&show=all`);
    expect(list.json<{ tickets: TQueueTicket[] }>().tickets.find((each) => each.id === ticket.id)?.psaPendingWrites).toBeGreaterThan(0);
    // The admin's "Changes waiting for the PSA" list names the note and its ticket; another MSP's admin never sees it.
    const waiting = (await fixture.admin.get('/db/api/psa-writes?status=pending')).json<{ writes: TPsaWrite[] }>().writes;
    const noteWrite = waiting.find((write) => write.kind === 'queue.note' && write.ticket?.psaTicketId === ticket.ticketId);
    expect(noteWrite).toMatchObject({ summary: PSA_WRITE_MESSAGES.summary.note('description'), ticket: { psaTicketId: ticket.ticketId, summary: ticket.title }, status: 'pending', attempts: 1 });
    expect(noteWrite?.lastError).toBeTruthy();
    const strangerAdmin = await signedInClient(t, await buildUser(t, await buildMsp(t), { password: null }));
    const theirs = await strangerAdmin.get('/db/api/psa-writes');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<{ writes: TPsaWrite[] }>().writes).toEqual([]);
    expect((await client.post(`/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=999999999`, { info: '', text: 'x' })).statusCode).toBe(404);
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    expect((await new TestClient(t.app).post(url, { info: '', text: 'x' })).statusCode).toBe(401);
    expect((await client.post(url, { info: '', text: 'x' }, { csrf: false })).statusCode).toBe(403);
    const clientUser = await signedInClient(t, await buildUser(t, fixture.msp, { kind: 'client', password: null }));
    expect((await clientUser.post(url, { info: '', text: 'x' })).statusCode).toBe(403);
    const stranger = await signedInClient(t, await buildUser(t, await buildMsp(t), { password: null }));
    expect((await stranger.post(url, { info: '', text: 'x' })).statusCode).toBe(404);
  });
});

describe('edit (A-112) and close (A-113)', () => {
  it('saves edits to the PSA and the queue; nothing to change is refused', async () => {
    const { client, ticket } = await claimOne();
    const url = `/psa/updateTicket/${ticket.ticketId}?mspCustomDomain=${domain()}`;
    const saved = await client.put(url, { title: 'Printer on floor 2 offline', impact: 'High', severity: 'Medium', tier: 'Tier2' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ ticket: { title: 'Printer on floor 2 offline', impact: 'High', severity: 'Medium', tier: 'Tier2' }, psa: { status: 'done' } });
    expect((await fixture.direct.getTicket(ticket.ticketId)).summary).toBe('Printer on floor 2 offline');
    const empty = await client.put(url, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ detail: MESSAGES.queue.nothingToUpdate });
    expect((await client.put(`/psa/updateTicket/999999999?mspCustomDomain=${domain()}`, { title: 'x' })).statusCode).toBe(404);
  });

  it('closes with the board’s closing status; a second close and someone else’s ticket are refused', async () => {
    const { user, client, ticket } = await claimOne();
    const other = await claimOne();
    await client.post(`/db/api/ticketQueue/completeticket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&techId=${user.id}`);
    const closed = await client.post(`/psa/closeTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&boardId=${fixture.boardId}`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ ticketId: ticket.ticketId, closed: true, psa: { status: 'done' } });
    const inPsa = await fixture.direct.getTicket(ticket.ticketId);
    expect(inPsa).toMatchObject({ isClosed: true, statusId: fixture.closingStatusId });
    const twice = await client.post(`/psa/closeTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ detail: MESSAGES.queue.ticketClosed });
    const notMine = await client.post(`/psa/closeTicket?mspCustomDomain=${domain()}&ticketId=${other.ticket.ticketId}`);
    expect(notMine.statusCode).toBe(409);
    expect(notMine.json()).toMatchObject({ detail: MESSAGES.queue.heldByOther });
    const wrongBoard = await other.client.post(`/psa/closeTicket?mspCustomDomain=${domain()}&ticketId=${other.ticket.ticketId}&boardId=${fixture.boardId + 1000}`);
    expect(wrongBoard.json()).toMatchObject({ detail: MESSAGES.queue.boardMismatch });
  });

  // Regression (code review): closing left the technician's timer running; the minutes kept counting on a closed
  // ticket, which then refused A-119 ("This ticket is closed."), so the time entry was never sent.
  it('closing a ticket with a running timer completes the timer and sends its time entry once', async () => {
    moveClockToNineUtc(t); // the session must not cross midnight
    await createTickets(t, fixture, 1, { tier: 'Tier1' });
    const member = (await fixture.direct.listMembers())[0];
    if (!member) throw new Error('the simulator has no member');
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(member.id) });
    const [ticket] = (await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain()}&techId=${user.id}&limit=1`)).json<{ tickets: TQueueTicket[] }>().tickets;
    if (!ticket) throw new Error('no ticket');
    await expect.poll(async () => (await fixture.direct.getTicket(ticket.ticketId)).ownerId, { timeout: 5_000 }).toBe(member.id); // the claim's assignment landed
    expect((await client.post(`/db/api/ticketActivities/${domain()}/start`, { ticketId: ticket.ticketId, techId: user.id })).statusCode).toBe(200);
    t.advanceClock(15 * 60_000);
    const closed = await client.post(`/psa/closeTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&boardId=${fixture.boardId}`);
    expect(closed.json()).toMatchObject({ closed: true, psa: { status: 'done' } });
    const sessionsOf = async () => (await client.get(`/db/api/ticketActivities/${domain()}/${ticket.ticketId}/${user.id}`)).json<TTimerSessionsResponse>();
    expect((await sessionsOf()).isActive).toBe(false);
    t.advanceClock(30 * 60_000);
    expect((await sessionsOf()).totalWorkMinutes).toBeCloseTo(15, 0);
    const entries = (await fixture.direct.listTimeEntries(ticket.ticketId)).filter((entry) => entry.memberId === member.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.hours).toBeCloseTo(0.25, 2);
    expect(entries[0]?.notes).toContain(MESSAGES.queue.completed);
  });
});

// Regression (review 2026-11-29, finding 2): a note with the same words as an earlier note on the ticket (a second
// "Called, left voicemail") was looked up before it was sent, found the earlier one, was marked done with that note's
// id and never reached the PSA.
describe('a note with the same words as an earlier one', () => {
  const VOICEMAIL = 'Technician: (42): Called, left voicemail';


  it('is sent: two notes in the PSA, each Switchboard note with its own', async () => {
    const { client, ticket } = await claimOne();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    for (let time = 0; time < 2; time++) {
      const sent = await client.post(url, { info: 'Technician: (42): ', text: 'Called, left voicemail' });
      expect(sent.json<TQueueNoteItems>().items[0]).toMatchObject({ psa: { status: 'done' } });
    }
    const inPsa = (await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === VOICEMAIL);
    expect(inPsa).toHaveLength(2);
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items;
    expect(read.filter((note) => note.text === 'Called, left voicemail').map((note) => note.psaNoteId).sort()).toEqual(inPsa.map((note) => note.id).sort());
  });

  it('is sent by the retry loop when the PSA turned its first try away (429): the earlier note is not taken for it', async () => {
    const { client, ticket } = await claimOne();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    expect((await client.post(url, { info: 'Technician: (42): ', text: 'Called, left voicemail' })).json<TQueueNoteItems>().items[0]?.psa.status).toBe('done');
    sim.faults.set({ retryAfterSeconds: 0.01 });
    sim.faults.failNext({ kind: 429, count: 8, method: 'POST', path: `/v4_6_release/apis/3.0/service/tickets/${ticket.ticketId}/notes` });
    const refused = await client.post(url, { info: 'Technician: (42): ', text: 'Called, left voicemail' });
    sim.faults.reset();
    expect(refused.json<TQueueNoteItems>().items[0]?.psa.status).toBe('pending');
    // The resend looks first (its first try's outcome is unknown to the outbox), and finds only the earlier write's note.
    t.advanceClock(10 * 60_000);
    await runPsaOutboxPass(t.deps);
    expect((await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === VOICEMAIL)).toHaveLength(2);
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items.filter((note) => note.text === 'Called, left voicemail');
    expect(read.map((note) => note.psa.status)).toEqual(['done', 'done']);
    expect(new Set(read.map((note) => note.psaNoteId)).size).toBe(2);
  });
});
