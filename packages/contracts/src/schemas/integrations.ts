import { z } from 'zod';

/**
 * the MSP's PSA integration as any signed-in user of the MSP may see it —
 * never a key, only a hint of its last characters.
 */
export const ZIntegrationSummary = z.object({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']).nullable(),
  isConfigured: z.boolean(),
  companyId: z.string().nullable(),
  psaUrl: z.string().nullable(),
  username: z.string().nullable(),
  keyHint: z.string().nullable(),
  connectWiseManageIntegrator: z.boolean(),
  microsoftGraphIntegrator: z.boolean(),
  emailIntegrator: z.boolean(),
  /**
   * Which PSA the MSP's copies, queue, board setup and users' PSA links came from (decision 042; `psaConnectionKeyOf`),
   * also after a disconnect; null when no data is tied to a PSA. Keys for another PSA start that data over, so the
   * form warns first. `dataPsaLabel` names it for the admin. Optional: a replica of the previous release, during a
   * rolling restart, does not send them (docs/operations.md §7), and the form then saves without the warning.
   */
  dataPsaConnection: z.string().nullable().optional(),
  dataPsaLabel: z.string().nullable().optional(),
});
export type TIntegrationSummary = z.infer<typeof ZIntegrationSummary>;

/** the summary after the integrator flag changed, with the boards the key check counted (null when disconnecting). */
export const ZIntegratorResult = ZIntegrationSummary.extend({ boardCount: z.number().int().nullable() });
export type TIntegratorResult = z.infer<typeof ZIntegratorResult>;

/** What names a PSA connection: ConnectWise's site address and company id, Autotask's API user and zone address. */
export type TPsaConnectionParts =
  | { psaType: 'CONNECTWISE'; psaUrl: string; companyId: string }
  | { psaType: 'AUTOTASK'; username: string; zoneDiscoveryUrl?: string | null | undefined };

/** Autotask's global zone-information host, which the adapter asks when no zone URL is saved (packages/psa autotask/zone.ts). */
const AUTOTASK_DEFAULT_ZONE_HOST = 'webservices.autotask.net';

/** The host (with a port other than the default) of what an admin typed, scheme or not: "NA.myconnectwise.net/" → "na.myconnectwise.net". */
export function psaHostOf(address: string): string {
  const trimmed = address.trim();
  try {
    return new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`).host;
  } catch {
    return trimmed.toLowerCase();
  }
}

/**
 * The key two connections are compared by (decision 013): the same key is the same PSA, whose ids mean the same
 * records. The keys themselves are no part of it (a rotated key reaches the same PSA). Shared by the server, which
 * stores it, and the integrations form, which warns before keys for another PSA start the data over (decision 042).
 */
export function psaConnectionKeyOf(parts: TPsaConnectionParts): string {
  if (parts.psaType === 'CONNECTWISE') return `CONNECTWISE ${psaHostOf(parts.psaUrl)} ${parts.companyId.trim().toLowerCase()}`;
  const zoneHost = parts.zoneDiscoveryUrl ? psaHostOf(parts.zoneDiscoveryUrl) : AUTOTASK_DEFAULT_ZONE_HOST;
  return `AUTOTASK ${parts.username.trim().toLowerCase()} ${zoneHost}`;
}
