import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { assertOutboundUrlAllowed, isForbiddenAddress } from './ssrf-guard';

const publicDns = (addresses: string[]) => () => Promise.resolve(addresses);

describe('isForbiddenAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', 'not-an-ip'])(
    'refuses %s',
    (address) => expect(isForbiddenAddress(address)).toBe(true),
  );

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '52.1.2.3', '2606:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  it.each(['203.0.113.9', '192.0.2.1', '198.18.0.1', '255.255.255.255', '240.0.0.1', '2001:db8::1', 'fec0::1', '100::1'])('refuses the reserved and documentation address %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(true),
  );

  // Issue #6 §2b: IPv6 forms that embed an IPv4 address were judged as IPv6 and let through.
  describe('IPv6 that embeds an IPv4 address is judged by that address', () => {
    it.each([
      ['IPv4-compatible, dotted', '::127.0.0.1'],
      ['IPv4-compatible, hex', '::7f00:1'],
      ['IPv4-compatible metadata', '::a9fe:a9fe'],
      ['IPv4-compatible private', '::10.0.0.1'],
      ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
      ['IPv4-mapped, hex', '::ffff:7f00:1'],
      ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
      ['IPv4-mapped private', '::ffff:192.168.1.1'],
      ['IPv4-translated (RFC 6145)', '::ffff:0:7f00:1'],
      ['NAT64 loopback', '64:ff9b::127.0.0.1'],
      ['NAT64 metadata, hex', '64:ff9b::a9fe:a9fe'],
      ['NAT64 local-use prefix (RFC 8215)', '64:ff9b:1::808:808'],
      ['6to4 of loopback', '2002:7f00:1::1'],
      ['6to4 of metadata', '2002:a9fe:a9fe::1'],
      ['6to4 of a private address', '2002:c0a8:101::1'],
      ['Teredo with a loopback server', '2001:0:7f00:1::1'],
      ['Teredo with a private client (inverted)', '2001:0:808:808::f5ff:fefe'],
    ])('refuses %s [%s]', (_form, address) => {
      expect(isForbiddenAddress(address)).toBe(true);
      expect(isForbiddenAddress(`[${address}]`)).toBe(true);
    });

    it.each([
      ['IPv4-mapped public', '::ffff:8.8.8.8'],
      ['NAT64 of a public address', '64:ff9b::808:808'],
      ['6to4 of a public address', '2002:808:808::1'],
      ['Teredo between public addresses', '2001:0:808:808::f7fe:f7fe'],
    ])('allows %s [%s]', (_form, address) => expect(isForbiddenAddress(address)).toBe(false));
  });
});

describe('assertOutboundUrlAllowed', () => {
  it('allows https to a host whose every address is public', async () => {
    await expect(assertOutboundUrlAllowed('https://na.myconnectwise.net', { allowList: [], resolveHost: publicDns(['52.1.2.3']) })).resolves.toBeUndefined();
  });

  it('refuses plain http, and a host with one private address among public ones', async () => {
    await expect(assertOutboundUrlAllowed('http://na.myconnectwise.net', { allowList: [], resolveHost: publicDns(['52.1.2.3']) })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('https://rebind.example', { allowList: [], resolveHost: publicDns(['52.1.2.3', '10.0.0.5']) })).rejects.toMatchObject({
      statusCode: 400,
      extra: { invalidParams: [{ name: 'psaUrl' }] },
    });
  });

  it('refuses loopback and metadata literals and names that do not resolve', async () => {
    await expect(assertOutboundUrlAllowed('https://127.0.0.1:8443', { allowList: [] })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('https://[::1]/', { allowList: [] })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('https://169.254.169.254/latest', { allowList: [] })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('https://nowhere.invalid', { allowList: [], resolveHost: publicDns([]) })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('not a url', { allowList: [] })).rejects.toBeInstanceOf(AppError);
  });

  it.each(['https://[::127.0.0.1]/', 'https://[::7f00:1]:8443/', 'https://[::a9fe:a9fe]/latest', 'https://[::ffff:7f00:1]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[2002:7f00:1::1]/', 'https://[2001:0:7f00:1::1]/'])(
    'refuses the URL %s, whose IPv6 host embeds a loopback or metadata IPv4 address',
    async (url) => {
      await expect(assertOutboundUrlAllowed(url, { allowList: [] })).rejects.toMatchObject({ statusCode: 400, extra: { invalidParams: [{ name: 'psaUrl', reason: 'It points to a private or local network address.' }] } });
    },
  );

  it('refuses a host whose DNS answer is an IPv6 form of a private IPv4 address', async () => {
    await expect(assertOutboundUrlAllowed('https://sneaky.example', { allowList: [], resolveHost: publicDns(['52.1.2.3', '::ffff:10.0.0.5']) })).rejects.toBeInstanceOf(AppError);
    await expect(assertOutboundUrlAllowed('https://sneaky.example', { allowList: [], resolveHost: publicDns(['2002:a00:5::1']) })).rejects.toBeInstanceOf(AppError);
  });

  it('lets an allow-listed host:port through even over http on loopback, but not another port', async () => {
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3100/login', { allowList: ['127.0.0.1:3100'] })).resolves.toBeUndefined();
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3101/login', { allowList: ['127.0.0.1:3100'] })).rejects.toBeInstanceOf(AppError);
  });

  // Review s29: the allow-list shortcut came before the credentials check, so http://user:pass@localhost:11434/v1 was saved.
  it('refuses a user name or password in any URL, allow-listed or not', async () => {
    const reason = 'Addresses with a user name or password are not allowed.';
    for (const url of ['http://user:pass@127.0.0.1:3100/v1', 'http://user@127.0.0.1:3100/v1', 'https://user:pass@api.example.com/v1']) {
      await expect(assertOutboundUrlAllowed(url, { allowList: ['127.0.0.1:3100'], resolveHost: publicDns(['52.1.2.3']) })).rejects.toMatchObject({ statusCode: 400, extra: { invalidParams: [{ name: 'psaUrl', reason }] } });
    }
  });

  it('refuses a query string or fragment in an API root (a model base URL), and only there', async () => {
    const field = { name: 'baseUrl', label: 'base URL' };
    for (const url of ['http://127.0.0.1:3100/v1?api-key=SECRET', 'http://127.0.0.1:3100/v1#key', 'http://127.0.0.1:3100/v1?', 'https://api.example.com/v1?api-version=1']) {
      await expect(assertOutboundUrlAllowed(url, { allowList: ['127.0.0.1:3100'], resolveHost: publicDns(['52.1.2.3']), field, isApiRoot: true })).rejects.toMatchObject({
        statusCode: 400,
        message: 'That base URL cannot be used: it must not have a query string or fragment (anything after ? or #); put a key in the API key field.',
        extra: { invalidParams: [{ name: 'baseUrl' }] },
      });
    }
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3100/v1', { allowList: ['127.0.0.1:3100'], field, isApiRoot: true })).resolves.toBeUndefined();
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3100/login?next=1', { allowList: ['127.0.0.1:3100'] })).resolves.toBeUndefined();
  });
});
