import { isPsaError, type PsaClient } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { appErrorFromPsaError } from '../integrations/psa-errors';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { upsertPsaDirectory, type TPsaContactRow } from '../psa-directory/psa-directory.repository';
import { claimDueOutboxRows, deleteOutboxRow, markOutboxAttemptFailed, markOutboxDone, type TOutboxRow } from './companies.repository';

/**
 * The add-contact outbox (decision 013): one attempt at the PSA for an outbox row, shared by the
 * request that stored it and the retry loop that resends it. The PSA adapters look the contact up
 * before resending a create whose answer was lost, so a retry never makes a second contact.
 */

export type TContactOutboxDeps = Pick<TAppDeps, 'database' | 'audit' | 'now'> & { psaClients: Pick<TPsaClientProvider, 'forMsp'> };

export type TAttemptResult =
  | { kind: 'done'; contact: TPsaContactRow; companyName: string | null }
  | { kind: 'retrying'; error: AppError; nextAttemptAt: Date }
  /** The PSA (or the missing integration) refused the add; it will not be retried. */
  | { kind: 'refused'; error: AppError };

/** After this many failed attempts an add is given up and shown as failed (about a day of retries). */
export const OUTBOX_MAX_ATTEMPTS = 12;
const BASE_DELAY_MS = 15_000;
const MAX_DELAY_MS = 4 * 60 * 60_000;
/** How long a claimed row is held by the worker that claimed it. */
export const OUTBOX_LEASE_MS = 2 * 60_000;

/** Exponential backoff with a little jitter: 15 s, 30 s, 1 min … capped at 4 h; a PSA's Retry-After wins when longer. */
export function nextRetryDelayMs(attempts: number, retryAfterSeconds: number | null = null, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(exponential * (0.8 + random() * 0.4));
  return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
}

const PERMANENT_PSA_KINDS = new Set(['validation', 'not_found', 'not_supported', 'bad_keys']);

