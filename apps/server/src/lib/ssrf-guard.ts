import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from './app-error';

export type TResolveHost = (host: string) => Promise<string[]>;

const resolveWithDns: TResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface TSsrfGuardOptions {
  /** host:port pairs the operator trusts even on private addresses (the embedded simulator). */
  allowList: readonly string[];
  resolveHost?: TResolveHost;
}

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((part) => Number.isInteger(part) && part >= 0 && part <= 255) ? parts : null;
}

function isForbiddenIpv4(address: string): boolean {
  const parts = ipv4Parts(address);
  if (!parts) return true;
  const [a = 0, b = 0, c = 0] = parts;
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, including cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // multicast and reserved
  );
}

function isForbiddenIpv6(address: string): boolean {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return isForbiddenIpv4(mapped[1]);
  if (lower === '::' || lower === '::1') return true;
  const firstGroup = Number.parseInt(lower.split(':')[0] || '0', 16);
  return (
    (firstGroup & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (firstGroup & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (firstGroup & 0xff00) === 0xff00 || // multicast
    lower.startsWith('64:ff9b:') || // NAT64 can reach IPv4 private space
    lower.startsWith('::ffff:')
  );
}

/** True for loopback, private, link-local, multicast and other addresses a tenant must never make us call. */
export function isForbiddenAddress(address: string): boolean {
  const version = isIP(address.replace(/^\[|\]$/g, ''));
  if (version === 4) return isForbiddenIpv4(address);
  if (version === 6) return isForbiddenIpv6(address);
  return true;
}

const refuse = (reason: string) => new AppError('validation', `That PSA address cannot be used: ${reason}.`, { invalidParams: [{ name: 'psaUrl', reason }] });

/**
 * Refuses an outbound URL unless it is https to public addresses only (every DNS answer is checked),
 * or its host:port is on the operator's allow-list (DESIGN §4).
 */
export async function assertOutboundUrlAllowed(rawUrl: string, options: TSsrfGuardOptions): Promise<void> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse('it is not a valid URL');
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (options.allowList.some((entry) => entry.toLowerCase() === `${host}:${port}` || entry.toLowerCase() === `[${host}]:${port}`)) return;
  if (url.protocol !== 'https:') throw refuse('only https addresses are allowed');
  if (url.username || url.password) throw refuse('addresses with credentials are not allowed');
  const addresses = isIP(host) ? [host] : await (options.resolveHost ?? resolveWithDns)(host).catch(() => [] as string[]);
  if (addresses.length === 0) throw refuse('the host name does not resolve');
  if (addresses.some(isForbiddenAddress)) throw refuse('it points to a private or local network address');
}
