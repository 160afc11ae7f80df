import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { assertOutboundUrlAllowed, isForbiddenAddress } from './ssrf-guard';

const publicDns = (addresses: string[]) => () => Promise.resolve(addresses);

describe('isForbiddenAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', 'not-an-ip'])(
    'refuses %s',
    (address) => expect(isForbiddenAddress(address)).toBe(true),
  );

  it.each(['8.8.8.8', '172.32.0.1', '203.0.113.9', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));
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

  it('lets an allow-listed host:port through even over http on loopback, but not another port', async () => {
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3100/login', { allowList: ['127.0.0.1:3100'] })).resolves.toBeUndefined();
    await expect(assertOutboundUrlAllowed('http://127.0.0.1:3101/login', { allowList: ['127.0.0.1:3100'] })).rejects.toBeInstanceOf(AppError);
  });
});
