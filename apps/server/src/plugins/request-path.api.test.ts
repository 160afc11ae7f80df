import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { buildMsp, buildUser, signedInClient } from '../../test/factories';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';

// Issue #6 §5: static files, the SPA shell and health checks were counted by the global rate limit
// (one cold page load spent 39 of 600), ran the session lookup, and hashed assets had no cache header.

const ASSET = '/assets/app-3f2a1b9c.js';
const ASSET_BODY = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const SHELL = '<!doctype html><html><head><title>Switchboard</title></head><body><div id="root"></div></body></html>';
const SESSION_CHECK = '/auth/api/auth/microsoft-user';

let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'sb-web-dist-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), SHELL);
  writeFileSync(join(webDist, ASSET), ASSET_BODY);
  writeFileSync(join(webDist, 'robots.txt'), 'User-agent: *\nDisallow:\n');
});
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

const navigate = (client: TestClient, url: string) => client.get(url, { headers: { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' } });

describe('static files and the SPA shell', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { webDist });
  });
  afterAll(async () => t.close());

  it('caches hashed assets for a year and compresses them with brotli or gzip', async () => {
    const client = new TestClient(t.app, '203.0.113.10');
    const br = await client.get(ASSET, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET_BODY);
    expect(br.rawPayload.length).toBeLessThan(ASSET_BODY.length / 2);

    const gzip = await client.get(ASSET, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(ASSET_BODY);

    const plain = await client.get(ASSET);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET_BODY);
  });

  it('has browsers revalidate files without a hash and never cache the shell', async () => {
    const client = new TestClient(t.app, '203.0.113.11');
    const robots = await client.get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
    const shell = await navigate(client, '/some-msp/technician/dashboard');
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toBe(SHELL);
    expect(shell.headers['cache-control']).toBe('no-store');
  });

  it('lets a browser navigate to a document download link: the API answers it, not the shell', async () => {
    const client = new TestClient(t.app, '203.0.113.13');
    const download = await navigate(client, '/db/some-msp/applications/4b1d7a52-8c9e-4f3a-9d2b-6e5f4a3b2c1d/file');
    expect(download.statusCode).toBe(401);
    expect(download.headers['content-type']).toContain('application/problem+json');
    expect((await navigate(client, '/db/some-msp/applications')).body).toBe(SHELL);
  });

  it('compresses large API answers too', async () => {
    const response = await new TestClient(t.app, '203.0.113.12').get('/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toMatchObject({ openapi: '3.1.0' });
  });
});

describe('the flood guard (RATE_LIMIT_PER_MINUTE)', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 5 } }, { webDist });
  });
  afterAll(async () => t.close());

  it('does not count static files, the SPA shell or health checks, and answers 429 in plain words past the budget', async () => {
    const client = new TestClient(t.app, '198.51.100.20');
    for (let i = 0; i < 12; i++) {
      expect((await client.get(ASSET)).statusCode).toBe(200);
      expect((await navigate(client, '/auth/login')).statusCode).toBe(200);
      expect((await client.get('/health')).statusCode).toBe(200);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.get(SESSION_CHECK)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await client.get(SESSION_CHECK);
    expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited', detail: MESSAGES.tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('gives each signed-in person behind one office address a budget of their own', async () => {
    const officeIp = '198.51.100.21';
    const msp = await buildMsp(t);
    const alice = await signedInClient(t, await buildUser(t, msp), officeIp);
    const bob = await signedInClient(t, await buildUser(t, msp), officeIp);
    const statusesOf = async (client: TestClient, times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) statuses.push((await client.get(SESSION_CHECK)).statusCode);
      return statuses;
    };
    // The first request of a session counts against the address; after it, the session has its own five.
    expect(await statusesOf(alice, 7)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(await statusesOf(bob, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await statusesOf(new TestClient(t.app, officeIp), 4)).toEqual([200, 200, 200, 429]);
  });

  it('does not let made-up session cookies open fresh budgets', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = new TestClient(t.app, '198.51.100.22');
      client.useSession(randomBytes(32).toString('base64url'));
      statuses.push((await client.get(SESSION_CHECK)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('with the database down', () => {
  let t: TTestApp;
  let client: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 2 } }, { webDist });
    const msp = await buildMsp(t);
    client = await signedInClient(t, await buildUser(t, msp), '198.51.100.30');
    await t.deps.database.close();
  });
  afterAll(async () => t.app.close());

  it('still serves static files, the SPA shell and /health to a signed-in browser: none looks the session up', async () => {
    expect((await client.get(ASSET)).statusCode).toBe(200);
    expect((await navigate(client, '/auth/login')).statusCode).toBe(200);
    expect((await navigate(client, '/')).statusCode).toBe(302);
    expect((await client.get('/health')).json()).toEqual({ status: 'ok' });
    // The API does need the database, so the checks above can fail.
    expect((await client.get(SESSION_CHECK)).statusCode).toBe(500);
  });

  it('rejects past the budget before any database work (429, not 500)', async () => {
    const other = new TestClient(t.app, '198.51.100.31');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await other.get(SESSION_CHECK, { headers: { cookie: 'sb_session=whatever' } })).statusCode);
    expect(statuses).toEqual([500, 500, 429]);
  });
});
