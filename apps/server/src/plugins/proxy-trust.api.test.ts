import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents } from '@switchboard/db';
import { buildMsp } from '../../test/factories';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';

// Issue #6 §2b: with trustProxy always on in production, a client's own X-Forwarded-For was taken
// as its address (the per-IP sign-in limit never tripped) and X-Forwarded-Host passed the CSRF
// origin check even without any proxy. Only the proxies named in TRUST_PROXY may speak for a client.
const PROXY = '10.250.0.1';

let untrusting: TTestApp;
let behindProxy: TTestApp;
beforeAll(async () => {
  untrusting = await createTestApp();
  behindProxy = await createTestApp({ config: { trustProxy: [PROXY] } });
});
afterAll(async () => {
  await untrusting.close();
  await behindProxy.close();
});

const wrongPassword = { emailId: 'nobody@example.com', password: 'Wrong1!x' };

async function auditedIps(t: TTestApp, mspId: string): Promise<string[]> {
  const rows = await t.deps.database.db.select({ ip: auditEvents.ip }).from(auditEvents).where(and(eq(auditEvents.mspId, mspId), eq(auditEvents.action, 'auth.sign_in')));
  return rows.map((row) => row.ip ?? '');
}

describe('X-Forwarded-For without a trusted proxy', () => {
  it('does not change the client address: six sign-ins with forged addresses still hit the per-IP limit', async () => {
    const msp = await buildMsp(untrusting);
    const client = new TestClient(untrusting.app, '10.251.0.7');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, wrongPassword, { headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.9` } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const ips = await auditedIps(untrusting, msp.id);
    expect(ips.length).toBeGreaterThan(0);
    expect(new Set(ips)).toEqual(new Set(['10.251.0.7']));
  });
});

describe('X-Forwarded-Host without a trusted proxy', () => {
  it('is ignored by the CSRF origin check: an origin matching only the forwarded host is refused', async () => {
    const client = new TestClient(untrusting.app, '10.251.0.8');
    const forged = await client.post('/auth/api/auth/logout', undefined, { headers: { host: 'switchboard.example.com', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'csrf' });
    const sameOrigin = await client.post('/auth/api/auth/logout', undefined, { headers: { host: 'switchboard.example.com', origin: 'https://switchboard.example.com' } });
    expect(sameOrigin.statusCode).not.toBe(403);
  });
});

describe('behind the configured proxy (TRUST_PROXY)', () => {
  it('takes the client address from the proxy, so clients behind one proxy have their own limits', async () => {
    const msp = await buildMsp(behindProxy);
    const proxy = new TestClient(behindProxy.app, PROXY);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await proxy.post(`/db/${msp.customDomain}/technicianUsers/signin`, wrongPassword, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    expect(new Set(await auditedIps(behindProxy, msp.id))).toEqual(new Set(['198.51.100.0', '198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5']));
  });

  it('still ignores forwarded headers from any other peer', async () => {
    const msp = await buildMsp(behindProxy);
    const direct = new TestClient(behindProxy.app, '10.251.0.9');
    await direct.post(`/db/${msp.customDomain}/technicianUsers/signin`, wrongPassword, { headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(await auditedIps(behindProxy, msp.id)).toEqual(['10.251.0.9']);
    const forged = await direct.post('/auth/api/auth/logout', undefined, { headers: { host: 'switchboard.example.com', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' } });
    expect(forged.statusCode).toBe(403);
  });

  it('uses the proxy-forwarded host for the origin check', async () => {
    const proxy = new TestClient(behindProxy.app, PROXY);
    const response = await proxy.post('/auth/api/auth/logout', undefined, { headers: { host: '127.0.0.1:4000', origin: 'https://switchboard.example.com', 'x-forwarded-host': 'switchboard.example.com' } });
    expect(response.statusCode).not.toBe(403);
  });
});
