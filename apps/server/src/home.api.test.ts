import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp, type TTestApp } from '../test/test-app';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const NAVIGATE = { 'sec-fetch-mode': 'navigate', accept: 'text/html,application/xhtml+xml' };

describe('GET / (issue #6: the bare address answered 404)', () => {
  it('sends a browser to the general sign-in rather than the SPA\'s "not found"', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'sb-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>spa</title>');
    const app = await buildApp(t.deps, { webDist });
    try {
      const home = await app.inject({ method: 'GET', url: '/', headers: NAVIGATE });
      expect(home.statusCode).toBe(302);
      expect(home.headers.location).toBe('/auth/login');
      // The page it points at is the SPA.
      const signIn = await app.inject({ method: 'GET', url: '/auth/login', headers: NAVIGATE });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.body).toContain('<title>spa</title>');
    } finally {
      await app.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });

  it('answers a plain client (no browser headers, no SPA built) the same way, and follows the configured home', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.statusCode).toBe(302);
    expect(plain.headers.location).toBe('/auth/login');
    const app = await buildApp(t.deps, { homePath: '/northwind' });
    try {
      const home = await app.inject({ method: 'GET', url: '/?utm=x', headers: NAVIGATE });
      expect(home.statusCode).toBe(302);
      expect(home.headers.location).toBe('/northwind');
    } finally {
      await app.close();
    }
  });
});
