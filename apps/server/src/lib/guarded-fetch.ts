import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isForbiddenAddress } from './ssrf-guard';

/**
 * The outbound fetch for tenant-supplied URLs (PSA sites, zones, webhooks). `assertOutboundUrlAllowed`
 * checks a URL before credentials are sent; this one re-checks every address at CONNECT time, so a
 * host whose DNS answer changes between the two (DNS rebinding) still cannot reach a private or
 * loopback address. Hosts on the operator's allow-list (the embedded simulator) are exempt.
 */
export function createGuardedFetch(options: { allowList: readonly string[] }): typeof fetch {
  const allowedHosts = new Set(options.allowList.map((entry) => entry.toLowerCase().replace(/:\d+$/, '').replace(/^\[|\]$/g, '')));
  const refusal = (hostname: string) =>
    Object.assign(new Error(`Refused to connect to ${hostname}: it resolves to a private or local network address.`), { code: 'ESSRFREFUSED' });
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const isAllowListed = allowedHosts.has(hostname.toLowerCase());
      const refused = isAllowListed ? undefined : addresses.find((entry) => isForbiddenAddress(entry.address));
      if (refused || addresses.length === 0) {
        return callback(refusal(hostname), '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
  // Node skips `lookup` for an address literal (https://[::7f00:1]/, or a redirect or Autotask zone
  // URL naming one), so every connection also passes this check of the literal itself.
  const connectWithLookup = buildConnector({ lookup });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (isIP(host) !== 0 && !allowedHosts.has(host) && isForbiddenAddress(host)) return callback(refusal(host), null);
    return connectWithLookup(connectOptions, callback);
  };
  const dispatcher = new Agent({ connect });
  // undici's own fetch with its own Agent: the two come from the same package, so they agree.
  const guardedFetch = (input: string | URL, init?: Parameters<typeof undiciFetch>[1]) => undiciFetch(input, { ...init, dispatcher });
  // One conversion at the boundary: undici's Response type and the global one (Node's or, where the
  // DOM lib is loaded, the browser's) describe the same object but are distinct declarations.
  return guardedFetch as unknown as typeof fetch;
}
