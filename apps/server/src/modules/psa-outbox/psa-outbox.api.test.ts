import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PSA_WRITE_MESSAGES, type TPsaWrite } from '@switchboard/contracts';
import { auditEvents, psaOutbox, psaTickets } from '@switchboard/db';
import type { PsaClient, TPsaContact } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { nextIp } from '../auth/auth-test-helpers';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { QUEUE_WRITES } from '../queue/queue.psa-writes';
import { attemptPsaWrite, definePsaWrite, enqueuePsaWrite, psaWritesFor, runPsaOutboxPass, createPsaOutboxWorker, PSA_WRITE_LEASE_MS } from './psa-outbox';

/** A write kind for these tests only: a contact create, which the adapters make retry-safe by looking it up. */
interface TContactPayload {
  companyId: number;
  firstName: string;
  lastName: string;
  email: string;
}
const landed: string[] = [];
definePsaWrite<TContactPayload, { contactId: number }>('test.contact', {
  describe: (payload) => `Test contact ${payload.firstName} ${payload.lastName}`,
  async send(client, payload, row) {
    const contact = await client.createContact({ idempotencyKey: row.id, ...payload });
    return { contactId: contact.id };
  },
  async onDone(_tx, row) {
    landed.push(row.id);
  },
});

/** A write kind whose sends wait until the test lets them finish: a PSA that is slow to answer. */
const gate = { sends: [] as string[], open: null as (() => void) | null, opened: Promise.resolve() };
function closeGate(): void {
  gate.opened = new Promise((resolve) => {
    gate.open = resolve;
  });
}
definePsaWrite<{ label: string }, { label: string }>('test.slow', {
  describe: (payload) => `Slow write ${payload.label}`,
  async send(_client, payload) {
    gate.sends.push(payload.label);
    await gate.opened;
    return { label: payload.label };
  },
});

/** A write kind whose summary cannot be built (a payload of an older shape): the list shows its kind. */
definePsaWrite<{ label: string }, null>('test.undescribable', {
  describe: () => {
    throw new Error('no summary for this payload');
  },
  send: async () => null,
});

let t: TTestApp;
let sim: TPsaSimulator;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
let companyId: number;

withSimulatorApp({}, async (ready) => {
  ({ t, sim } = ready);
  ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() }));
  direct = simulatorPsaClient(sim, 'connectwise', 'direct-outbox');
  for await (const company of direct.streamCompanies()) {
    companyId = company.id;
    break;
  }
});

let counter = 0;
function newContact(): TContactPayload {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return { companyId, firstName: 'Outbox', lastName: `Person${tag}`, email: `outbox.${tag}@example.com` };
}

async function contactsIn(payload: TContactPayload): Promise<TPsaContact[]> {
  return direct.findContactsByEmail(payload.email);
}

async function store(payload: TContactPayload, options: { key?: string; target?: string } = {}) {
  return t.deps.database.db.transaction((tx) =>
    enqueuePsaWrite(tx, { mspId: msp.id, kind: 'test.contact', idempotencyKey: options.key ?? `key-${payload.email}`, target: { type: 'contact-test', id: options.target ?? payload.email }, payload }, t.deps.now()),
  );
}

/** Runs the retry loop until nothing is due, moving the clock past each backoff. */
async function drain(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    t.advanceClock(5 * 60_000);
    if ((await runPsaOutboxPass(t.deps)) === 0) return;
  }
}

