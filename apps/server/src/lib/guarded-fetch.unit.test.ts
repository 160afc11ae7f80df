import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
      return;
    }
    response.end('inside');
  });
  // Dual-stack, so the IPv6 forms of loopback would reach it too.
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createGuardedFetch', () => {
  it('refuses, at connect time, a host name that resolves to a loopback address', async () => {
    // "localhost" passes no URL check here: this is the rebinding case, caught when connecting.
    const guardedFetch = createGuardedFetch({ allowList: [] });
    const error = await guardedFetch(`http://localhost:${port}/`).then(
      () => null,
      (caught: unknown) => caught as Error & { cause?: { code?: string; message?: string } },
    );
    expect(error).not.toBeNull();
    expect(error?.cause?.code).toBe('ESSRFREFUSED');
  });

  // Issue #6 §2b: Node skips the lookup for an address literal, so these reached loopback.
  it.each(['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '[::7f00:1]'])('refuses, at connect time, the address literal %s', async (host) => {
    const error = await createGuardedFetch({ allowList: [] })(`http://${host}:${port}/`).then(
      () => null,
      (caught: unknown) => caught as Error & { cause?: { code?: string } },
    );
    expect(error?.cause?.code).toBe('ESSRFREFUSED');
  });

  it('refuses a redirect from an allowed host to a loopback address literal', async () => {
    const guardedFetch = createGuardedFetch({ allowList: [`localhost:${port}`] });
    const error = await guardedFetch(`http://localhost:${port}/redirect`).then(
      () => null,
      (caught: unknown) => caught as Error & { cause?: { code?: string } },
    );
    expect(error?.cause?.code).toBe('ESSRFREFUSED');
  });

  // Security review: the allow-list entries lost their ports here (the save-time check kept them), so with
  // 127.0.0.1:<one port> on the list a guarded fetch reached every port of 127.0.0.1.
  it.each(['127.0.0.1', 'localhost'])('refuses %s on a port the allow-list does not name', async (host) => {
    const otherPort = port === 65_535 ? port - 1 : port + 1;
    const error = await createGuardedFetch({ allowList: [`${host}:${otherPort}`] })(`http://${host}:${port}/`).then(
      () => null,
      (caught: unknown) => caught as Error & { cause?: { code?: string } },
    );
    expect(error?.cause?.code).toBe('ESSRFREFUSED');
  });

  it('lets the operator allow-list a local address literal', async () => {
    const response = await createGuardedFetch({ allowList: [`127.0.0.1:${port}`] })(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('inside');
  });

  it('lets the operator allow-list a local host (the embedded simulator)', async () => {
    const guardedFetch = createGuardedFetch({ allowList: [`localhost:${port}`] });
    const response = await guardedFetch(`http://localhost:${port}/`);
    expect(await response.text()).toBe('inside');
  });
});
