import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

const strongProductionEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://app@db.internal:5432/switchboard',
  SESSION_SECRET: 'q8R2vN7xL4mK9pT3wZ6bY1cF5hJ0dG8sA2eU7iO4',
  ENCRYPTION_KEY: 'a3f19c0b7e5d42a8916b0c3e7f2d5a4b8c1e6f9a0b3d7c2e5f8a1b4c7d0e3f6a',
  PUBLIC_URL: 'https://help.example.com',
  SMTP_URL: 'smtp://mail.example.com:587',
} as const;

describe('loadConfig', () => {
  it('refuses to start in production with missing secrets, listing every problem', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrowError(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['DATABASE_URL', 'SESSION_SECRET', 'ENCRYPTION_KEY', 'PUBLIC_URL', 'SMTP_URL']) expect(message).toContain(name);
    }
  });

  it('refuses default-looking secrets in production', () => {
    expect(() => loadConfig({ ...strongProductionEnv, SESSION_SECRET: 'changeme-changeme-changeme-changeme' })).toThrowError(/SESSION_SECRET/);
    expect(() => loadConfig({ ...strongProductionEnv, ENCRYPTION_KEY: '0'.repeat(64) })).toThrowError(/ENCRYPTION_KEY/);
  });

  it('refuses a low-variety or repeated SESSION_SECRET in production', () => {
    for (const weak of ['abcdefghabcdefghabcdefghabcdefgh', 'Zx9!Zx9!Zx9!Zx9!Zx9!Zx9!Zx9!Zx9!Zx9!Zx9!', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', '0123456789012345678901234567890123456789']) {
      expect(() => loadConfig({ ...strongProductionEnv, SESSION_SECRET: weak }), weak).toThrowError(/SESSION_SECRET.*low variety/);
    }
    // What `openssl rand -base64 32` and `openssl rand -hex 32` print passes.
    expect(loadConfig({ ...strongProductionEnv, SESSION_SECRET: 'Jb0Yp1k0uQhW3m8oO8s4m0C1sJx3Xr2d6f9Kq8Gm0vE=' }).sessionSecret).toHaveLength(44);
    expect(loadConfig({ ...strongProductionEnv, SESSION_SECRET: '9c4e1f0a7b3d2e5f8a6c0b1d4e7f2a3c5b8d0e1f6a9c2b4d7e0f3a5c8b1d2e4f' }).isProduction).toBe(true);
  });

  it('refuses an http:// PUBLIC_URL in production', () => {
    expect(() => loadConfig({ ...strongProductionEnv, PUBLIC_URL: 'http://help.example.com' })).toThrowError(/PUBLIC_URL must be an https/);
  });

  it('trusts no proxy by default, and parses a hop count or an address list', () => {
    expect(loadConfig(strongProductionEnv).trustProxy).toBe(false);
    expect(loadConfig({ ...strongProductionEnv, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...strongProductionEnv, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(() => loadConfig({ ...strongProductionEnv, TRUST_PROXY: 'true' })).toThrowError(/TRUST_PROXY/);
    expect(() => loadConfig({ ...strongProductionEnv, TRUST_PROXY: '10.0.0.0/40' })).toThrowError(/TRUST_PROXY/);
  });

  it('reads the MSP sign-up mode and needs a code for invitations', () => {
    expect(loadConfig(strongProductionEnv).mspSignup).toEqual({ mode: 'open' });
    expect(loadConfig({ ...strongProductionEnv, MSP_SIGNUP: 'off' }).mspSignup).toEqual({ mode: 'off' });
    expect(loadConfig({ ...strongProductionEnv, MSP_SIGNUP: 'invitation', MSP_SIGNUP_INVITATION_CODE: 'spring-2026-partners' }).mspSignup).toEqual({ mode: 'invitation', code: 'spring-2026-partners' });
    expect(() => loadConfig({ ...strongProductionEnv, MSP_SIGNUP: 'invitation' })).toThrowError(/MSP_SIGNUP_INVITATION_CODE/);
  });

  it('takes a stalled sync over after SYNC_TAKEOVER_AFTER_MS: 60 s by default, never under 1 s (decision 021)', () => {
    expect(loadConfig(strongProductionEnv).syncTakeoverAfterMs).toBe(60_000);
    expect(loadConfig({ ...strongProductionEnv, SYNC_TAKEOVER_AFTER_MS: '3000' }).syncTakeoverAfterMs).toBe(3_000);
    expect(() => loadConfig({ ...strongProductionEnv, SYNC_TAKEOVER_AFTER_MS: '500' })).toThrowError(/SYNC_TAKEOVER_AFTER_MS/);
    expect(() => loadConfig({ ...strongProductionEnv, SYNC_TAKEOVER_AFTER_MS: 'soon' })).toThrowError(/SYNC_TAKEOVER_AFTER_MS/);
  });

  it('accepts a complete production configuration', () => {
    const config = loadConfig(strongProductionEnv);
    expect(config.isProduction).toBe(true);
    expect(config.database).toEqual({ kind: 'postgres', url: strongProductionEnv.DATABASE_URL });
    expect(config.encryptionKey).toHaveLength(32);
    expect(config.authRateLimitPerIp).toBe(5);
    expect(loadConfig({ ...strongProductionEnv, AUTH_RATE_LIMIT_PER_IP: '50' }).authRateLimitPerIp).toBe(50);
  });

  it('generates secrets into the data folder in the embedded default and reuses them', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-env-'));
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.database).toEqual({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toContain(first.sessionSecret);
  });

  it('reports malformed values readably', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(/PORT/);
    expect(() => loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-env-')), ENCRYPTION_KEY: 'short' })).toThrowError(/32 bytes/);
  });
});
