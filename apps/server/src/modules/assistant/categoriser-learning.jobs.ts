// Incremental training when tickets close (issue #9): the ticket sync (history, PSA events, reconcile) enqueues one
// durable job per MSP when a copy it wrote is closed; the job teaches the MSP's stored categoriser the tickets closed
// since it was stored (complement naive Bayes counts add up, so this is exact, not an approximation of a retrain).
import type { TAppDeps } from '../../app-deps';
import type { TJobQueue } from '../../lib/job-queue';
import { createKnowledgeEmbeddings } from '../knowledge/knowledge-embeddings';
import { loadMspBoard, type TCategoriserStore } from './mspboard';

export const CATEGORISER_LEARN_QUEUE = 'assistant-categoriser-learn';

export interface TCategoriserLearnJob {
  mspId: string;
}

/**
 * Enqueues the MSP's learning job. The singleton key per MSP makes a burst of closes (a sync batch, many events)
 * one job; a close that arrives while it runs is learnt by the next close's job or the next categorisation.
 * Never throws: a missed enqueue only delays learning, it must not fail the sync that wrote the tickets.
 */
export async function enqueueCategoriserLearning(jobs: Pick<TJobQueue, 'send'>, mspId: string, log: (message: string, error: unknown) => void = () => undefined): Promise<void> {
  try {
    await jobs.send(CATEGORISER_LEARN_QUEUE, { mspId } satisfies TCategoriserLearnJob, { singletonKey: `categoriser:${mspId}` });
  } catch (error) {
    log(`assistant: could not enqueue categoriser learning for MSP ${mspId}`, error);
  }
}

/**
 * The worker: loads the MSP's board and brings its stored model up to date (trains it when it has none yet), then
 * embeds the newly closed resolutions when the MSP has an embedding model (decision 026).
 */
export async function registerCategoriserLearning(deps: TAppDeps, categorisers: TCategoriserStore): Promise<void> {
  const embeddings = createKnowledgeEmbeddings(deps);
  await deps.jobQueue.work<TCategoriserLearnJob>(CATEGORISER_LEARN_QUEUE, async (job, signal) => {
    await embeddings.embedPending(job.mspId);
    const board = await loadMspBoard(deps.database.db, job.mspId);
    if (!board) return;
    try {
      // The signal aborts when the app closes: a full training's worker thread is stopped then, and the job retried.
      await categorisers.forMsp(job.mspId, board, { isFresh: true, signal });
    } catch (error) {
      process.stderr.write(`assistant: categoriser learning for MSP ${job.mspId} failed and will be retried (${error instanceof Error ? error.message : String(error)})\n`);
      throw error;
    }
  });
}
