import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isAllowListed, isForbiddenAddress } from './ssrf-guard';

/**
 * The outbound fetch for tenant-supplied URLs (PSA sites, zones, webhooks, model addresses).
 * `assertOutboundUrlAllowed` checks a URL before credentials are sent; this one re-checks every address at
 * CONNECT time, so a host whose DNS answer changes between the two (DNS rebinding), or a redirect, still
 * cannot reach a private or loopback address. Host:port pairs on the operator's allow-list (the embedded
 * simulator) are exempt, by host AND port as at save time. With `followsRedirects: false` a redirect is
 * an error whatever the caller asks (the model SDKs would follow one, taking the request and its key to
 * an address nobody saved).
 */
export function createGuardedFetch(options: { allowList: readonly string[]; followsRedirects?: boolean }): typeof fetch {
  const refusal = (hostname: string) =>
    Object.assign(new Error(`Refused to connect to ${hostname}: it resolves to a private or local network address.`), { code: 'ESSRFREFUSED' });
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => isForbiddenAddress(entry.address));
      if (refused || addresses.length === 0) {
        return callback(refusal(hostname), '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
  // The lookup has no port to match the allow-list against, so the choice is made here, where both are known.
  const connectChecked = buildConnector({ lookup });
  const connectAllowListed = buildConnector({});
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = String(connectOptions.port || (connectOptions.protocol === 'https:' ? 443 : 80));
    if (isAllowListed(options.allowList, host, port)) return connectAllowListed(connectOptions, callback);
    // Node skips `lookup` for an address literal (https://[::7f00:1]/, or a redirect or Autotask zone
    // URL naming one), so every connection also passes this check of the literal itself.
    if (isIP(host) !== 0 && isForbiddenAddress(host)) return callback(refusal(host), null);
    return connectChecked(connectOptions, callback);
  };
  const dispatcher = new Agent({ connect });
  const redirect = options.followsRedirects === false ? { redirect: 'error' as const } : {};
  // undici's own fetch with its own Agent: the two come from the same package, so they agree.
  const guardedFetch = (input: string | URL, init?: Parameters<typeof undiciFetch>[1]) => undiciFetch(input, { ...init, ...redirect, dispatcher });
  // One conversion at the boundary: undici's Response type and the global one (Node's or, where the
  // DOM lib is loaded, the browser's) describe the same object but are distinct declarations.
  return guardedFetch as unknown as typeof fetch;
}
