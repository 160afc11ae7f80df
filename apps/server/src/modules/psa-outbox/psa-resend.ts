import type { TDatabase } from '@switchboard/db';
import type { TPsaResend } from '@switchboard/psa';
import { PSA_WRITE_LEASE_MS } from './psa-outbox';
import { findOtherDoneResultsForTarget, type TPsaOutboxRow } from './psa-outbox.repository';

/**
 * What a write's send tells the PSA client when it creates a record the PSA finds again only by its content (a note, a
 * ConnectWise contact): undefined on the write's first send, which goes straight to the PSA, so a note with the same
 * words as an earlier one is added (review 2026-11-29, finding 2). A send after a recorded attempt (a failure, or an
 * admin's Send again after one) may find its record there already; so may a send after a sender that died mid-send,
 * which records nothing, but whose lease had to run out first, so the write is then older than a lease. Such a resend
 * (TPsaResend) looks first, among the records created since the write was stored, and never takes one that an earlier
 * write about the same target made (`idOfResult` reads that record's PSA id from a done write's result): an identical
 * note sent just before this one is that write's, not this one's.
 */
export async function psaResendOf(db: TDatabase, row: TPsaOutboxRow, now: Date, idOfResult: (result: unknown) => number | null): Promise<TPsaResend | undefined> {
  const ageMs = Math.max(0, now.getTime() - row.createdAt.getTime());
  if (row.attempts === 0 && row.lastError === null && ageMs < PSA_WRITE_LEASE_MS) return undefined;
  const results = await findOtherDoneResultsForTarget(db, row);
  return { firstTriedMsAgo: ageMs, otherWritesIds: results.map(idOfResult).filter((id): id is number => id !== null) };
}

/** The PSA note id in a done note write's result (`{ noteId }`), null for any other result. */
export function noteIdOfResult(result: unknown): number | null {
  if (typeof result !== 'object' || result === null || !('noteId' in result)) return null;
  return typeof result.noteId === 'number' ? result.noteId : null;
}
