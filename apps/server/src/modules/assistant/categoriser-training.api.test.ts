import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { trainCategoriser } from '@switchboard/assistant';
import { newLocalSubType, newLocalType } from '@switchboard/contracts';
import { categoriserModels, psaTickets } from '@switchboard/db';
import { loadDemoData } from '@switchboard/psa-sim';
import { buildMsp, type TTestMsp } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { NO_EXTRAS, replaceBoard, upsertTicketingConfig } from '../boards/boards.repository';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';
import { trainInWorker } from './categoriser-training';
import { categoriserStoreFor, createCategoriserStore, loadMspBoard } from './mspboard';

// Decision 045: a full retrain of the categoriser ran on the server's thread and held every request of every MSP for
// seconds (7.5 s for 20,000 tickets). It now runs in a worker thread; these tests hold the server to answering meanwhile.

const TICKETS = 4_000;
/** How long a plain request may wait while a model trains (it waited for the whole training). */
const MAX_ANSWER_MS = 250;
/**
 * The longest the server's thread may be held at once on PostgreSQL while 4,000 tickets train (the old code held it for
 * the whole training: 10.7 s measured). Its own work is small; the margin is for a machine shared by other test runs
 * (2 cores at a load of 19: 316 ms seen once).
 */
const MAX_HOLD_MS = 500;

let t: TTestApp;
let msp: TTestMsp;

const demo = loadDemoData();
const BOARD_ID = 7;

/** The demo board template as the MSP's configured board, with ids. */
async function configureDemoBoard(mspId: string): Promise<void> {
  const db = t.deps.database.db;
  await upsertTicketingConfig(db, mspId, 'CONNECTWISE', {}, t.deps.now());
  let subtypeId = 100;
  const types = demo.boardTemplate.types.map((type, index) => ({
    ...newLocalType(`t${index}`, type.typeName),
    typeId: index + 1,
    isNew: false,
    mspConnectWiseBoardSubTypes: type.subTypes.map((subtype) => ({ ...newLocalSubType(`s${subtypeId}`, subtype.subTypeName), subTypeId: (subtypeId += 1), isNew: false })),
  }));
  await replaceBoard(
    db,
    mspId,
    'CONNECTWISE',
    { boardId: BOARD_ID, boardName: 'Help Desk', newCreatingTicketStatus: 'New', newCreatingTicketStatusId: 1, closingTicketStatus: 'Closed', closingTicketStatusId: 2, priorities: [], mspConnectWiseBoardTypes: types },
    NO_EXTRAS,
    t.deps.now(),
  );
}

/** `count` closed copies made from the demo history, each worded a little differently, closed over the past year. */
function syntheticHistory(count: number, prefix: string): TTicketCopy[] {
  const history = demo.historicalTickets;
  return Array.from({ length: count }, (_, i) => {
    const ticket = history[i % history.length];
    if (!ticket) throw new Error('no demo history');
    const closedAt = new Date(Date.now() - (i + 1) * 3_600_000);
    return {
      externalId: `${prefix}-${i}`,
      summary: `${ticket.summary} (${i % 97})`,
      description: `${ticket.description} Site ${i % 53}, user ${i % 211}.`,
      board: { id: BOARD_ID, name: 'Help Desk' },
      type: { id: null, name: ticket.type },
      subtype: { id: null, name: ticket.subType },
      isClosed: true,
      resolution: ticket.resolution,
      closedAt,
      updatedAt: closedAt,
    };
  });
}

async function mspBoard(mspId: string) {
  const board = await loadMspBoard(t.deps.database.db, mspId);
  if (!board) throw new Error('the MSP has no board');
  return board;
}

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  await configureDemoBoard(msp.id);
  await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', syntheticHistory(TICKETS, 'h'), t.deps.now());
}, 120_000);

afterAll(async () => {
  await t.close();
});

