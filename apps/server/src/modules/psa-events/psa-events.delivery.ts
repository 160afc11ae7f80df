import type { TConfig } from '../../config/env';

/**
 * The base address the PSA can call with ticket events, or null when there is none: unset, port 0 (the system picks
 * the port, so the URL names none), or an unspecified host (0.0.0.0, ::) that names no machine (decision 022).
 */
export function usableEventsBaseUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    if (parsed.port === '0' || parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') return null;
    return url;
  } catch {
    return null;
  }
}

/** What the start-up log says once when no webhook can be registered; null when the PSA has an address to call. */
export function eventDeliveryNotice(config: Pick<TConfig, 'psaEventsUrl' | 'psaReconcileIntervalMs'>): string | null {
  if (usableEventsBaseUrl(config.psaEventsUrl) !== null) return null;
  const why = config.psaEventsUrl ? `PSA_EVENTS_URL/PUBLIC_URL (${config.psaEventsUrl}) is not an address the PSA can call` : 'neither PSA_EVENTS_URL nor PUBLIC_URL is set';
  if (config.psaReconcileIntervalMs <= 0) {
    return `psa-events: ${why}, so no PSA webhooks are registered, and the reconcile loop is off (PSA_RECONCILE_INTERVAL_MS=0): ticket copies will not follow changes made in the PSA.`;
  }
  return `psa-events: ${why}, so no PSA webhooks are registered; the reconcile loop rereads changed tickets every ${Math.round(config.psaReconcileIntervalMs / 1000)} s instead.`;
}
