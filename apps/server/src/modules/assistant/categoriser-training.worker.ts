// The worker thread of a full categoriser training (decision 045; started by categoriser-training.ts, built beside the
// server bundle as categoriser-worker.js): trains on the plain data it is given and posts back one reply.
import { parentPort, workerData } from 'node:worker_threads';
import { snapshotBuffers, trainCategoriser } from '@switchboard/assistant';
import type { TTrainingReply, TTrainingRequest } from './categoriser-training';

function reply(): { message: TTrainingReply; transfer: ArrayBuffer[] } {
  try {
    const request = workerData as TTrainingRequest;
    const categoriser = trainCategoriser(request.board, request.tickets);
    const snapshot = categoriser.snapshot();
    return { message: { kind: 'trained', snapshot, serialised: categoriser.serialise() }, transfer: snapshotBuffers(snapshot) };
  } catch (error) {
    return { message: { kind: 'failed', message: error instanceof Error ? error.message : String(error) }, transfer: [] };
  }
}

if (!parentPort) throw new Error('categoriser-training.worker runs as a worker thread of the server, not on its own.');
const { message, transfer } = reply();
parentPort.postMessage(message, transfer);
