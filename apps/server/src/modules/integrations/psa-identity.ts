import { MESSAGES, psaConnectionKeyOf, psaHostOf } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import { isIntegrationConfigured } from './integrations.presenter';
import { findIntegrationForShare, type TIntegrationRow } from './integrations.repository';

/**
 * Which PSA a saved integration reaches (decision 013, "When the PSA connection changes"): `key` compares two
 * connections, `label` names it for an admin. The keys themselves are no part of it: a rotated private key, another
 * API member of the same company or another clientId reach the same PSA, whose ticket numbers mean the same tickets.
 */
export interface TPsaIdentity {
  key: string;
  label: string;
}

/**
 * The PSA the row reaches; null when it reaches none (no row, or keys cleared) or misses what names its PSA.
 * ConnectWise: the site's host and the company id (ConnectWise reads both without regard to case). Autotask: the API
 * user, which belongs to one Autotask database, and where its zone is asked (`psaConnectionKeyOf`, shared with the form).
 */
export function psaIdentityOf(row: TIntegrationRow | null): TPsaIdentity | null {
  if (!row || !isIntegrationConfigured(row)) return null;
  if (row.psaType === 'CONNECTWISE') {
    const { psaUrl, companyId } = row.settings;
    if (!psaUrl || !companyId) return null;
    return { key: psaConnectionKeyOf({ psaType: 'CONNECTWISE', psaUrl, companyId }), label: MESSAGES.psa.connectWiseSite(psaHostOf(psaUrl), companyId.trim()) };
  }
  const { username, zoneDiscoveryUrl } = row.settings;
  if (!username) return null;
  return { key: psaConnectionKeyOf({ psaType: 'AUTOTASK', username, zoneDiscoveryUrl }), label: MESSAGES.psa.autotaskUser(username.trim()) };
}

/**
 * The label of a stored connection key (`integrations.data_psa_connection`, `sync_runs.psa_connection`), for when the
 * keys that named it are gone: the key keeps the host and the company id or user, in lower case.
 */
export function psaLabelOfKey(key: string): string {
  const [psaType, first = '', second = ''] = key.split(' ');
  if (psaType === 'CONNECTWISE') return MESSAGES.psa.connectWiseSite(first, second);
  if (psaType === 'AUTOTASK') return MESSAGES.psa.autotaskUser(first);
  return MESSAGES.psa.connectionUnknown;
}

/**
 * The PSA the MSP's copies, queue, board setup and users' links came from (decision 042): the stored data connection,
 * else (a row saved before it was kept) the PSA of the saved keys. Null: no data is tied to a PSA.
 */
export function dataPsaOf(row: TIntegrationRow | null): TPsaIdentity | null {
  const current = psaIdentityOf(row);
  const key = row?.dataPsaConnection ?? current?.key ?? null;
  if (key === null) return null;
  return { key, label: current?.key === key ? current.label : psaLabelOfKey(key) };
}

/** True when both connections reach the same PSA; a connection that reaches none is never the same as another. */
export function isSamePsa(before: TPsaIdentity | null, after: TPsaIdentity | null): boolean {
  return before !== null && after !== null && before.key === after.key;
}

/**
 * The PSA a piece of work that writes PSA data started with (decision 042, "Work in flight"): its type, and its
 * connection key (null for work stored by an earlier release, which is compared by type alone).
 */
export interface TWorkConnection {
  psaType: TIntegrationRow['psaType'];
  key: string | null;
}

/** The connection work started now would belong to; null when the MSP has no keys saved. */
export function workConnectionOf(row: TIntegrationRow | null): TWorkConnection | null {
  if (!row || !isIntegrationConfigured(row)) return null;
  return { psaType: row.psaType, key: psaIdentityOf(row)?.key ?? null };
}

/** True while the row still reaches the PSA the work started with (false once disconnected). */
export function isStillConnectedTo(row: TIntegrationRow | null, work: TWorkConnection): boolean {
  const current = workConnectionOf(row);
  return current !== null && current.psaType === work.psaType && (work.key === null || current.key === work.key);
}

/** Thrown by `assertStillConnectedTo`: the caller ends its work the way it reports a stop ("connection changed"). */
export class PsaConnectionChanged extends Error {
  constructor() {
    super('The PSA connection changed after this work started.');
    this.name = 'PsaConnectionChanged';
  }
}

/**
 * Decision 042, "Work in flight": the first statement of every transaction that writes PSA data read before it. Locks
 * the MSP's integrations row FOR SHARE until the transaction ends and throws PsaConnectionChanged unless it still
 * reaches `work`'s PSA. Keys for another PSA are saved under FOR UPDATE of that row, with the start-over in the same
 * transaction: either this write commits first and the start-over's later deletes remove it, or it waits for the save
 * and then sees the new keys. Taken first, before any other row lock, so the two never wait on each other in a circle.
 */
export async function assertStillConnectedTo(tx: TDatabase, mspId: string, work: TWorkConnection): Promise<void> {
  if (!isStillConnectedTo(await findIntegrationForShare(tx, mspId), work)) throw new PsaConnectionChanged();
}

/**
 * A transaction that writes PSA data read from `work`'s PSA, the integrations lock first (`assertStillConnectedTo`):
 * keys for another PSA saved since the read refuse it with `changed()` (the caller's plain-words error) instead of
 * mixing the old PSA's rows into the new one's data.
 */
export async function writeForConnection<T>(db: TDatabase, mspId: string, work: TWorkConnection, changed: () => Error, write: (tx: TDatabase) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await assertStillConnectedTo(tx, mspId, work);
      return write(tx);
    });
  } catch (error) {
    throw error instanceof PsaConnectionChanged ? changed() : error;
  }
}
