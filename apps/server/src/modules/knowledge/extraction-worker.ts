import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How long and how much memory one PDF or Word extraction may take. mammoth and pdf.js parse synchronously: on the
 * server's own thread a hostile file held every request for minutes and grew the process past its heap. In a worker
 * thread the server keeps answering, and the worker is stopped at these bounds: a 1,000-page text PDF reads in about
 * 3–7 seconds, and the heap bound is several times what a document with 2,000,000 characters of text needs.
 * The heap bound does not count byte arrays, and pdf.js unpacks each stream into one byte array: a 2 MB PDF whose
 * page unpacks to 1 GB took 2 GB that way. So no byte array in the worker may pass `arrayMb`; an honest page or
 * font is a few MB.
 */
export interface TExtractionLimits {
  timeoutMs: number;
  heapMb: number;
  arrayMb: number;
}
export const EXTRACTION_LIMITS: TExtractionLimits = { timeoutMs: 20_000, heapMb: 512, arrayMb: 64 };

/**
 * Extractions at once per process; the rest wait their turn. Each may take up to `heapMb` (mammoth needs about
 * 350 MB for a Word document near 2,000,000 characters), and a replica is sized at one vCPU (docs/operations.md).
 */
const MAX_RUNNING = 1;
/** Extractions that may wait for a slot: each holds its file (up to 10 MB) meanwhile; past this a newcomer is refused (busy). */
const MAX_WAITING = 4;

export type TWorkerOutcome = { kind: 'text'; text: string } | { kind: 'tooManyPages' } | { kind: 'unreadable' } | { kind: 'tooComplex' } | { kind: 'busy' };

// The worker's code is plain CommonJS given as a string (eval): the production bundle is one file, so a separate
// worker module would not be beside it. The libraries are resolved here, by the server's own resolution, and the
// worker requires them by absolute path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Every \`new Uint8Array(length)\` past the bound throws (pdf.js's stream buffers are made so); pdf.js may swallow
// the error and go on, so the worker remembers it and answers tooComplex. Without DecompressionStream pdf.js inflates
// in JavaScript into such arrays; with it, it gathered a whole stream's output natively before looking at its size.
delete globalThis.DecompressionStream;
let isOverArrayBound = false;
const maxArrayBytes = workerData.arrayMb * 1024 * 1024;
globalThis.Uint8Array = new Proxy(Uint8Array, {
  construct(target, args, newTarget) {
    if (typeof args[0] === 'number' && args[0] > maxArrayBytes) {
      isOverArrayBound = true;
      throw new RangeError('byte array over the extraction bound');
    }
    return Reflect.construct(target, args, newTarget);
  },
});
async function read({ kind, bytes, maxPages, paths }) {
  if (kind === 'docx') {
    const mammoth = require(paths.mammoth);
    return { kind: 'text', text: (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value };
  }
  const { getDocumentProxy, extractText } = require(paths.unpdf);
  const pdf = await getDocumentProxy(bytes);
  if (pdf.numPages > maxPages) return { kind: 'tooManyPages' };
  return { kind: 'text', text: (await extractText(pdf, { mergePages: true })).text };
}
read(workerData).then(
  (outcome) => parentPort.postMessage(isOverArrayBound ? { kind: 'tooComplex' } : outcome),
  () => parentPort.postMessage({ kind: isOverArrayBound ? 'tooComplex' : 'unreadable' }),
);
`;

let libraryPaths: { mammoth: string; unpdf: string } | undefined;
function libraryPathsOf() {
  const requireHere = createRequire(import.meta.url);
  libraryPaths ??= { mammoth: requireHere.resolve('mammoth'), unpdf: requireHere.resolve('unpdf') };
  return libraryPaths;
}

let running = 0;
const waiting: Array<() => void> = [];
/** Takes a slot, waiting for one if need be; false at once when MAX_WAITING are already waiting. */
async function takeSlot(): Promise<boolean> {
  if (running < MAX_RUNNING) {
    running += 1;
    return true;
  }
  if (waiting.length >= MAX_WAITING) return false;
  await new Promise<void>((resolve) => waiting.push(resolve));
  return true;
}
/** Hands the slot to the next waiting extraction, if any (so a newcomer cannot slip in between). */
function giveBackSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

function isOutcome(value: unknown): value is TWorkerOutcome {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  if (value.kind === 'text') return 'text' in value && typeof value.text === 'string';
  return value.kind === 'tooManyPages' || value.kind === 'unreadable' || value.kind === 'tooComplex';
}

function runWorker(kind: 'pdf' | 'docx', bytes: Uint8Array, maxPages: number, limits: TExtractionLimits): Promise<TWorkerOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { kind, bytes, maxPages, arrayMb: limits.arrayMb, paths: libraryPathsOf() },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let isSettled = false;
    const settle = (outcome: TWorkerOutcome) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve(outcome);
      // pdf.js may keep handles open after answering: the worker is stopped, not left to exit.
      void worker.terminate();
    };
    const timer = setTimeout(() => settle({ kind: 'tooComplex' }), limits.timeoutMs);
    worker.on('message', (message: unknown) => settle(isOutcome(message) ? message : { kind: 'unreadable' }));
    worker.on('error', (error: Error) => settle('code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'tooComplex' } : { kind: 'unreadable' }));
    worker.on('exit', () => settle({ kind: 'unreadable' }));
  });
}

/** The text of a PDF (refused past `maxPages`) or of a Word package, read in a worker thread within `limits`; busy when too many wait. */
export async function readInWorker(kind: 'pdf' | 'docx', bytes: Uint8Array, maxPages: number, limits: TExtractionLimits = EXTRACTION_LIMITS): Promise<TWorkerOutcome> {
  if (!(await takeSlot())) return { kind: 'busy' };
  try {
    return await runWorker(kind, bytes, maxPages, limits);
  } finally {
    giveBackSlot();
  }
}
