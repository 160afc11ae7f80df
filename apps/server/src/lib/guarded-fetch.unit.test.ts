import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from './guarded-fetch';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_request, response) => response.end('inside'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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

  it('lets the operator allow-list a local host (the embedded simulator)', async () => {
    const guardedFetch = createGuardedFetch({ allowList: [`localhost:${port}`] });
    const response = await guardedFetch(`http://localhost:${port}/`);
    expect(await response.text()).toBe('inside');
  });
});
