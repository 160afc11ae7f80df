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
