import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { auditEvents, psaOutbox } from '@switchboard/db';
import type { PsaClient, TPsaCompany } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { AppError } from '../../lib/app-error';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TTestMsp } from '../../../test/factories';
import { nextIp } from '../auth/auth-test-helpers';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import * as outbox from './psa-outbox';

// Regressions of the PSA write path review (2026-11-29): findings 1, 3 and 9 of the outbox.

/**
 * Another replica's outbox: a second instance of the module (its own kinds and in-flight map), on the same database
 * and PSA, as a second server process has. The query string makes the module loader evaluate the file again.
 */
const REPLICA_MODULE = './psa-outbox.ts?replica=b';
async function importReplicaOutbox(): Promise<typeof outbox> {
  return (await import(/* @vite-ignore */ REPLICA_MODULE)) as typeof outbox;
}

let t: TTestApp;
let sim: TPsaSimulator;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
let company: TPsaCompany;
let boardId: number;

withSimulatorApp({}, async (ready) => {
  ({ t, sim } = ready);
  ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() }));
  direct = simulatorPsaClient(sim, 'connectwise', 'direct-outbox-faults');
  for await (const candidate of direct.streamCompanies()) {
    if (!candidate.isActive) continue;
    company = candidate;
    break;
  }
  const [board] = await direct.listBoards();
  if (!board) throw new Error('the simulator has no board');
  boardId = board.id;
  // The synchronized copy of the company, as the sync leaves it (the add-contact form needs it).
  await upsertPsaDirectory(t.deps.database.db, msp.id, 'CONNECTWISE', { companies: [{ externalId: String(company.id), name: company.name, identifier: 'OutboxFaults', companyTypes: ['Client'] }], contacts: [] }, t.deps.now());
});

let counter = 0;
const tag = () => `${Date.now().toString(36)}${(counter += 1)}`;

/** A contact create, made retry-safe by the adapter's lookup. */
interface TContactPayload {
  companyId: number;
  firstName: string;
  lastName: string;
  email: string;
}
outbox.definePsaWrite<TContactPayload, { contactId: number }>('test.faults.contact', {
  describe: (payload) => `Test contact ${payload.lastName}`,
  async send(client, payload, row) {
    return { contactId: (await client.createContact({ idempotencyKey: row.id, ...payload })).id };
  },
});

/** A write the PSA refuses for good and whose failure cannot be recorded (its onFailed step throws, as a database blip would). */
const unrecordableSends: string[] = [];
outbox.definePsaWrite<{ label: string }, null>('test.faults.unrecordable', {
  describe: (payload) => `Unrecordable ${payload.label}`,
  async send(_client, payload) {
    unrecordableSends.push(payload.label);
    throw new AppError('validation', 'The PSA refused this change.');
  },
  async onFailed() {
    throw new Error('the failure could not be recorded');
  },
});

/** A contact create the PSA accepts, whose follow-up here (storing the PSA's id) throws every time. */
const followUpSends: string[] = [];
outbox.definePsaWrite<TContactPayload, { contactId: number }>('test.faults.followUp', {
  describe: (payload) => `Test contact ${payload.lastName}`,
  async send(client, payload, row) {
    followUpSends.push(payload.email);
    return { contactId: (await client.createContact({ idempotencyKey: row.id, ...payload })).id };
  },
  async onDone() {
    throw new Error('the PSA contact id could not be stored');
  },
});

/** Sends that take a while on the app's clock (a slow PSA), the second one held until the test lets it finish. */
const slow = { sends: [] as string[], release: () => {}, released: Promise.resolve() };
outbox.definePsaWrite<{ label: string; takesMs: number; isHeld: boolean }, null>('test.faults.slow', {
  describe: (payload) => `Slow ${payload.label}`,
  async send(_client, payload) {
    slow.sends.push(payload.label);
    t.advanceClock(payload.takesMs);
    if (payload.isHeld) await slow.released;
    return null;
  },
});

/** A create the adapter does not look up before posting (a ticket type), so every send is one POST that reaches the PSA. */
const typeSends: string[] = [];
const typeWrite: outbox.TPsaWriteHandler<{ boardId: number; name: string }, { typeId: number }> = {
  describe: (payload) => `Ticket type ${payload.name}`,
  async send(client, payload) {
    typeSends.push(`here:${payload.name}`);
    return { typeId: (await client.createType(payload.boardId, { name: payload.name })).id };
  },
};
outbox.definePsaWrite('test.faults.type', typeWrite);

async function store(kind: string, target: string, payload: unknown) {
  return t.deps.database.db.transaction((tx) => outbox.enqueuePsaWrite(tx, { mspId: msp.id, kind, idempotencyKey: `${kind}-${tag()}`, target: { type: 'faults-test', id: target }, payload }, t.deps.now()));
}

async function rowsOf(ids: string[]) {
  return t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), inArray(psaOutbox.id, ids)));
}

/** Leaves nothing of a test due for the next one. */
async function settle(ids: string[]) {
  await t.deps.database.db.update(psaOutbox).set({ status: 'done', lockedUntil: null }).where(and(eq(psaOutbox.mspId, msp.id), inArray(psaOutbox.id, ids)));
}

