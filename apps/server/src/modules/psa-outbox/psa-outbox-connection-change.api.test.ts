import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES, type TPsaWrite, type TQueueNoteItems, type TQueueTicket } from '@switchboard/contracts';
import { auditEvents, psaOutbox } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { simulatorIntegrationBody, withTwoSiteApp } from '../../../test/psa-simulator';
import { createQueueFixture, createTickets, technician, type TQueueFixture } from '../queue/queue-fixtures.test';
import { TICKET_CREATE_WRITE, TICKET_REQUEST_TARGET, type TTicketCreatePayload } from '../assistant/ticket-create.psa-write';
import { EMAIL_MESSAGE_TARGET, EMAIL_TICKET_WRITE, type TEmailTicketPayload } from '../email-connector/email-tickets.psa-write';
import { findIntegration } from '../integrations/integrations.repository';
import { psaIdentityOf } from '../integrations/psa-identity';
import { QUEUE_WRITES, type TNotePayload } from '../queue/queue.psa-writes';
import { enqueuePsaWrite, runPsaOutboxPass } from './psa-outbox';
import { insertPsaWrite } from './psa-outbox.repository';
import { isPostgresRun } from '../../../test/lock-waits';

// Regression (review: "pending PSA writes go to whatever PSA is connected now"): a queue note or time entry keeps only
// the PSA's numeric ticket id, and the outbox sent it through the MSP's current client. After an MSP changed its
// ConnectWise site (or PSA) or disconnected, a note still pending landed on an unrelated ticket with the same number in
// the other PSA. Changing the PSA's identity or disconnecting now settles the MSP's open writes as failed, with the
// reason, and Send again refuses them; the same keys saved again change nothing.

let t: TTestApp;
let siteA: TPsaSimulator;
let siteB: TPsaSimulator;
withTwoSiteApp((ready) => ({ t, siteA, siteB } = ready));

const notesPath = (ticketId: number) => `/v4_6_release/apis/3.0/service/tickets/${ticketId}/notes`;
const requestsTo = (sim: TPsaSimulator) => sim.stats().requests;
const hostOf = (sim: TPsaSimulator) => new URL(sim.url).host;

