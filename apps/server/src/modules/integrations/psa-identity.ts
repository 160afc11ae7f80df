import { MESSAGES } from '@switchboard/contracts';
import { isIntegrationConfigured } from './integrations.presenter';
import type { TIntegrationRow } from './integrations.repository';

/**
 * Which PSA a saved integration reaches (decision 013, "When the PSA connection changes"): `key` compares two
 * connections, `label` names it for an admin. The keys themselves are no part of it: a rotated private key, another
 * API member of the same company or another clientId reach the same PSA, whose ticket numbers mean the same tickets.
 */
export interface TPsaIdentity {
  key: string;
  label: string;
}

/** Autotask's global zone-information host, which the adapter asks when no zone URL is saved (packages/psa autotask/zone.ts). */
const AUTOTASK_DEFAULT_ZONE_HOST = 'webservices.autotask.net';

/** The host (with a port other than the default) of what an admin typed, scheme or not: "NA.myconnectwise.net/" → "na.myconnectwise.net". */
function hostOf(address: string): string {
  const trimmed = address.trim();
  try {
    return new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`).host;
  } catch {
    return trimmed.toLowerCase();
  }
}

/**
 * The PSA the row reaches; null when it reaches none (no row, or keys cleared) or misses what names its PSA.
 * ConnectWise: the site's host and the company id (ConnectWise reads both without regard to case). Autotask: the API
 * user, which belongs to one Autotask database, and where its zone is asked.
 */
export function psaIdentityOf(row: TIntegrationRow | null): TPsaIdentity | null {
  if (!row || !isIntegrationConfigured(row)) return null;
  if (row.psaType === 'CONNECTWISE') {
    const { psaUrl, companyId } = row.settings;
    if (!psaUrl || !companyId) return null;
    const host = hostOf(psaUrl);
    return { key: `CONNECTWISE ${host} ${companyId.trim().toLowerCase()}`, label: MESSAGES.psa.connectWiseSite(host, companyId.trim()) };
  }
  const { username, zoneDiscoveryUrl } = row.settings;
  if (!username) return null;
  const zoneHost = zoneDiscoveryUrl ? hostOf(zoneDiscoveryUrl) : AUTOTASK_DEFAULT_ZONE_HOST;
  return { key: `AUTOTASK ${username.trim().toLowerCase()} ${zoneHost}`, label: MESSAGES.psa.autotaskUser(username.trim()) };
}

/** True when both connections reach the same PSA; a connection that reaches none is never the same as another. */
export function isSamePsa(before: TPsaIdentity | null, after: TPsaIdentity | null): boolean {
  return before !== null && after !== null && before.key === after.key;
}