describe('PSA outbox', () => {
  it('sends a stored write at once when the PSA answers, exactly once', async () => {
    const payload = newContact();
    const row = await store(payload);
    const outcome = await attemptPsaWrite(t.deps, msp.id, row.id);
    expect(outcome.status).toBe('done');
    expect(landed).toContain(row.id);
    expect(await contactsIn(payload)).toHaveLength(1);
    expect(await psaWritesFor(t.deps.database.db, msp.id, 'contact-test', [payload.email])).toEqual([]);
  });

  it('keeps a write the PSA could not take (503, 429, a dropped connection) and the retry loop lands it once', async () => {
    const kinds = [503, 429, 'drop'] as const;
    const payloads = kinds.map(() => newContact());
    const rows = [];
    for (const [index, kind] of kinds.entries()) {
      const payload = payloads[index];
      if (!payload) throw new Error('no payload');
      const row = await store(payload);
      rows.push(row);
      // As many failures as the client's own quick retries (4 attempts).
      sim.faults.failNext({ kind, count: 4, path: '/v4_6_release/apis/3.0/company/contacts', method: 'POST' });
      const outcome = await attemptPsaWrite(t.deps, msp.id, row.id);
      expect(outcome.status).toBe('pending');
      sim.faults.reset();
    }
    const pending = await psaWritesFor(t.deps.database.db, msp.id, 'contact-test', payloads.map((p) => p.email));
    expect(pending.map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);
    expect(pending.every((row) => row.attempts === 1 && row.lastError !== null)).toBe(true);
    await drain();
    for (const payload of payloads) expect(await contactsIn(payload)).toHaveLength(1);
    expect(await psaWritesFor(t.deps.database.db, msp.id, 'contact-test', payloads.map((p) => p.email))).toEqual([]);
  }, 60_000);

  it('does not duplicate a create whose answer was lost after the PSA stored it', async () => {
    const payload = newContact();
    const row = await store(payload);
    sim.faults.failNext({ kind: 503, count: 4, phase: 'after', path: '/v4_6_release/apis/3.0/company/contacts', method: 'POST' });
    await attemptPsaWrite(t.deps, msp.id, row.id);
    sim.faults.reset();
    await drain();
    expect(await contactsIn(payload)).toHaveLength(1);
  }, 30_000);

  it('answers the same row for a repeated idempotency key', async () => {
    const payload = newContact();
    const first = await store(payload, { key: 'same-key-twice' });
    const second = await store(newContact(), { key: 'same-key-twice' });
    expect(second.id).toBe(first.id);
    expect(second.payload).toEqual(payload);
  });

  it('sends writes about one target in the order they were stored', async () => {
    const first = newContact();
    const second = newContact();
    const target = `ordered-${counter}`;
    const firstRow = await store(first, { target });
    const secondRow = await store(second, { target });
    sim.faults.failNext({ kind: 503, count: 4, path: '/v4_6_release/apis/3.0/company/contacts', method: 'POST' });
    expect((await attemptPsaWrite(t.deps, msp.id, firstRow.id)).status).toBe('pending');
    sim.faults.reset();
    // The PSA is up again, but the second waits for the first.
    expect((await attemptPsaWrite(t.deps, msp.id, secondRow.id)).status).toBe('pending');
    expect(await contactsIn(second)).toHaveLength(0);
    await drain();
    const [firstDone, secondDone] = await Promise.all([firstRow, secondRow].map(async (row) => (await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id))))[0]));
    expect(firstDone?.status).toBe('done');
    expect(secondDone?.status).toBe('done');
    expect((firstDone?.doneAt?.getTime() ?? 0) <= (secondDone?.doneAt?.getTime() ?? 0)).toBe(true);
    expect(await contactsIn(second)).toHaveLength(1);
  }, 30_000);

  it('marks a write the PSA refuses as failed with the reason, audits it, lists it, and an admin can send it again', async () => {
    const payload = { ...newContact(), companyId: 987_654 };
    const row = await store(payload);
    const outcome = await attemptPsaWrite(t.deps, msp.id, row.id);
    expect(outcome.status).toBe('failed');
    const listed = await admin.get('/db/api/psa-writes?status=failed');
    expect(listed.statusCode).toBe(200);
    const writes = listed.json<{ writes: Array<{ id: string; status: string; lastError: string | null }> }>().writes;
    const shown = writes.find((write) => write.id === row.id);
    expect(shown?.status).toBe('failed');
    expect(shown?.lastError).toBeTruthy();
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'psa_write.test.contact'), eq(auditEvents.target, payload.email)));
    expect(audits.map((event) => event.outcome)).toContain('failure');

    const retried = await admin.post(`/db/api/psa-writes/${row.id}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json<{ write: { status: string; attempts: number } }>().write).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await admin.post('/db/api/psa-writes/00000000-0000-4000-8000-000000000000/retry', {})).statusCode).toBe(404);
  });

  // The journey's race: the retry loop landed the write while the admin looked at the list, then they pressed Send again.
  it('answers Send again on a write the retry loop landed meanwhile as sent, without sending it again', async () => {
    const payload = newContact();
    const row = await store(payload);
    sim.faults.failNext({ kind: 503, count: 4, path: '/v4_6_release/apis/3.0/company/contacts', method: 'POST' });
    expect((await attemptPsaWrite(t.deps, msp.id, row.id)).status).toBe('pending');
    sim.faults.reset();
    await drain();
    const retried = await admin.post(`/db/api/psa-writes/${row.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<{ write: TPsaWrite }>().write).toMatchObject({ id: row.id, status: 'done', attempts: 2 });
    expect(await contactsIn(payload)).toHaveLength(1);
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'psa_write.retry'), eq(auditEvents.target, row.id)));
    expect(audits).toHaveLength(0);
  });

  it('never sends a write an admin sends again while another replica is still sending it', async () => {
    gate.open?.();
    gate.opened = Promise.resolve();
    gate.sends.length = 0;
    const row = await t.deps.database.db.transaction((tx) =>
      enqueuePsaWrite(tx, { mspId: msp.id, kind: 'test.slow', idempotencyKey: `slow-replica-${Date.now()}`, target: { type: 'slow-test', id: 'three' }, payload: { label: 'leased' } }, t.deps.now()),
    );
    const otherLease = new Date(t.deps.now().getTime() + PSA_WRITE_LEASE_MS);
    await t.deps.database.db.update(psaOutbox).set({ lockedUntil: otherLease }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
    const retried = await admin.post(`/db/api/psa-writes/${row.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<{ write: TPsaWrite }>().write.status).toBe('pending');
    expect(gate.sends).toEqual([]);
    const [kept] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
    expect(kept?.lockedUntil).toEqual(otherLease);
    await t.deps.database.db.update(psaOutbox).set({ status: 'done', lockedUntil: null }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
  });

  it('never lets another MSP see or resend a write', async () => {
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other), nextIp());
    const payload = { ...newContact(), companyId: 987_655 };
    const row = await store(payload);
    await attemptPsaWrite(t.deps, msp.id, row.id);
    const listed = (await otherAdmin.get('/db/api/psa-writes')).json<{ writes: Array<{ id: string }> }>().writes;
    expect(listed.map((write) => write.id)).not.toContain(row.id);
    expect((await otherAdmin.post(`/db/api/psa-writes/${row.id}/retry`, {})).statusCode).toBe(404);
  });

  // Regression (issue #10): a send still going when the app's clock passed its lease was sent again beside itself
  // (by a request waiting on it or by the retry loop), and the late first send could land after a later write.
  it('never sends a write a second time while this process is still sending it, even after its lease ran out', async () => {
    closeGate();
    gate.sends.length = 0;
    const row = await t.deps.database.db.transaction((tx) =>
      enqueuePsaWrite(tx, { mspId: msp.id, kind: 'test.slow', idempotencyKey: `slow-${Date.now()}`, target: { type: 'slow-test', id: 'one' }, payload: { label: 'first' } }, t.deps.now()),
    );
    const first = attemptPsaWrite(t.deps, msp.id, row.id);
    await expect.poll(() => gate.sends.length).toBe(1);
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    // A request and the retry loop both find the row's lease expired in the database: neither sends it again.
    await expect(attemptPsaWrite(t.deps, msp.id, row.id)).resolves.toMatchObject({ status: 'pending', error: null });
    await drain();
    expect(gate.sends).toEqual(['first']);
    gate.open?.();
    await expect(first).resolves.toMatchObject({ status: 'done' });
    expect((await psaWritesFor(t.deps.database.db, msp.id, 'slow-test', ['one'])).length).toBe(0);
  });

  it('records nothing from a send whose lease another worker took over meanwhile', async () => {
    closeGate();
    gate.sends.length = 0;
    const row = await t.deps.database.db.transaction((tx) =>
      enqueuePsaWrite(tx, { mspId: msp.id, kind: 'test.slow', idempotencyKey: `slow-taken-${Date.now()}`, target: { type: 'slow-test', id: 'two' }, payload: { label: 'taken' } }, t.deps.now()),
    );
    const first = attemptPsaWrite(t.deps, msp.id, row.id);
    await expect.poll(() => gate.sends.length).toBe(1);
    // Another replica's lease on the row (as when this one stalled past its own).
    const otherLease = new Date(t.deps.now().getTime() + PSA_WRITE_LEASE_MS * 2);
    await t.deps.database.db.update(psaOutbox).set({ lockedUntil: otherLease }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
    gate.open?.();
    await expect(first).resolves.toMatchObject({ status: 'pending', error: null });
    const [kept] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
    expect(kept).toMatchObject({ status: 'pending', attempts: 0, lockedUntil: otherLease });
    await t.deps.database.db.update(psaOutbox).set({ status: 'done', lockedUntil: null }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, row.id)));
  });

  it('two workers (two replicas) draining at once send each write once', async () => {
    const payloads = Array.from({ length: 6 }, () => newContact());
    for (const payload of payloads) await store(payload);
    const replicaA = createPsaOutboxWorker(t.deps, { intervalMs: 0 });
    const replicaB = createPsaOutboxWorker(t.deps, { intervalMs: 0 });
    await Promise.all([replicaA.runOnce(), replicaB.runOnce()]);
    for (const payload of payloads) expect(await contactsIn(payload)).toHaveLength(1);
  }, 30_000);
  it('lists each write with what it does in plain words and the ticket it is about, never another MSP’s ticket or write', async () => {
    const db = t.deps.database.db;
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other), nextIp());
    const externalId = 880_000 + counter;
    counter += 1;
    await upsertTicketCopies(db, msp.id, 'CONNECTWISE', [{ externalId, summary: 'Label printer on floor 2 offline', isClosed: false }]);
    await upsertTicketCopies(db, other.id, 'CONNECTWISE', [{ externalId: externalId + 1, summary: 'Another MSP’s payroll server', isClosed: false }]);
    const ticketRowOf = async (mspId: string, id: number) => {
      const [row] = await db.select({ id: psaTickets.id }).from(psaTickets).where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.externalId, String(id))));
      if (!row) throw new Error('no ticket copy');
      return row.id;
    };
    const ownTicketRow = await ticketRowOf(msp.id, externalId);
    const foreignTicketRow = await ticketRowOf(other.id, externalId + 1);
    const stored = async (kind: string, key: string, target: { type: string; id: string }, payload: unknown) =>
      db.transaction((tx) => enqueuePsaWrite(tx, { mspId: msp.id, kind, idempotencyKey: `${key}-${externalId}`, target, payload }, t.deps.now()));
    const timeEntry = await stored(QUEUE_WRITES.timeEntry, 'summary-time', { type: 'ticket', id: ownTicketRow }, { timerId: '00000000-0000-4000-8000-000000000001', ticketId: externalId, memberId: 1, start: '2026-01-05T09:00:00Z', end: '2026-01-05T09:25:00Z', minutes: 25, notes: 'Reseated the cable' });
    // A write of this MSP whose target names another MSP's ticket copy: the join keeps the tenant, so no ticket shows.
    const strayNote = await stored(QUEUE_WRITES.note, 'summary-stray', { type: 'ticket', id: foreignTicketRow }, { noteId: '00000000-0000-4000-8000-000000000002', ticketId: externalId + 1, text: 'x', kind: 'internal', noteType: null, memberId: null });
    const contact = await stored('test.contact', 'summary-contact', { type: 'contact-test', id: `summary-${externalId}` }, { companyId, firstName: 'Ada', lastName: 'Lovelace', email: `ada.${externalId}@example.com` });
    const odd = await stored('test.undescribable', 'summary-odd', { type: 'slow-test', id: `odd-${externalId}` }, { label: 'odd' });
    const ids = [timeEntry.id, strayNote.id, contact.id, odd.id];
    // Failed for good, as the PSA refused them: nothing here sends them while the test reads the list.
    for (const id of ids) await db.update(psaOutbox).set({ status: 'failed', attempts: 3, lastError: 'The PSA refused the change.' }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, id)));

    const listed = await admin.get('/db/api/psa-writes?status=failed&limit=200');
    expect(listed.statusCode).toBe(200);
    const byId = new Map(listed.json<{ writes: TPsaWrite[] }>().writes.map((write) => [write.id, write]));
    expect(byId.get(timeEntry.id)).toMatchObject({
      summary: 'Time entry of 25 min',
      ticket: { psaTicketId: externalId, ticketNumber: null, summary: 'Label printer on floor 2 offline' },
      status: 'failed',
      attempts: 3,
      lastError: 'The PSA refused the change.',
      nextAttemptAt: null,
    });
    expect(byId.get(strayNote.id)).toMatchObject({ summary: PSA_WRITE_MESSAGES.summary.note('internal'), ticket: null });
    expect(byId.get(contact.id)).toMatchObject({ summary: 'Test contact Ada Lovelace', ticket: null });
    expect(byId.get(odd.id)).toMatchObject({ summary: 'test.undescribable', ticket: null });
    expect(listed.body).not.toContain('Another MSP’s payroll server');

    const theirs = await otherAdmin.get('/db/api/psa-writes?limit=200');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain('Label printer on floor 2 offline');
    for (const id of ids) expect(theirs.body).not.toContain(id);

    // The admin's resend answers the write with its summary and ticket too.
    const retried = await admin.post(`/db/api/psa-writes/${timeEntry.id}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json<{ write: TPsaWrite }>().write).toMatchObject({ id: timeEntry.id, summary: 'Time entry of 25 min', ticket: { psaTicketId: externalId } });
    for (const id of ids) await db.update(psaOutbox).set({ status: 'done', lockedUntil: null }).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, id)));
  }, 30_000);
});