/** An MSP on site A with a claimed ticket and an internal note the PSA did not take (it answered 503). */
async function pendingNote(): Promise<{ fixture: TQueueFixture; ticketId: number; text: string; write: TPsaWrite }> {
  const fixture = await createQueueFixture(t, siteA);
  await createTickets(t, fixture, 1, { tier: 'Tier1' });
  const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
  const domain = fixture.msp.customDomain;
  const next = await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain}&techId=${user.id}&limit=1`);
  const [ticket] = next.json<{ tickets: TQueueTicket[] }>().tickets ?? [];
  if (!ticket) throw new Error(`no ticket: ${next.statusCode} ${next.body}`);
  const text = `Rebooted the switch ${crypto.randomUUID()}`;
  siteA.faults.failNext({ kind: 503, count: 50, method: 'POST', path: notesPath(ticket.ticketId) });
  try {
    const added = await client.post(`/psa/addNotesToTicket?mspCustomDomain=${domain}&ticketId=${ticket.ticketId}&internalAnalysisFlag=true`, { info: '', text });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<TQueueNoteItems>().items[0]?.psa.status).toBe('pending');
  } finally {
    siteA.faults.reset();
  }
  const listed = await fixture.admin.get('/db/api/psa-writes?status=pending');
  expect(listed.statusCode, listed.body).toBe(200);
  const write = listed.json<{ writes: TPsaWrite[] }>().writes.find((each) => each.kind === 'queue.note');
  if (!write) throw new Error(`the note is not pending: ${listed.body}`);
  return { fixture, ticketId: ticket.ticketId, text, write };
}

async function writeOf(fixture: TQueueFixture, id: string): Promise<TPsaWrite | undefined> {
  const listed = await fixture.admin.get('/db/api/psa-writes');
  return listed.json<{ writes: TPsaWrite[] }>().writes.find((each) => each.id === id);
}

/** The retry loop's pass once every backoff has run out. */
async function outboxPass(): Promise<void> {
  t.advanceClock(5 * 60 * 60_000);
  await runPsaOutboxPass(t.deps, 100);
}

describe('pending PSA writes when the PSA connection changes', () => {
  it('fails a pending note when the admin saves keys for another ConnectWise site: nothing reaches the new site, and Send again is refused', async () => {
    const { fixture, ticketId, text, write } = await pendingNote();
    const saved = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'));
    expect(saved.statusCode, saved.body).toBe(200);

    const reason = MESSAGES.psa.connectionChanged(`ConnectWise at ${hostOf(siteA)}, company ${siteA.connectWise.companyId}`);
    // The card hides Send again on it (it would answer 409) and offers Discard (review s29, finding 3).
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'failed', lastError: reason, nextAttemptAt: null, canSendAgain: false, canDiscard: true });

    const before = requestsTo(siteB);
    await outboxPass();
    expect(requestsTo(siteB) - before).toBe(0);
    expect(siteB.stats().byPath[notesPath(ticketId)] ?? 0).toBe(0);

    const retried = await fixture.admin.post(`/db/api/psa-writes/${write.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(409);
    expect(retried.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.psa.sendAgainConnectionChanged });
    await outboxPass();
    expect(requestsTo(siteB) - before).toBe(0);
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'failed', lastError: reason });
    // Nor did it reach the old site after all.
    expect((await fixture.direct.listNotes(ticketId)).filter((note) => note.text.includes(text))).toHaveLength(0);

    // Audited once for the change, with how many writes it stopped.
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, fixture.msp.id), eq(auditEvents.action, 'psa_write.connection_changed')));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toMatchObject({ count: 1 });
  }, 60_000);

  it('fails a pending note when the admin disconnects the PSA, and Send again is refused after reconnecting', async () => {
    const { fixture, write } = await pendingNote();
    const disconnected = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`);
    expect(disconnected.statusCode, disconnected.body).toBe(200);
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'failed', lastError: MESSAGES.psa.connectionChanged(`ConnectWise at ${hostOf(siteA)}, company ${siteA.connectWise.companyId}`) });

    // Connected again, to the other site: the note stays where it is.
    expect((await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'))).statusCode).toBe(200);
    const before = requestsTo(siteB);
    await outboxPass();
    const retried = await fixture.admin.post(`/db/api/psa-writes/${write.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(409);
    expect(requestsTo(siteB) - before).toBe(0);
  }, 60_000);

  it('fails a pending note when the admin switches from ConnectWise to Autotask, and nothing reaches Autotask', async () => {
    const { fixture, write } = await pendingNote();
    const saved = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteA, 'autotask'));
    expect(saved.statusCode, saved.body).toBe(200);
    // Counted after the save: keys for another PSA are checked with it (listing its boards) before they are saved.
    const autotaskBefore = Object.entries(siteA.stats().byPath).filter(([path]) => path.startsWith('/atservicesrest/')).reduce((total, [, count]) => total + count, 0);
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'failed', lastError: MESSAGES.psa.connectionChanged(`ConnectWise at ${hostOf(siteA)}, company ${siteA.connectWise.companyId}`) });
    await outboxPass();
    const autotaskAfter = Object.entries(siteA.stats().byPath).filter(([path]) => path.startsWith('/atservicesrest/')).reduce((total, [, count]) => total + count, 0);
    expect(autotaskAfter - autotaskBefore).toBe(0);
    expect((await fixture.admin.post(`/db/api/psa-writes/${write.id}/retry`, {})).statusCode).toBe(409);
  }, 60_000);

  it('says a write that was being sent when the site changed may have reached the old site', async () => {
    const { fixture, write } = await pendingNote();
    // A sender holds it (its lease runs), as while the PSA is being called.
    await t.deps.database.db.update(psaOutbox).set({ lockedUntil: new Date(t.deps.now().getTime() + 60_000) }).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, write.id)));
    expect((await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'))).statusCode).toBe(200);
    expect(await writeOf(fixture, write.id)).toMatchObject({
      status: 'failed',
      lastError: MESSAGES.psa.connectionChangedWhileSending(`ConnectWise at ${hostOf(siteA)}, company ${siteA.connectWise.companyId}`),
    });
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, fixture.msp.id), eq(auditEvents.action, 'psa_write.connection_changed')));
    expect(audits.map((audit) => audit.details)).toMatchObject([{ count: 1, beingSent: 1 }]);
  }, 60_000);

  it('keeps a pending note pending when the same keys are saved again, and the retry loop sends it to its PSA', async () => {
    const { fixture, ticketId, text, write } = await pendingNote();
    const body = simulatorIntegrationBody(siteA, 'connectwise');
    // A rotated private key for the same site and company is the same PSA (here the simulator refuses it, so the note waits).
    const rotated = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, {
      connectWiseManageIntegration: { ...body.connectWiseManageIntegration, privateKey: 'a-rotated-private-key' },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'pending' });
    // The same site typed differently (a trailing slash, the company id's case) is the same PSA.
    const resaved = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, {
      connectWiseManageIntegration: { ...body.connectWiseManageIntegration, psaUrl: `${siteA.connectWise.siteUrl}/`, companyId: siteA.connectWise.companyId.toUpperCase() },
    });
    expect(resaved.statusCode, resaved.body).toBe(200);
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'pending' });

    await outboxPass();
    const [row] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, write.id)));
    expect(row?.status).toBe('done');
    expect((await fixture.direct.listNotes(ticketId)).filter((note) => note.text.includes(text))).toHaveLength(1);
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, fixture.msp.id), eq(auditEvents.action, 'psa_write.connection_changed')));
    expect(audits).toHaveLength(0);
  }, 60_000);

  // Regression (review s26, fault A): a queue note stored by a request whose transaction committed just after the admin
  // saved keys for another site was not there for the save to stop, and its payload names no PSA, so the retry loop
  // sent it (the old site's ticket number) to the new site. Each write now keeps the connection it was stored for, and
  // one stored for another connection than the MSP's current one is settled failed, never sent.
  it('never sends a note stored for the old site whose transaction committed after the change: failed with the reason, nothing reaches the new site', async () => {
    const db = t.deps.database.db;
    const { fixture, ticketId, write } = await pendingNote();
    const oldConnection = psaIdentityOf(await findIntegration(db, fixture.msp.id))?.key;
    if (!oldConnection) throw new Error('the MSP has no PSA connection');
    const [stored] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, write.id)));
    if (!stored) throw new Error('the note is not stored');

    const saved = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'));
    expect(saved.statusCode, saved.body).toBe(200);
    // The request that began before the change stores its note as the change commits: the same insert, with the
    // connection the request read before the change (PGlite has one connection, so the race is replayed, not raced).
    const lateText = `Replaced the PSU ${crypto.randomUUID()}`;
    const latePayload: TNotePayload = { ...(stored.payload as TNotePayload), noteId: crypto.randomUUID(), text: lateText };
    const late = await db.transaction((tx) =>
      insertPsaWrite(tx, fixture.msp.id, { kind: QUEUE_WRITES.note, idempotencyKey: `late-note-${crypto.randomUUID()}`, target: { type: 'ticket', id: stored.targetId }, payload: latePayload, psaConnection: oldConnection }, t.deps.now()),
    );

    const before = requestsTo(siteB);
    await outboxPass();
    expect(requestsTo(siteB) - before).toBe(0);
    expect(siteB.stats().byPath[notesPath(ticketId)] ?? 0).toBe(0);
    expect(await writeOf(fixture, late.row.id)).toMatchObject({ status: 'failed', lastError: MESSAGES.psa.storedForOtherConnection, nextAttemptAt: null });
    // Nor does Send again put it on the new site.
    const retried = await fixture.admin.post(`/db/api/psa-writes/${late.row.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(409);
    expect(retried.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.psa.sendAgainConnectionChanged });
    await outboxPass();
    expect(requestsTo(siteB) - before).toBe(0);
    expect((await fixture.direct.listNotes(ticketId)).filter((note) => note.text.includes(lateText))).toHaveLength(0);
    const audits = await db.select().from(auditEvents).where(and(eq(auditEvents.mspId, fixture.msp.id), eq(auditEvents.action, `psa_write.${QUEUE_WRITES.note}`), eq(auditEvents.outcome, 'failure')));
    expect(audits.map((audit) => audit.details)).toMatchObject([{ writeId: late.row.id, reason: MESSAGES.psa.storedForOtherConnection }]);

    // The note the API stored carries the connection it was stored for.
    expect(stored.psaConnection).toBe(oldConnection);
  }, 60_000);

  it.skipIf(!isPostgresRun)('PostgreSQL: never sends a note whose request transaction was still open while the admin saved keys for another site', async () => {
    const db = t.deps.database.db;
    const { fixture, ticketId, write } = await pendingNote();
    const [stored] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, write.id)));
    if (!stored) throw new Error('the note is not stored');
    const lateText = `Swapped the toner ${crypto.randomUUID()}`;
    const latePayload: TNotePayload = { ...(stored.payload as TNotePayload), noteId: crypto.randomUUID(), text: lateText };
    // The request's transaction stores its note, then the admin's save commits on another connection, then the request commits.
    const late = await db.transaction(async (tx) => {
      const row = await enqueuePsaWrite(tx, { mspId: fixture.msp.id, kind: QUEUE_WRITES.note, idempotencyKey: `held-note-${crypto.randomUUID()}`, target: { type: 'ticket', id: stored.targetId }, payload: latePayload }, t.deps.now());
      const saved = await fixture.admin.post(`/db/${fixture.msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'));
      expect(saved.statusCode, saved.body).toBe(200);
      return row;
    });
    // The note stored before stays stopped by the change; the one committed after it is settled by the outbox.
    expect(await writeOf(fixture, write.id)).toMatchObject({ status: 'failed' });
    expect(await writeOf(fixture, late.id)).toMatchObject({ status: 'pending' });
    const before = requestsTo(siteB);
    await outboxPass();
    expect(requestsTo(siteB) - before).toBe(0);
    expect(siteB.stats().byPath[notesPath(ticketId)] ?? 0).toBe(0);
    expect(await writeOf(fixture, late.id)).toMatchObject({ status: 'failed', lastError: MESSAGES.psa.storedForOtherConnection });
  }, 60_000);

  it('sends a write stored before writes kept their connection (none on the row) as before', async () => {
    const db = t.deps.database.db;
    const fixture = await createQueueFixture(t, siteA);
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1' });
    if (ticketId === undefined) throw new Error('no ticket');
    const summary = `Kept from the previous release ${crypto.randomUUID()}`;
    const [legacy] = await db
      .insert(psaOutbox)
      .values({ mspId: fixture.msp.id, kind: QUEUE_WRITES.update, idempotencyKey: `legacy-${crypto.randomUUID()}`, targetType: 'ticket', targetId: crypto.randomUUID(), payload: { ticketId, summary }, nextAttemptAt: t.deps.now() })
      .returning();
    if (!legacy) throw new Error('the legacy write is not stored');
    expect(legacy.psaConnection).toBeNull();
    await outboxPass();
    const [row] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.id, legacy.id)));
    expect(row?.status).toBe('done');
    expect((await fixture.direct.getTicket(ticketId)).summary).toBe(summary);
  }, 60_000);

  /** Stores the write `storeFor` makes, runs the outbox: it fails with the plain reason and no ticket reaches ConnectWise. */
  async function expectRefusedForOtherPsa(storeFor: (fixture: TQueueFixture, input: TTicketCreatePayload['input']) => Parameters<typeof enqueuePsaWrite>[1]) {
    const fixture = await createQueueFixture(t, siteA);
    const input = { summary: 'Printer offline', description: 'Meant for Autotask', boardId: fixture.boardId, companyId: fixture.companyId, typeId: fixture.typeId, subtypeId: fixture.subtypes.tier1, priorityId: fixture.priorityId };
    const row = await t.deps.database.db.transaction((tx) => enqueuePsaWrite(tx, storeFor(fixture, input), t.deps.now()));
    const ticketsPath = '/v4_6_release/apis/3.0/service/tickets';
    const before = siteA.stats().byPath[ticketsPath] ?? 0;
    await outboxPass();
    expect(await writeOf(fixture, row.id)).toMatchObject({ status: 'failed', lastError: MESSAGES.psa.otherPsa('ConnectWise', 'Autotask') });
    expect((siteA.stats().byPath[ticketsPath] ?? 0) - before).toBe(0);
  }
  const names = { board: 'Queue', type: null, subtype: null, priority: null, company: null, contact: null };

  it('never sends a ticket create stored for Autotask to the ConnectWise PSA connected now', async () => {
    await expectRefusedForOtherPsa((fixture, input) => {
      const payload: TTicketCreatePayload = { psaType: 'AUTOTASK', requestId: crypto.randomUUID(), draftId: null, input, names };
      return { mspId: fixture.msp.id, kind: TICKET_CREATE_WRITE, idempotencyKey: `other-psa-${crypto.randomUUID()}`, target: { type: TICKET_REQUEST_TARGET, id: payload.requestId }, payload };
    });
  }, 60_000);

  it('never sends a ticket made from a mail and stored for Autotask to the ConnectWise PSA connected now', async () => {
    await expectRefusedForOtherPsa((fixture, input) => {
      const payload: TEmailTicketPayload = { psaType: 'AUTOTASK', emailMessageRowId: crypto.randomUUID(), input, names };
      return { mspId: fixture.msp.id, kind: EMAIL_TICKET_WRITE, idempotencyKey: `other-psa-mail-${crypto.randomUUID()}`, target: { type: EMAIL_MESSAGE_TARGET, id: payload.emailMessageRowId }, payload };
    });
  }, 60_000);
});