describe('PSA outbox under faults', () => {
  // Finding 1: the failure path of one row threw out of the batch loop; the rows after it stayed in the in-memory
  // in-flight map, which every later pass and request skipped, so they were pending until the process restarted.
  it('sends the rest of a batch when one write’s outcome cannot be recorded, and leaves none of them held', async () => {
    const broken = await store('test.faults.unrecordable', `broken-${tag()}`, { label: 'broken' });
    const contacts = [0, 1, 2].map(() => ({ companyId: company.id, firstName: 'Batch', lastName: `Person${tag()}`, email: `batch.${tag()}@example.com` }));
    const rows = [];
    for (const payload of contacts) rows.push(await store('test.faults.contact', payload.email, payload));
    const logged: unknown[] = [];
    const worker = outbox.createPsaOutboxWorker(t.deps, { intervalMs: 0, log: (_message, error) => logged.push(error) });

    await worker.runOnce().catch((error: unknown) => logged.push(error));
    t.advanceClock(5 * 60_000);
    await worker.runOnce().catch((error: unknown) => logged.push(error));

    for (const payload of contacts) expect(await direct.findContactsByEmail(payload.email)).toHaveLength(1);
    expect((await rowsOf(rows.map((row) => row.id))).map((row) => row.status)).toEqual(['done', 'done', 'done']);
    for (const row of [broken, ...rows]) expect(outbox.isPsaWriteInFlight(row.id)).toBe(false);
    // The broken write's problem is told, not swallowed.
    expect(logged.some((error) => String(error).includes('could not be recorded') || (error instanceof AggregateError && error.errors.some((each) => String(each).includes('could not be recorded'))))).toBe(true);
    await settle([broken.id]);
  }, 30_000);

  // Regression (known since review s25): a handler whose onFailed step always threw left its write unsettled for good —
  // the failure was never recorded, so every time the lease ran out the write was sent to the PSA again, forever.
  it('records a refused write as failed once even when its handler’s failure step keeps throwing, and tells of it', async () => {
    const label = `settles-${tag()}`;
    const broken = await store('test.faults.unrecordable', `broken-${tag()}`, { label });
    const logged: unknown[] = [];
    const worker = outbox.createPsaOutboxWorker(t.deps, { intervalMs: 0, log: (_message, error) => logged.push(error) });
    for (let pass = 0; pass < 3; pass += 1) {
      await worker.runOnce().catch((error: unknown) => logged.push(error));
      t.advanceClock(5 * 60_000);
    }
    expect(unrecordableSends.filter((each) => each === label)).toHaveLength(1);
    const [row] = await rowsOf([broken.id]);
    expect(row?.status).toBe('failed');
    expect(row?.lastError).toContain('The PSA refused this change.');
    expect(row?.lockedUntil).toBeNull();
    expect(logged.some((error) => String(error).includes('could not be recorded'))).toBe(true);
    await settle([broken.id]);
  }, 30_000);

  // Regression (review s26, fault B): a handler whose follow-up (onDone, after the PSA accepted the write) kept throwing
  // left the write pending: it was sent again on every pass (found by the resend look-ups, so no copy was added) until
  // its 12th try marked it failed, although the PSA had it. Now it is done with the PSA's answer, and the follow-up's
  // error is told and kept on the row.
  it('records a write the PSA accepted as done when its follow-up keeps throwing: one copy in the PSA, the error told and kept', async () => {
    const contactOf = () => {
      const name = `FollowUp${tag()}`;
      return { companyId: company.id, firstName: 'Done', lastName: name, email: `${name.toLowerCase()}@example.com` };
    };
    const payload = contactOf();
    const row = await store('test.faults.followUp', payload.email, payload);
    const logged: unknown[] = [];
    const worker = outbox.createPsaOutboxWorker(t.deps, { intervalMs: 0, log: (_message, error) => logged.push(error) });
    for (let pass = 0; pass < 3; pass += 1) {
      await worker.runOnce().catch((error: unknown) => logged.push(error));
      t.advanceClock(5 * 60_000);
    }
    expect(followUpSends.filter((each) => each === payload.email)).toHaveLength(1);
    const contacts = await direct.findContactsByEmail(payload.email);
    expect(contacts).toHaveLength(1);
    const [kept] = await rowsOf([row.id]);
    expect(kept).toMatchObject({ status: 'done', attempts: 1, lockedUntil: null, result: { contactId: contacts[0]?.id } });
    expect(kept?.lastError).toBe(MESSAGES.psa.followUpFailed('the PSA contact id could not be stored'));
    expect(logged.some((error) => String(error).includes('the PSA contact id could not be stored'))).toBe(true);
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'psa_write.test.faults.followUp'), eq(auditEvents.target, payload.email)));
    expect(audits.map((audit) => [audit.outcome, audit.details])).toMatchObject([['success', { writeId: row.id, handlerStepFailed: true }]]);

    // Tried at once by a request: answered done, with the follow-up's error for the caller to tell.
    const asked = contactOf();
    const askedRow = await store('test.faults.followUp', asked.email, asked);
    const outcome = await outbox.attemptPsaWrite(t.deps, msp.id, askedRow.id);
    expect(outcome.status).toBe('done');
    expect(String(outcome.status === 'done' ? outcome.followUpError : undefined)).toContain('the PSA contact id could not be stored');
    t.advanceClock(5 * 60_000);
    await outbox.runPsaOutboxPass(t.deps);
    expect(followUpSends.filter((each) => each === asked.email)).toHaveLength(1);
    expect(await direct.findContactsByEmail(asked.email)).toHaveLength(1);
    expect((await rowsOf([askedRow.id]))[0]).toMatchObject({ status: 'done', lastError: MESSAGES.psa.followUpFailed('the PSA contact id could not be stored') });
  }, 30_000);

  // Finding 3: a batch of rows had one lease; with slow sends a later row's lease ran out before its turn, another
  // replica claimed and sent it, and this worker sent it too.
  it('never sends a write another replica claimed while this worker was busy with earlier writes: one POST reaches the PSA', async () => {
    const replica = await importReplicaOutbox();
    const replicaSends: string[] = [];
    replica.definePsaWrite<{ label: string }, null>('test.faults.slow', {
      describe: (payload) => `Slow ${payload.label}`,
      async send(_client, payload) {
        replicaSends.push(payload.label);
        return null;
      },
    });
    replica.definePsaWrite<{ boardId: number; name: string }, { typeId: number }>('test.faults.type', {
      describe: (payload) => `Ticket type ${payload.name}`,
      async send(client, payload) {
        replicaSends.push(`type:${payload.name}`);
        return { typeId: (await client.createType(payload.boardId, { name: payload.name })).id };
      },
    });
    slow.sends.length = 0;
    typeSends.length = 0;
    slow.released = new Promise((resolve) => {
      slow.release = resolve;
    });
    const name = `Outbox type ${tag()}`;
    // Two sends of 61 s each: the second ends past two minutes after the pass began.
    const first = await store('test.faults.slow', `slow-one-${tag()}`, { label: 'one', takesMs: 61_000, isHeld: false });
    const second = await store('test.faults.slow', `slow-two-${tag()}`, { label: 'two', takesMs: 61_000, isHeld: true });
    const third = await store('test.faults.type', `type-${tag()}`, { boardId, name });
    const typesPath = `/v4_6_release/apis/3.0/service/boards/${boardId}/types`;
    const postsBefore = sim.stats().byPath[typesPath] ?? 0;

    const pass = outbox.runPsaOutboxPass(t.deps);
    await expect.poll(() => slow.sends).toEqual(['one', 'two']);
    // Meanwhile the other replica's retry loop runs: it may take what this worker has not started on.
    await replica.runPsaOutboxPass(t.deps);
    slow.release();
    await pass;

    expect((sim.stats().byPath[typesPath] ?? 0) - postsBefore).toBe(1);
    expect(replicaSends).toEqual([`type:${name}`]);
    expect(slow.sends).toEqual(['one', 'two']);
    expect(typeSends).toEqual([]);
    expect((await direct.listTypes(boardId)).filter((type) => type.name === name)).toHaveLength(1);
    expect((await rowsOf([first.id, second.id, third.id])).map((row) => row.status)).toEqual(['done', 'done', 'done']);
  }, 30_000);

  // Finding 9: Retry-After: 1e13 made an invalid date; recording the attempt threw a RangeError (a 500, a row never settled).
  it('keeps an add whose PSA asks to wait 1e13 seconds pending, retried within a day, without a 500', async () => {
    sim.faults.set({ retryAfterSeconds: 1e13 });
    sim.faults.failNext({ kind: 429, count: 1, method: 'POST', path: '/v4_6_release/apis/3.0/company/contacts' });
    const lastName = `Later${tag()}`;
    const before = t.deps.now().getTime();
    let response;
    try {
      response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Wait', lastName, email: `${lastName.toLowerCase()}@example.com` });
    } finally {
      sim.faults.reset();
    }
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ contact: { lastName, status: 'pending' } });
    const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.kind, 'contact.create'), eq(psaOutbox.status, 'pending')));
    if (!write) throw new Error('the add was not kept');
    expect(write).toMatchObject({ attempts: 1, lockedUntil: null });
    const waitMs = write.nextAttemptAt.getTime() - before;
    expect(waitMs).toBeGreaterThan(60 * 60_000);
    expect(waitMs).toBeLessThanOrEqual(24 * 60 * 60_000 + 5_000);

    // A day later the retry loop sends it.
    t.advanceClock(24 * 60 * 60_000 + 60_000);
    await outbox.runPsaOutboxPass(t.deps);
    expect((await rowsOf([write.id]))[0]?.status).toBe('done');
    expect(await direct.findContactsByEmail(`${lastName.toLowerCase()}@example.com`)).toHaveLength(1);
  }, 30_000);
});