function classify(error: unknown): { retry: boolean; appError: AppError; retryAfterSeconds: number | null } {
  if (isPsaError(error)) {
    return { retry: !PERMANENT_PSA_KINDS.has(error.kind), appError: appErrorFromPsaError(error), retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof AppError) return { retry: error.statusCode >= 500, appError: error, retryAfterSeconds: null };
  // Anything else (a dropped connection the adapter did not classify) is worth another try.
  return { retry: true, appError: new AppError('psa_unavailable', error instanceof Error ? error.message : 'The PSA did not answer.'), retryAfterSeconds: null };
}

const dbPsaType = (client: PsaClient): TOutboxRow['psaType'] => (client.psaType === 'connectwise' ? 'CONNECTWISE' : 'AUTOTASK');

/** The text kept on a failed row: the PSA's field messages when it gave some. */
function failureText(error: AppError): string {
  const fields = error.extra.invalidParams?.map((param) => (param.name ? `${param.name}: ${param.reason}` : param.reason)) ?? [];
  return [error.detail, ...fields].join(' ').slice(0, 1000);
}

/**
 * Sends one outbox row to the PSA. On success the contact lands in the synchronized copy and the row
 * is done; a PSA that is down leaves it pending with its next attempt time; a refusal is returned
 * (`removeOnRefusal`: the author is waiting and sees the PSA's message, so nothing is kept).
 */
export async function attemptOutboxRow(deps: TContactOutboxDeps, row: TOutboxRow, options: { removeOnRefusal: boolean }): Promise<TAttemptResult> {
  const db = deps.database.db;
  const attempts = row.attempts + 1;
  try {
    const client = await deps.psaClients.forMsp(row.mspId);
    if (dbPsaType(client) !== row.psaType) throw new AppError('psa_validation', `The MSP's PSA is now ${client.psaType}; this contact was meant for ${row.psaType}.`);
    const created = await client.createContact({
      idempotencyKey: row.id,
      companyId: Number(row.externalCompanyId),
      firstName: row.payload.firstName,
      lastName: row.payload.lastName,
      email: row.payload.email,
      phone: row.payload.phone,
      emailTypeId: row.payload.emailTypeId,
      phoneTypeId: row.payload.phoneTypeId,
    });
    const now = deps.now();
    const result = await db.transaction(async (tx) => {
      const written = await upsertPsaDirectory(
        tx,
        row.mspId,
        row.psaType,
        {
          contacts: [
            {
              externalId: String(created.id),
              externalCompanyId: row.externalCompanyId,
              firstName: created.firstName,
              lastName: created.lastName,
              email: created.email ?? row.payload.email,
              phone: created.phone ?? row.payload.phone,
              isActive: created.isActive,
            },
          ],
        },
        now,
      );
      await markOutboxDone(tx, row.mspId, row.id, String(created.id), attempts, now);
      return written;
    });
    const contact = result.contacts[0];
    if (!contact) throw new Error('the created contact was not written to the synchronized copy');
    return { kind: 'done', contact, companyName: result.companiesByExternalId.get(row.externalCompanyId)?.name ?? null };
  } catch (error) {
    const { retry, appError, retryAfterSeconds } = classify(error);
    const now = deps.now();
    if (retry && attempts < OUTBOX_MAX_ATTEMPTS) {
      const nextAttemptAt = new Date(now.getTime() + nextRetryDelayMs(attempts, retryAfterSeconds));
      await markOutboxAttemptFailed(db, row.mspId, row.id, attempts, failureText(appError), nextAttemptAt, now);
      return { kind: 'retrying', error: appError, nextAttemptAt };
    }
    if (options.removeOnRefusal && !retry) await deleteOutboxRow(db, row.mspId, row.id);
    else await markOutboxAttemptFailed(db, row.mspId, row.id, attempts, failureText(appError), null, now);
    return { kind: 'refused', error: appError };
  }
}

export interface TContactOutboxWorker {
  start(): void;
  /** Stops the loop and waits for a pass in progress. */
  stop(): Promise<void>;
  /** One pass over the due rows; how many were attempted. */
  runOnce(): Promise<number>;
}

/**
 * The retry loop: every `intervalMs` it claims due rows of every MSP (SKIP LOCKED and a lease, so two
 * replicas never send the same row at once) and attempts them one by one. Started and stopped with the app.
 */
export function createContactOutboxWorker(deps: TContactOutboxDeps & Pick<TAppDeps, 'audit'>, options: { intervalMs: number; batchSize?: number; log?: (message: string, error?: unknown) => void }): TContactOutboxWorker {
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function pass(): Promise<number> {
    const now = deps.now();
    const rows = await claimDueOutboxRows(deps.database.db, now, new Date(now.getTime() + OUTBOX_LEASE_MS), options.batchSize ?? 10);
    for (const row of rows) {
      const result = await attemptOutboxRow(deps, row, { removeOnRefusal: false });
      if (result.kind !== 'retrying') {
        await deps.audit.record(deps.database.db, {
          mspId: row.mspId,
          actorKind: 'system',
          actorId: row.createdBy,
          action: 'contact.add',
          target: result.kind === 'done' ? result.contact.externalId : row.id,
          outcome: result.kind === 'done' ? 'success' : 'failure',
          details: { via: 'retry', attempts: row.attempts + 1, psaCompanyId: row.externalCompanyId, ...(result.kind === 'refused' ? { reason: result.error.detail } : {}) },
        });
      }
    }
    return rows.length;
  }

  function runOnce(): Promise<number> {
    // One pass at a time per worker: a manual pass waits for the scheduled one.
    const next = chain.then(pass);
    chain = next.catch(() => undefined);
    return next;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      runOnce()
        .catch((error: unknown) => options.log?.('contact outbox pass failed', error))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
    runOnce,
  };
}
