import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { categoriserFromSnapshot, type TBoardCatalogue, type TCategoriser, type TCategoriserSnapshot, type TTrainingTicket } from '@switchboard/assistant';

/**
 * A full training of an MSP's categoriser runs in a worker thread (decision 045): on the server's own thread 20,000
 * tickets held every request of every MSP for seconds. The main thread reads the rows and stores the model; the worker
 * gets plain data and answers the model's exact snapshot (transferred, so nothing is copied back) and its serialised
 * form for the database (so the main thread does not serialise it either).
 */
export interface TTrainingRequest {
  board: TBoardCatalogue;
  tickets: TTrainingTicket[];
}

/** What the worker posts back: exactly one message, then it ends. */
export type TTrainingReply = { kind: 'trained'; snapshot: TCategoriserSnapshot; serialised: string } | { kind: 'failed'; message: string };

export interface TTrainedModel {
  categoriser: TCategoriser;
  /** categoriser.serialise(), made in the worker: what categoriser_models stores. */
  serialised: string;
}

export interface TTrainingOptions {
  /** Aborting stops the training (a queued one never starts, a running worker is terminated) and rejects it. */
  signal?: AbortSignal;
  /** The worker's heap bound (its old generation): a training past it stops the worker, not the server. */
  heapMb?: number;
}

/** Far above what 20,000 tickets need (about 300 MB measured); a runaway training fails alone instead of taking the process. */
const DEFAULT_HEAP_MB = 2_048;

/** tsx's ESM register module (its `tsx/esm/api` import entry), as a file URL. */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } } | string> };
  const entry = manifest.exports?.['./esm/api'];
  const file = typeof entry === 'object' ? entry.import?.default : undefined;
  if (!file) throw new CategoriserTrainingError('The categoriser could not be trained: tsx has no ESM register entry to run the worker from source.');
  return pathToFileURL(join(dirname(manifestPath), file)).href;
}

/**
 * Where the worker is. The production bundle (scripts/server-bundle.mjs) builds it as categoriser-worker.js beside
 * every server bundle (apps/server/dist, the benches' dist-bench), and this code is inlined into that bundle. From
 * source (`npm start`, the tests: tsx or vitest) this file is itself a .ts module, and the worker is its .ts neighbour:
 * a one-line ESM module registers tsx in the worker thread and imports it (Node 20 does not run a worker's
 * `--import tsx` from execArgv, and the main thread's tsx hooks do not reach a worker).
 */
function workerEntry(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./categoriser-worker.js', import.meta.url);
  const worker = new URL('./categoriser-training.worker.ts', import.meta.url).href;
  const source = `import { register } from ${JSON.stringify(tsxEsmApiUrl())};\nregister();\nawait import(${JSON.stringify(worker)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

export class CategoriserTrainingError extends Error {}

const stoppedError = () => new CategoriserTrainingError('The categoriser training was stopped: the server is closing.');

function isReply(value: unknown): value is TTrainingReply {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  if (value.kind === 'trained') return 'snapshot' in value && 'serialised' in value && typeof value.serialised === 'string';
  return value.kind === 'failed' && 'message' in value && typeof value.message === 'string';
}

function runWorker(request: TTrainingRequest, options: TTrainingOptions): Promise<TTrainedModel> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(stoppedError());
      return;
    }
    const worker = new Worker(workerEntry(), {
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? DEFAULT_HEAP_MB },
    });
    let isSettled = false;
    const settle = (outcome: { model: TTrainedModel } | { error: Error }) => {
      if (isSettled) return;
      isSettled = true;
      options.signal?.removeEventListener('abort', handleAbort);
      if ('model' in outcome) resolve(outcome.model);
      else reject(outcome.error);
      void worker.terminate();
    };
    const handleAbort = () => settle({ error: stoppedError() });
    options.signal?.addEventListener('abort', handleAbort, { once: true });
    worker.on('message', (message: unknown) => {
      if (!isReply(message)) settle({ error: new CategoriserTrainingError('The categoriser could not be trained: its worker thread answered something else than a model.') });
      else if (message.kind === 'failed') settle({ error: new CategoriserTrainingError(`The categoriser could not be trained: ${message.message}`) });
      else settle({ model: { categoriser: categoriserFromSnapshot(message.snapshot), serialised: message.serialised } });
    });
    worker.on('error', (error: Error) => {
      const isOutOfMemory = 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle({ error: new CategoriserTrainingError(`The categoriser could not be trained: its worker thread ${isOutOfMemory ? 'ran out of memory' : `failed (${error.message})`}.`) });
    });
    worker.on('exit', (code) => settle({ error: new CategoriserTrainingError(`The categoriser could not be trained: its worker thread stopped (exit code ${code}) before it answered.`) }));
  });
}

// One training at a time per process: each takes a core and a few hundred MB, and a replica is sized at one vCPU
// (docs/operations.md). The others wait their turn in order.
let isRunning = false;
const waiting: Array<() => void> = [];

async function takeTurn(signal: AbortSignal | undefined): Promise<void> {
  if (!isRunning) {
    isRunning = true;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const handleAbort = () => {
      const index = waiting.indexOf(start);
      if (index >= 0) waiting.splice(index, 1);
      reject(stoppedError());
    };
    const start = () => {
      signal?.removeEventListener('abort', handleAbort);
      resolve();
    };
    waiting.push(start);
    signal?.addEventListener('abort', handleAbort, { once: true });
  });
}

/** Hands the turn to the next waiting training, if any, so a newcomer cannot slip in between. */
function giveBackTurn(): void {
  const next = waiting.shift();
  if (next) next();
  else isRunning = false;
}

/** Trains the categoriser on `request` in a worker thread, one training at a time per process; rejects with a plain-words CategoriserTrainingError. */
export async function trainInWorker(request: TTrainingRequest, options: TTrainingOptions = {}): Promise<TTrainedModel> {
  await takeTurn(options.signal);
  try {
    return await runWorker(request, options);
  } finally {
    giveBackTurn();
  }
}

export type TTrainCategoriser = typeof trainInWorker;
