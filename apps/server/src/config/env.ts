import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const DEFAULT_SECRET_MARKERS = ['changeme', 'change-me', 'secret', 'default', 'dev'];

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** 0 asks the system for a free port (tests start the embedded app that way). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Real PostgreSQL; absent means embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Switchboard <no-reply@switchboard.local>'),
  SESSION_SECRET: z.string().min(32).optional(),
  /** 32 bytes, base64 or hex: encrypts PSA keys and other secrets at rest. */
  ENCRYPTION_KEY: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OIDC_MICROSOFT_ISSUER: z.string().url().optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().optional(),
  OIDC_GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  OIDC_GOOGLE_CLIENT_ID: z.string().optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Comma-separated host:port values the SSRF guard lets through (the embedded simulator). */
  OUTBOUND_ALLOW_LIST: z.string().default(''),
  /**
   * ConnectWise requires a clientId per integrating product (from its developer portal), not per
   * MSP: Switchboard's own, used for every MSP that does not supply one.
   */
  CONNECTWISE_CLIENT_ID: z.string().trim().min(1).max(100).optional(),
  /**
   * Sign-in, 2FA and reset attempts allowed per IP address per 20 seconds (issue #2: at least 5).
   * Raise it where many users share one address (a client office behind NAT).
   */
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(10_000).default(5),
  /**
   * The per-process flood guard: requests per minute per signed-in session, or per IP address
   * without one. Static files, the SPA shell and health checks are not counted (decision 008).
   */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000_000).default(600),
  /** Port of the PSA simulator `npm start` runs beside the app. */
  PSA_SIM_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
});

export type TRawEnv = z.infer<typeof ZEnv>;

export interface TOidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Configuration read once at boot. */
export interface TConfig {
  mode: TRawEnv['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  sessionSecret: string;
  encryptionKey: Buffer;
  publicUrl: string | undefined;
  logLevel: TRawEnv['LOG_LEVEL'];
  oidc: { microsoft?: TOidcProviderConfig; google?: TOidcProviderConfig };
  outboundAllowList: string[];
  connectWiseClientId: string | undefined;
  authRateLimitPerIp: number;
  rateLimitPerMinute: number;
  psaSimPort: number;
}

export class ConfigError extends Error {}

function decodeKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64.');
  return key;
}

function looksDefault(secret: string): boolean {
  const lower = secret.toLowerCase();
  return DEFAULT_SECRET_MARKERS.some((marker) => lower.includes(marker)) || new Set(secret).size < 8;
}

/** The embedded default keeps generated secrets in the data folder so a restart keeps sessions valid. */
function generatedSecrets(dataDir: string): { sessionSecret: string; encryptionKey: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { sessionSecret: string; encryptionKey: string };
  mkdirSync(dataDir, { recursive: true });
  const secrets = { sessionSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/** Parses and checks the environment; throws ConfigError with a readable list of problems. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): TConfig {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR);
  const problems: string[] = [];

  let sessionSecret = env.SESSION_SECRET;
  let encryptionKey = env.ENCRYPTION_KEY;
  if (isProduction) {
    if (!env.DATABASE_URL) problems.push('DATABASE_URL is required in production.');
    if (!sessionSecret || looksDefault(sessionSecret)) problems.push('SESSION_SECRET must be set to a random value of at least 32 characters.');
    if (!encryptionKey || looksDefault(encryptionKey)) problems.push('ENCRYPTION_KEY must be set to 32 random bytes (64 hex characters).');
    if (!env.PUBLIC_URL) problems.push('PUBLIC_URL is required in production.');
    if (!env.SMTP_URL) problems.push('SMTP_URL is required in production (2FA codes are mailed).');
  } else if (!sessionSecret || !encryptionKey) {
    const generated = generatedSecrets(dataDir);
    sessionSecret ??= generated.sessionSecret;
    encryptionKey ??= generated.encryptionKey;
  }
  if (problems.length > 0) throw new ConfigError(`Refusing to start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);

  const oidc: TConfig['oidc'] = {};
  if (env.OIDC_MICROSOFT_ISSUER && env.OIDC_MICROSOFT_CLIENT_ID && env.OIDC_MICROSOFT_CLIENT_SECRET) {
    oidc.microsoft = { issuer: env.OIDC_MICROSOFT_ISSUER, clientId: env.OIDC_MICROSOFT_CLIENT_ID, clientSecret: env.OIDC_MICROSOFT_CLIENT_SECRET };
  }
  if (env.OIDC_GOOGLE_CLIENT_ID && env.OIDC_GOOGLE_CLIENT_SECRET) {
    oidc.google = { issuer: env.OIDC_GOOGLE_ISSUER, clientId: env.OIDC_GOOGLE_CLIENT_ID, clientSecret: env.OIDC_GOOGLE_CLIENT_SECRET };
  }

  return {
    mode: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    database: env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
    dataDir,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    sessionSecret: sessionSecret ?? '',
    encryptionKey: decodeKey(encryptionKey ?? ''),
    publicUrl: env.PUBLIC_URL,
    logLevel: env.LOG_LEVEL,
    oidc,
    outboundAllowList: env.OUTBOUND_ALLOW_LIST.split(',').map((s) => s.trim()).filter(Boolean),
    connectWiseClientId: env.CONNECTWISE_CLIENT_ID,
    authRateLimitPerIp: env.AUTH_RATE_LIMIT_PER_IP,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    psaSimPort: env.PSA_SIM_PORT,
  };
}

/** The process environment, for entry points that pass it (amended) to loadConfig. */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}
