import { isPsaError, type PsaClient, type TPsaContactWithCompany, type TPsaErrorKind, type TPsaMemberWithPhone, type TPsaType } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { appErrorFromPsaError } from '../integrations/psa-errors';
import type { TMspUserKind } from '../auth/auth.repository';

/** What activation needs to ask the MSP's live PSA, injected so the repository stays testable. */
export interface TActivationPsaLookup {
  /** The MSP's PSA client, or null when it has no configured integration. */
  clientFor(mspId: string): Promise<PsaClient | null>;
  warn(details: Record<string, unknown>, message: string): void;
}

export type TLivePsaRecords = { psaType: TPsaType; kind: 'technician'; members: TPsaMemberWithPhone[] } | { psaType: TPsaType; kind: 'client'; contacts: TPsaContactWithCompany[] };

/** The PSA being slow, limiting or refusing our keys must not stop activation: the synchronized copies answer instead. */
const FALLBACK_KINDS: ReadonlySet<TPsaErrorKind> = new Set(['unavailable', 'rate_limited', 'bad_keys']);

/** The activation lookup of the app: the per-MSP client cache of the integrations module, warnings to the request log. */
export function activationPsaLookupFor(deps: Pick<TAppDeps, 'psaClients'>, log: { warn(details: Record<string, unknown>, message: string): void }): TActivationPsaLookup {
  const clients = deps.psaClients;
  return {
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
 * The members or contacts with this e-mail according to the live PSA, or null when the local copies
 * must answer (no integration, or the PSA unavailable, rate limiting or refusing the keys). Other PSA
 * failures become the API's psa_* errors.
 */
export async function lookUpLivePsaRecords(lookup: TActivationPsaLookup, mspId: string, kind: TMspUserKind, email: string): Promise<TLivePsaRecords | null> {
  const client = await lookup.clientFor(mspId);
  if (!client) return null;
  try {
    return kind === 'technician'
      ? { psaType: client.psaType, kind, members: await client.findMembersByEmail(email) }
      : { psaType: client.psaType, kind, contacts: await client.findContactsByEmail(email) };
  } catch (error) {
    if (!isPsaError(error)) throw error;
    if (!FALLBACK_KINDS.has(error.kind)) throw appErrorFromPsaError(error);
    lookup.warn({ mspId, psaType: client.psaType, psaErrorKind: error.kind }, 'activation lookup fell back to the synchronized PSA copies');
    return null;
  }
}