describe('a full categoriser retrain does not hold the server (decision 045)', () => {
  it('answers requests while the model of a few thousand tickets trains (it held the event loop for seconds)', async () => {
    // The longest the event loop was held at once: the longest gap between ticks of a 10 ms timer. (perf_hooks'
    // monitorEventLoopDelay was tried first: on the old code it recorded 3 samples and a 22 ms maximum across a 13.7 s
    // hold, which this timer and the health checks both saw.)
    let lastTick = performance.now();
    let longestHoldMs = 0;
    const ticker = setInterval(() => {
      const tick = performance.now();
      longestHoldMs = Math.max(longestHoldMs, tick - lastTick);
      lastTick = tick;
    }, 10);
    const answered: number[] = [];
    let isTraining = true;
    const started = performance.now();
    const training = categoriserStoreFor(t.deps.database.db, t.deps.now)
      .forMsp(msp.id, await mspBoard(msp.id), { isFresh: true })
      .finally(() => {
        isTraining = false;
      });
    // A cheap request every 50 ms for as long as the retrain runs, each timed from sending to its answer.
    const probes = (async () => {
      while (isTraining) {
        const sent = performance.now();
        const response = await t.app.inject({ method: 'GET', url: '/health' });
        expect(response.statusCode).toBe(200);
        answered.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const categoriser = await training;
    const retrainMs = performance.now() - started;
    await probes;
    clearInterval(ticker);

    expect(categoriser.stats.trainedOn).toBe(TICKETS);
    const [stored] = await t.deps.database.db.select().from(categoriserModels).where(and(eq(categoriserModels.mspId, msp.id), eq(categoriserModels.psaType, 'CONNECTWISE')));
    expect(stored?.trainedOn).toBe(TICKETS);
    const held = `${answered.length} health checks in ${retrainMs.toFixed(0)} ms, slowest ${Math.max(...answered).toFixed(0)} ms; event loop held ${longestHoldMs.toFixed(0)} ms at once`;
    // Requests kept being answered, promptly, all through the retrain (it answered one before and one after).
    expect(answered.length, held).toBeGreaterThanOrEqual(10);
    const sorted = [...answered].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.9)], held).toBeLessThan(MAX_ANSWER_MS);
    if (t.deps.database.pglite) {
      // PGlite runs in the server's thread, so reading the rows and storing the model hold it while they run; no
      // single hold comes near the retrain's length (it was all of it).
      expect(longestHoldMs, held).toBeLessThan(retrainMs * 0.4);
    } else {
      expect(longestHoldMs, held).toBeLessThan(MAX_HOLD_MS);
      expect(Math.max(...answered), held).toBeLessThan(MAX_HOLD_MS);
    }
  }, 120_000);

  it('a model trained in the worker proposes exactly what one trained on this thread does', async () => {
    const board = await mspBoard(msp.id);
    const tickets = syntheticHistory(1_500, 'same').map((copy) => ({ summary: copy.summary, description: copy.description ?? '', typeName: copy.type?.name ?? '', subtypeName: copy.subtype?.name ?? '', boardId: String(BOARD_ID), resolution: copy.resolution ?? null }));
    const inline = trainCategoriser(board.catalogue, tickets);
    const inWorker = await trainInWorker({ board: board.catalogue, tickets });
    expect(inWorker.serialised).toBe(inline.serialise());
    for (const ticket of demo.historicalTickets.slice(0, 120)) {
      for (const text of [ticket.summary, `${ticket.summary}\n${ticket.description}`]) expect(inWorker.categoriser.propose({ text, candidateCount: 5 })).toEqual(inline.propose({ text, candidateCount: 5 }));
    }
  }, 120_000);

  it('a worker that crashes fails the training in plain words and stores nothing; the next training stores the model', async () => {
    const other = await buildMsp(t);
    await configureDemoBoard(other.id);
    await upsertTicketCopies(t.deps.database.db, other.id, 'CONNECTWISE', syntheticHistory(300, 'crash'), t.deps.now());
    const db = t.deps.database.db;
    // A worker whose heap cannot hold the training dies of it (ERR_WORKER_OUT_OF_MEMORY), as a runaway training would.
    const starved = createCategoriserStore(db, t.deps.now, (request, options) => trainInWorker(request, { ...options, heapMb: 4 }));
    await expect(starved.forMsp(other.id, await mspBoard(other.id))).rejects.toThrow('The categoriser could not be trained: its worker thread ran out of memory.');
    const modelOf = async () => (await db.select().from(categoriserModels).where(eq(categoriserModels.mspId, other.id)))[0] ?? null;
    const learntOf = async () => (await db.select({ at: psaTickets.categoriserLearntAt }).from(psaTickets).where(eq(psaTickets.mspId, other.id))).filter((row) => row.at !== null).length;
    expect(await modelOf()).toBeNull();
    expect(await learntOf()).toBe(0);

    const categoriser = await createCategoriserStore(db, t.deps.now).forMsp(other.id, await mspBoard(other.id));
    expect(categoriser.stats.trainedOn).toBe(300);
    expect((await modelOf())?.trainedOn).toBe(300);
    expect(await learntOf()).toBe(300);
  }, 120_000);

  it('stops a training when its job is stopped (the server closing), and one queued behind it never starts', async () => {
    const board = await mspBoard(msp.id);
    const tickets = syntheticHistory(2_000, 'stop').map((copy) => ({ summary: copy.summary, description: copy.description ?? '', typeName: copy.type?.name ?? '', subtypeName: copy.subtype?.name ?? '' }));
    const stopping = new AbortController();
    const running = trainInWorker({ board: board.catalogue, tickets }, { signal: stopping.signal });
    const queued = trainInWorker({ board: board.catalogue, tickets }, { signal: stopping.signal });
    setTimeout(() => stopping.abort(), 200);
    const started = performance.now();
    await expect(running).rejects.toThrow('The categoriser training was stopped: the server is closing.');
    await expect(queued).rejects.toThrow('The categoriser training was stopped: the server is closing.');
    expect(performance.now() - started).toBeLessThan(2_000);
  }, 60_000);
});
