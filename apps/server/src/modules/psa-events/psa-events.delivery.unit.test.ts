import { describe, expect, it } from 'vitest';
import { eventDeliveryNotice, usableEventsBaseUrl } from './psa-events.delivery';

describe('PSA event delivery address (decision 022)', () => {
  it('takes an http(s) address with a real host and port', () => {
    expect(usableEventsBaseUrl('https://desk.example.com')).toBe('https://desk.example.com');
    expect(usableEventsBaseUrl('http://127.0.0.1:4317')).toBe('http://127.0.0.1:4317');
  });

  it('refuses no address, port 0, an unspecified host and other schemes', () => {
    for (const url of [undefined, '', 'http://127.0.0.1:0', 'http://0.0.0.0:4317', 'http://[::]:4317', 'ftp://desk.example.com', 'not a url']) {
      expect(usableEventsBaseUrl(url), String(url)).toBeNull();
    }
  });

  it('says nothing when the PSA can call, and names the reconcile loop (or its absence) when it cannot', () => {
    expect(eventDeliveryNotice({ psaEventsUrl: 'https://desk.example.com', psaReconcileIntervalMs: 300_000 })).toBeNull();
    expect(eventDeliveryNotice({ psaEventsUrl: undefined, psaReconcileIntervalMs: 30_000 })).toBe(
      'psa-events: neither PSA_EVENTS_URL nor PUBLIC_URL is set, so no PSA webhooks are registered; the reconcile loop rereads changed tickets every 30 s instead.',
    );
    expect(eventDeliveryNotice({ psaEventsUrl: 'http://127.0.0.1:0', psaReconcileIntervalMs: 0 })).toContain('ticket copies will not follow changes made in the PSA');
  });
});
