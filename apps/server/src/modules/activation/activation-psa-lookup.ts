import { LRUCache } from 'lru-cache';
import { MESSAGES } from '@switchboard/contracts';
import { isPsaError, type PsaClient, type TPsaContactWithCompany, type TPsaErrorKind, type TPsaMemberWithPhone, type TPsaType } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { createShortLivedCache, type TShortLivedCache } from '../../lib/short-lived-cache';
import { appErrorFromPsaError } from '../integrations/psa-errors';
import type { TMspUserKind } from '../auth/auth.repository';
import type { TWorkConnection } from '../integrations/psa-identity';

export type TLivePsaRecords = { psaType: TPsaType; kind: 'technician'; members: TPsaMemberWithPhone[] } | { psaType: TPsaType; kind: 'client'; contacts: TPsaContactWithCompany[] };

/** What activation needs to ask the MSP's live PSA, injected so the repository stays testable. */
export interface TActivationPsaLookup {
  /** The MSP's PSA client, or null when it has no configured integration. */
  clientFor(mspId: string): Promise<PsaClient | null>;
  /** What anonymous callers may spend of the MSP's PSA requests. */
  budget: TLiveLookupBudget;
  warn(details: Record<string, unknown>, message: string): void;
}

/** Anonymous live look-ups one MSP's PSA gets a minute, per process; past it the caller is asked to wait (429). */
export const ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE = 10;
/** How long a live answer (found or not found) is reused for the same MSP, kind and address. */
export const LIVE_LOOKUP_ANSWER_TTL_MS = 60_000;
const BUDGET_WINDOW_MS = 60_000;
const MAX_CACHED_ANSWERS = 5_000;
const MAX_BUDGETED_MSPS = 10_000;

/**
 * The activation routes are public, and each live look-up spends the MSP's shared PSA request budget (Autotask allows
 * 8,000 an hour for everything the MSP does). This keeps anonymous callers to a small share of it: a live answer is
 * reused for LIVE_LOOKUP_ANSWER_TTL_MS, and an MSP's PSA is asked about at most ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE
 * addresses a minute (sliding window). Both live in the process, like the flood guard and the session cache
 * (decisions 010, 011): with N replicas an MSP's PSA may be asked N times as often, still a small bounded share.
 * An answer is kept per PSA connection: once another PSA is connected, the old one's answers are never used (decision 042).
 */
export interface TLiveLookupBudget {
  /** The live answer for this MSP, PSA connection, kind and address still fresh, if any. */
  cachedAnswer(mspId: string, connection: TWorkConnection, kind: TMspUserKind, email: string): TLivePsaRecords | undefined;
  /** Takes one live look-up of the MSP's minute: 0, or the milliseconds until one is free again (none taken). */
  take(mspId: string): number;
  remember(mspId: string, connection: TWorkConnection, kind: TMspUserKind, email: string, answer: TLivePsaRecords): void;
}

/** One budget per app (so per process): the routes build it once. */
export function createLiveLookupBudget(now: () => Date, options: { perMinute?: number; answerTtlMs?: number } = {}): TLiveLookupBudget {
  const perMinute = options.perMinute ?? ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE;
  const answers: TShortLivedCache<TLivePsaRecords> = createShortLivedCache({ ttlMs: options.answerTtlMs ?? LIVE_LOOKUP_ANSWER_TTL_MS, maxEntries: MAX_CACHED_ANSWERS, now });
  // The times of each MSP's live look-ups in the last minute (at most `perMinute` of them).
  const spent = new LRUCache<string, number[]>({ max: MAX_BUDGETED_MSPS });
  const keyOf = (mspId: string, connection: TWorkConnection, kind: TMspUserKind, email: string) =>
    JSON.stringify([mspId, connection.psaType, connection.key, kind, email.trim().toLowerCase()]);
  return {
    cachedAnswer: (mspId, connection, kind, email) => answers.get(keyOf(mspId, connection, kind, email)),
    take(mspId) {
      const at = now().getTime();
      const recent = (spent.get(mspId) ?? []).filter((time) => time > at - BUDGET_WINDOW_MS && time <= at);
      spent.set(mspId, recent.length >= perMinute ? recent : [...recent, at]);
      const oldest = recent[0];
      return recent.length >= perMinute && oldest !== undefined ? oldest + BUDGET_WINDOW_MS - at : 0;
    },
    remember: (mspId, connection, kind, email, answer) => answers.set(keyOf(mspId, connection, kind, email), answer, answers.ticket()),
  };
}

/** The PSA being slow, limiting or refusing our keys must not stop activation: the synchronized copies answer instead. */
const FALLBACK_KINDS: ReadonlySet<TPsaErrorKind> = new Set(['unavailable', 'rate_limited', 'bad_keys']);

/** The activation lookup of the app: the per-MSP client cache of the integrations module, the app's budget, warnings to the request log. */
export function activationPsaLookupFor(deps: Pick<TAppDeps, 'psaClients'>, budget: TLiveLookupBudget, log: { warn(details: Record<string, unknown>, message: string): void }): TActivationPsaLookup {
  const clients = deps.psaClients;
  return {
    budget,
    async clientFor(mspId) {
      try {
        return await clients.forMsp(mspId);
      } catch (error) {
        if (error instanceof AppError && error.code === 'psa_not_configured') return null;
        throw error;
      }
    },
    warn: (details, message) => log.warn(details, message),
  };
}

/**
 * The members or contacts with this e-mail according to the live PSA of `connection` (or its answer of the last minute),
 * or null when the local copies must answer (no integration, or the PSA unavailable, rate limiting or refusing the keys).
 * `connection` is read before the client is built, so the client is of it or of a later one, whose answer the write
 * refuses (decision 042); an answer is reused only for the same connection. Other PSA failures become the API's psa_* errors. With the MSP's minute of anonymous look-ups spent, the caller is asked to wait
 * (429) rather than answered from the copies: a spray of look-ups must not turn "not found" into a wrong answer for a
 * real person, nor let an activation link to a copy the PSA was not asked about.
 */
export async function lookUpLivePsaRecords(lookup: TActivationPsaLookup, mspId: string, connection: TWorkConnection | null, kind: TMspUserKind, email: string): Promise<TLivePsaRecords | null> {
  if (!connection) return null;
  const cached = lookup.budget.cachedAnswer(mspId, connection, kind, email);
  if (cached) return cached;
  const client = await lookup.clientFor(mspId);
  if (!client) return null;
  const waitMs = lookup.budget.take(mspId);
  if (waitMs > 0) {
    lookup.warn({ mspId, psaType: client.psaType, perMinute: ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE }, 'activation lookups used up their minute of live PSA requests');
    throw new AppError('rate_limited', MESSAGES.tooManyRequests, { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
  }
  try {
    const answer: TLivePsaRecords =
      kind === 'technician' ? { psaType: client.psaType, kind, members: await client.findMembersByEmail(email) } : { psaType: client.psaType, kind, contacts: await client.findContactsByEmail(email) };
    lookup.budget.remember(mspId, connection, kind, email, answer);
    return answer;
  } catch (error) {
    if (!isPsaError(error)) throw error;
    if (!FALLBACK_KINDS.has(error.kind)) throw appErrorFromPsaError(error);
    lookup.warn({ mspId, psaType: client.psaType, psaErrorKind: error.kind }, 'activation lookup fell back to the synchronized PSA copies');
    return null;
  }
}
