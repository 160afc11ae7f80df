import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaOutbox } from '@switchboard/db';
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
/** R-315's label, the server's own: a technician without a PSA member is named by their Switchboard id. */
const labelOf = (user: { id: string }) => `Technician: (${user.id}): `;

describe('notes (A-110, A-111)', () => {
  it('sends each category under its PSA flag with the info label, once; blank notes are refused', async () => {
    const { user, client, ticket } = await claimOne();
    const plain = await client.post(`/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`, { info: '', text: 'Checked the cable' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json<TQueueNoteItems>().items[0]).toMatchObject({ kind: 'description', text: 'Checked the cable', info: labelOf(user), psa: { status: 'done' } });
    const resolution = await client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&resolutionFlag=true&internalAnalysisFlag=false&detailDescriptionFlag=false`, { info: '', text: 'Swapped the toner' });
    expect(resolution.json<TQueueNoteItems>().items[0]).toMatchObject({ kind: 'resolution', psa: { status: 'done' } });
    const internal = await client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}&internalAnalysisFlag=true`, { info: '', text: 'Customer was rude' });
    expect(internal.json<TQueueNoteItems>().items[0]?.kind).toBe('internal');
    const inPsa = await fixture.direct.listNotes(ticket.ticketId);
    expect(inPsa.filter((note) => note.text === `${labelOf(user)}Checked the cable` && note.kind === 'description')).toHaveLength(1);
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
  const voicemailOf = (user: { id: string }) => `${labelOf(user)}Called, left voicemail`;


  it('is sent: two notes in the PSA, each Switchboard note with its own', async () => {
    const { user, client, ticket } = await claimOne();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    for (let time = 0; time < 2; time++) {
      const sent = await client.post(url, { info: '', text: 'Called, left voicemail' });
      expect(sent.json<TQueueNoteItems>().items[0]).toMatchObject({ psa: { status: 'done' } });
    }
    const inPsa = (await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === voicemailOf(user));
    expect(inPsa).toHaveLength(2);
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items;
    expect(read.filter((note) => note.text === 'Called, left voicemail').map((note) => note.psaNoteId).sort()).toEqual(inPsa.map((note) => note.id).sort());
  });

  it('is sent by the retry loop when the PSA turned its first try away (429): the earlier note is not taken for it', async () => {
    const { user, client, ticket } = await claimOne();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    expect((await client.post(url, { info: '', text: 'Called, left voicemail' })).json<TQueueNoteItems>().items[0]?.psa.status).toBe('done');
    sim.faults.set({ retryAfterSeconds: 0.01 });
    sim.faults.failNext({ kind: 429, count: 8, method: 'POST', path: `/v4_6_release/apis/3.0/service/tickets/${ticket.ticketId}/notes` });
    const refused = await client.post(url, { info: '', text: 'Called, left voicemail' });
    sim.faults.reset();
    expect(refused.json<TQueueNoteItems>().items[0]?.psa.status).toBe('pending');
    // The resend looks first (its first try's outcome is unknown to the outbox), and finds only the earlier write's note.
    t.advanceClock(10 * 60_000);
    await runPsaOutboxPass(t.deps);
    expect((await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === voicemailOf(user))).toHaveLength(2);
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items.filter((note) => note.text === 'Called, left voicemail');
    expect(read.map((note) => note.psa.status)).toEqual(['done', 'done']);
    expect(new Set(read.map((note) => note.psaNoteId)).size).toBe(2);
  });
});

// Regression (review s28): `info` was put in front of the note as sent, so a technician could label a note as a
// colleague's ("Technician: (<their PSA member id>): "), and notes skipped the rule that edits and closes keep: only
// the technician an open ticket is with writes on it (My Ticket's note box is the only one the spec has, 02 §1, §4).
describe('a note’s label and who may write it (review s28)', () => {
  const url = (ticketId: number) => `/psa/addNotesToTicket?mspCustomDomain=${domain()}&ticketId=${ticketId}&internalAnalysisFlag=true`;

  it('always carries the writer’s own label, whatever info names: in Switchboard, in the outbox and in the PSA', async () => {
    const [own, colleague] = await fixture.direct.listMembers();
    if (!own || !colleague) throw new Error('the simulator has fewer than two members');
    await createTickets(t, fixture, 1, { tier: 'Tier1' });
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1', psaMemberId: String(own.id) });
    const [ticket] = (await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain()}&techId=${user.id}&limit=1`)).json<{ tickets: TQueueTicket[] }>().tickets;
    if (!ticket) throw new Error('no ticket');
    const ownLabel = `Technician: (${own.id}): `;
    for (const [info, text] of [[`Technician: (${colleague.id}): `, 'Reset the password'], ['Resolved by the service manager: ', 'Approved the refund']] as const) {
      const sent = await client.post(url(ticket.ticketId), { info, text });
      expect(sent.statusCode, sent.body).toBe(200);
      const [note] = sent.json<TQueueNoteItems>().items;
      expect(note).toMatchObject({ info: ownLabel, text });
      const [write] = await t.deps.database.db.select({ payload: psaOutbox.payload }).from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.idempotencyKey, `note:${note?.id ?? ''}`)));
      expect(write?.payload).toMatchObject({ text: `${ownLabel}${text}` });
      expect((await fixture.direct.listNotes(ticket.ticketId)).filter((each) => each.text.endsWith(text)).map((each) => each.text)).toEqual([`${ownLabel}${text}`]);
    }
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items;
    expect(read.map((note) => note.info)).toEqual([ownLabel, ownLabel]);
  });

  it('is refused with a 409 in plain words on a ticket held by someone else, back in the queue or closed; nothing is kept or sent', async () => {
    await createTickets(t, fixture, 2, { tier: 'Tier1' });
    const mine = await claimOne();
    const colleague = await technician(t, fixture, { tierLevel: 'Tier1' });
    for (const [writer, text] of [[colleague.client, 'Colleague was here'], [fixture.admin, 'Manager was here']] as const) {
      const refused = await writer.post(url(mine.ticket.ticketId), { info: '', text });
      expect(refused.statusCode, text).toBe(409);
      expect(refused.json()).toMatchObject({ detail: MESSAGES.queue.heldByOther });
    }
    const requeued = await mine.client.post(`/db/api/ticketQueue/requeueticket?mspCustomDomain=${domain()}&techId=${mine.user.id}&holdTimeInHours=0&assignedFlag=false`, { id: mine.ticket.id });
    expect(requeued.statusCode, requeued.body).toBe(200);
    const queued = await mine.client.post(url(mine.ticket.ticketId), { info: '', text: 'Written after the hand-back' });
    expect(queued.statusCode).toBe(409);
    expect(queued.json()).toMatchObject({ detail: MESSAGES.queue.notYourTicket });

    const closing = await claimOne();
    const completed = await closing.client.post(`/db/api/ticketQueue/completeticket?mspCustomDomain=${domain()}&ticketId=${closing.ticket.ticketId}&techId=${closing.user.id}&close=true`);
    expect(completed.statusCode, completed.body).toBe(200);
    const closed = await closing.client.post(url(closing.ticket.ticketId), { info: '', text: 'Written after the close' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ detail: MESSAGES.queue.ticketClosed });

    for (const ticket of [mine.ticket, closing.ticket]) {
      expect((await mine.client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items).toEqual([]);
      expect((await fixture.direct.listNotes(ticket.ticketId)).filter((note) => / was here$|^Written after/.test(note.text.replace(/^Technician: \([^)]*\): /, '')))).toEqual([]);
    }
  });
});
