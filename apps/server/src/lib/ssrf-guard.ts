import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './app-error';

export type TResolveHost = (host: string) => Promise<string[]>;

const resolveWithDns: TResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface TSsrfGuardOptions {
  /** host:port pairs the operator trusts even on private addresses (the embedded simulator). */
  allowList: readonly string[];
  resolveHost?: TResolveHost;
  /** The field the URL came from, for the refusal (default: the PSA address, psaUrl). */
  field?: { name: string; label: string };
  /**
   * The URL is an API root that the SDK appends paths to (a model base URL): a query string or fragment is refused,
   * since it cannot work there and is where a key would hide in an address stored and shown in plain text.
   */
  isApiRoot?: boolean;
}

/**
 * IPv6 ranges whose address carries an IPv4 address (RFC 4291 IPv4-compatible and -mapped, RFC 6145
 * translated, RFC 6052 NAT64, RFC 3056 6to4, RFC 4380 Teredo): each is judged by that IPv4 address,
 * so `[::7f00:1]`, `[::ffff:169.254.169.254]` or `[2002:7f00:1::1]` cannot reach loopback or metadata.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  const word = (high: number | undefined, low: number | undefined) => new ipaddr.IPv4([(high ?? 0) >> 8, (high ?? 0) & 0xff, (low ?? 0) >> 8, (low ?? 0) & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [word(p[6], p[7])];
  // RFC 6052's well-known prefix only; the local-use 64:ff9b:1::/48 (RFC 8215) reaches whatever the operator routes.
  if (range === 'rfc6052') return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [word(p[6], p[7])] : [];
  if (range === '6to4') return [word(p[1], p[2])];
  // Teredo carries the server address in bits 32–63 and the client address, inverted, in bits 96–127.
  if (range === 'teredo') return [word(p[2], p[3]), word((p[6] ?? 0) ^ 0xffff, (p[7] ?? 0) ^ 0xffff)];
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 fall here too.
  if (p.slice(0, 6).every((part) => part === 0)) return [word(p[6], p[7])];
  return null;
}

function isForbiddenIpv4(address: ipaddr.IPv4): boolean {
  // Private, loopback, link-local (cloud metadata), carrier-grade NAT, multicast, broadcast and the
  // reserved and documentation ranges are all refused: only global unicast is a PSA's address.
  return address.range() !== 'unicast';
}

function isForbiddenIpv6(address: ipaddr.IPv6): boolean {
  const embedded = embeddedIpv4(address);
  if (embedded) return embedded.length === 0 || embedded.some(isForbiddenIpv4);
  return address.range() !== 'unicast';
}

/** True for loopback, private, link-local, multicast and other addresses a tenant must never make us call. */
export function isForbiddenAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '');
  // node:net decides what is an address (it refuses the shorthand forms ipaddr.js would accept, like 127.1).
  const version = isIP(literal);
  if (version === 4) return isForbiddenIpv4(ipaddr.IPv4.parse(literal));
  if (version === 6) return isForbiddenIpv6(ipaddr.IPv6.parse(literal));
  return true;
}

/**
 * Whether host and port are on the operator's allow-list, whose entries are `host:port` (an IPv6 host with or
 * without brackets). The port counts: listing one local service must not open the host's other ports.
 */
export function isAllowListed(allowList: readonly string[], host: string, port: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return allowList.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted === `${bare}:${port}` || wanted === `[${bare}]:${port}`;
  });
}

const PSA_URL_FIELD = { name: 'psaUrl', label: 'PSA address' };

/** The reason as the sentence a form shows under the field ("Only https addresses are allowed."), not a lower-case fragment. */
const asSentence = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

const refuseFor =
  (field: { name: string; label: string } = PSA_URL_FIELD) =>
  (reason: string) =>
    new AppError('validation', `That ${field.label} cannot be used: ${reason}.`, { invalidParams: [{ name: field.name, reason: asSentence(reason) }] });

/**
 * Refuses an outbound URL unless it is https to public addresses only (every DNS answer is checked),
 * or its host:port is on the operator's allow-list (DESIGN §4). Credentials in the URL are refused either way.
 */
export async function assertOutboundUrlAllowed(rawUrl: string, options: TSsrfGuardOptions): Promise<void> {
  const refuse = refuseFor(options.field);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse('it is not a valid URL');
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Before the allow-list: a trusted host does not make a password in a stored, displayed and audited URL safe.
  if (url.username || url.password) throw refuse('addresses with a user name or password are not allowed');
  // The raw text, not url.search/url.hash: a bare "?" or "#" parses to empty ones but still breaks the API root.
  if (options.isApiRoot && /[?#]/.test(rawUrl)) throw refuse('it must not have a query string or fragment (anything after ? or #); put a key in the API key field');
  if (isAllowListed(options.allowList, host, port)) return;
  if (url.protocol !== 'https:') throw refuse('only https addresses are allowed');
  const addresses = isIP(host) ? [host] : await (options.resolveHost ?? resolveWithDns)(host).catch(() => [] as string[]);
  if (addresses.length === 0) throw refuse('the host name does not resolve');
  if (addresses.some(isForbiddenAddress)) throw refuse('it points to a private or local network address');
}
