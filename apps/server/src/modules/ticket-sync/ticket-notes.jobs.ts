// ConnectWise ticket rows carry neither the description nor the resolution: both are notes of the ticket (the first
// "detail description" note, and the notes flagged resolution). Without them a ConnectWise MSP's queue tickets have no
// description, Jarvis and the queue's "similar past resolutions" have no past fixes, and the categoriser learns from
// summaries alone. This durable job reads the notes of the copies written or changed since their notes were last read,
// open tickets first, then the latest closed, at a bounded pace per MSP (PSA_NOTES_READS_PER_MINUTE), in the
// background: the sync itself stays at the PSA's paging speed (decision 035).
import { setTimeout as sleep } from 'node:timers/promises';
import { isPsaError, type TPsaNote } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import type { TJobQueue } from '../../lib/job-queue';
import { enqueueCategoriserLearning } from '../assistant/categoriser-learning.jobs';
import { findIntegration } from '../integrations/integrations.repository';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { findCopiesWithUnreadNotes, saveNotesOfCopy } from './ticket-sync.repository';

export const TICKET_NOTES_QUEUE = 'ticket-sync.notes';

export interface TTicketNotesJob {
  mspId: string;
}

/** Copies one pass reads before it hands on to the next job (a restart or another replica carries on from there). */
const NOTES_PER_PASS = 100;

/**
 * Enqueues the MSP's notes reader. One waiting job per MSP ('short' queue): a burst of writes is one job. Never throws:
 * a missed enqueue only delays the notes (the next write enqueues again), it must not fail the sync that wrote the copies.
 */
export async function enqueueTicketNotes(jobs: Pick<TJobQueue, 'send'>, mspId: string, options: { startAfterSeconds?: number } = {}): Promise<void> {
  try {
    await jobs.send(TICKET_NOTES_QUEUE, { mspId } satisfies TTicketNotesJob, { singletonKey: `notes:${mspId}`, ...options });
  } catch {
    // the next write of a ConnectWise copy enqueues the reader again
  }
}

/**
 * The description and resolution a ConnectWise ticket's notes give: the first description note, all resolution notes in
 * order. Internal notes are neither, whatever their kind: the copy's resolution is what Jarvis shows the company's client
 * users as a past resolution, and its description what their ticket list shows.
 */
export function detailsFromNotes(notes: readonly TPsaNote[]): { description: string | null; resolution: string | null } {
  const byTime = [...notes].filter((note) => !note.isInternal).sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id - b.id);
  const text = (note: TPsaNote) => note.text.trim();
  const description = byTime.find((note) => note.kind === 'description' && text(note) !== '');
  const resolution = byTime.filter((note) => note.kind === 'resolution' && text(note) !== '').map(text).join('\n\n');
  return { description: description ? text(description) : null, resolution: resolution === '' ? null : resolution };
}

export interface TTicketNotesDeps extends Pick<TAppDeps, 'database' | 'jobQueue' | 'now' | 'config'> {
  psaClients: Pick<TPsaClientProvider, 'forMsp'>;
  /** Waits between two reads (tests pass a no-op); defaults to a timer. */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** One pass of the reader for an MSP: reads up to NOTES_PER_PASS copies' notes; enqueues the next pass when more wait. */
export async function readTicketNotes(deps: TTicketNotesDeps, job: TTicketNotesJob, signal: AbortSignal): Promise<{ read: number; isMore: boolean }> {
  const perMinute = deps.config.psaNotesReadsPerMinute;
  if (perMinute <= 0) return { read: 0, isMore: false };
  const db = deps.database.db;
  const integration = await findIntegration(db, job.mspId);
  // Autotask tickets carry both fields on the row; a disconnected MSP has no PSA to ask.
  if (integration?.psaType !== 'CONNECTWISE') return { read: 0, isMore: false };
  const pending = await findCopiesWithUnreadNotes(db, job.mspId, NOTES_PER_PASS);
  if (pending.length === 0) return { read: 0, isMore: false };
  const client = await deps.psaClients.forMsp(job.mspId);
  const gapMs = Math.ceil(60_000 / perMinute);
  const pause = deps.pause ?? ((ms: number, abort: AbortSignal) => sleep(ms, undefined, { signal: abort }).catch(() => undefined));
  let read = 0;
  let closedRead = 0;
  for (const copy of pending) {
    if (signal.aborted) break;
    const startedAt = Date.now();
    let notes: TPsaNote[] = [];
    try {
      notes = await client.listNotes(Number(copy.externalId));
    } catch (error) {
      // A ticket the PSA no longer has (or whose notes it refuses to list) is marked read as it is. Anything else — a
      // rate limit or an outage the adapter has retried, keys that stopped working — ends the pass: the queue retries
      // the job later and the copies not read yet stay waiting.
      if (!isPsaError(error) || (error.kind !== 'not_found' && error.kind !== 'validation')) throw error;
    }
    const details = detailsFromNotes(notes);
    if (await saveNotesOfCopy(db, job.mspId, copy.id, { ...details, readAt: deps.now() })) read += 1;
    if (copy.isClosed) closedRead += 1;
    const waited = Date.now() - startedAt;
    if (waited < gapMs) await pause(gapMs - waited, signal);
  }
  // A closed copy's notes are what the categoriser waits for before it learns the copy (its description), and new past
  // resolutions are embedded (when the MSP has an embedding model): both by the learning job.
  if (closedRead > 0) await enqueueCategoriserLearning(deps.jobQueue, job.mspId);
  const isMore = pending.length === NOTES_PER_PASS && !signal.aborted;
  if (isMore) await enqueueTicketNotes(deps.jobQueue, job.mspId);
  return { read, isMore };
}

/** The worker, and a look at start-up for MSPs with notes still to read (copies written before a restart or an upgrade). */
export async function registerTicketNotesReader(deps: TTicketNotesDeps): Promise<void> {
  await deps.jobQueue.work<TTicketNotesJob>(TICKET_NOTES_QUEUE, (job, signal) => readTicketNotes(deps, job, signal).then(() => undefined), { policy: 'short' });
}
