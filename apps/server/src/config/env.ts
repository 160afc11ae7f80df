import type { TS3FileStoreConfig } from '../lib/file-store';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
   * without one. Static files, the SPA shell and health checks are not counted (decision 010).
   */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000_000).default(600),
  /**
   * How long (ms) a process reuses a resolved session and an MSP's roles list (decision 011). A logout,
   * revoke or permission change applies at once in the process that made it and within this time in
   * the others. 0 disables the caches.
   */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** How often (ms) each process's PSA outbox resends the writes the PSA does not have yet (decision 013); 0 turns the loop off. */
  PSA_OUTBOX_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  PSA_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).optional(),
  PSA_RECONCILE_REQUESTS_PER_HOUR: z.coerce.number().int().min(60).max(100_000).default(2_000),
  /**
   * ConnectWise keeps a ticket's description and resolution in its notes, one request per ticket: the notes reader
   * spends at most this many requests a minute per MSP, in the background (past resolutions feed Jarvis); 0 turns it off.
   */
  PSA_NOTES_READS_PER_MINUTE: z.coerce.number().int().min(0).max(6_000).default(120),
  PSA_EVENTS_URL: z.string().url().optional(),
  /** How often (ms) each process sweeps for tickets that reached 50/75/90/100 % of their SLA (issue #10); 0 turns the loop off. */
  SLA_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** How often (ms) each process asks for every connected help-desk mailbox to be read for new mail (decision 036); 0 turns it off. */
  EMAIL_CONNECTOR_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** Uploads (logos, documents) in an S3-compatible bucket instead of PostgreSQL when set (issue #11). */
  UPLOADS_S3_BUCKET: z.string().trim().min(3).max(63).optional(),
  /** The S3-compatible endpoint (MinIO, Ceph, R2, …); AWS's own when unset. */
  UPLOADS_S3_ENDPOINT: z.string().trim().url().optional(),
  UPLOADS_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** Credentials; the SDK's default chain (environment, instance role) when unset. */
  UPLOADS_S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  UPLOADS_S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** Path-style addressing (`endpoint/bucket/key`); defaults to on when an endpoint is given. */
  UPLOADS_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** Prepended to every object key (e.g. `switchboard/`). */
  UPLOADS_S3_PREFIX: z.string().trim().max(200).default(''),
  /** Port of the PSA simulator `npm start` runs beside the app. */
  PSA_SIM_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  /**
   * Which reverse proxies may set X-Forwarded-For/-Host/-Proto: a hop count (`1` = the peer is the
   * proxy) or comma-separated addresses/CIDR ranges. Empty: none, the peer's address is the client's.
   */
  TRUST_PROXY: z.string().trim().default(''),
  /** Public MSP sign-up (A-082): open to anyone, by invitation code only, or off. */
  MSP_SIGNUP: z.enum(['open', 'invitation', 'off']).default('open'),
  /** The code a prospective MSP must give when MSP_SIGNUP=invitation. */
  MSP_SIGNUP_INVITATION_CODE: z.string().trim().max(200).optional(),
  /** How long a graceful shutdown waits for requests in flight before it exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * A batch ticket sync whose worker has not reported (heartbeat) for this long is taken over by another
   * replica: the worker that held it died (decision 021). The running worker reports three times as often.
   */
  SYNC_TAKEOVER_AFTER_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** How long start-up keeps retrying an unreachable database before it gives up. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * How long (ms) Jarvis waits for an MSP's language model (the first streamed word, or a whole JSON
   * answer) before the local engine answers instead (decision 023).
   */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
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
  authCacheTtlMs: number;
  psaOutboxIntervalMs: number;
  /** How often each MSP's recently changed PSA tickets are reread (decision 016); 0 turns the loop off. */
  psaReconcileIntervalMs: number;
  /** The PSA requests per tenant per hour the reconcile may spend (a fifth of Autotask's 10,000 by default). */
  psaReconcileRequestsPerHour: number;
  /** ConnectWise note reads per minute per MSP for the copies' descriptions and resolutions; 0 turns the reader off. */
  psaNotesReadsPerMinute: number;
  /** The base address the PSA calls with ticket events (`{base}/psa/events/{token}`); PSA_EVENTS_URL, else PUBLIC_URL. */
  psaEventsUrl: string | undefined;
  slaSweepIntervalMs: number;
  /** How often the connected help-desk mailboxes are read for new mail (decision 036); 0 turns it off. */
  emailConnectorIntervalMs: number;
  /** Where uploads live: PostgreSQL, or an S3-compatible bucket. */
  uploads: { kind: 'database' } | ({ kind: 's3' } & TS3FileStoreConfig);
  psaSimPort: number;
  /** Fastify's trustProxy: false (no proxy), a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  mspSignup: { mode: 'open' } | { mode: 'off' } | { mode: 'invitation'; code: string };
  shutdownTimeoutMs: number;
  databaseConnectTimeoutMs: number;
  /** How long an MSP's language model may take before the local engine answers (decision 023). */
  llmTimeoutMs: number;
  /** A sync run whose heartbeat is older than this is taken over by another replica (decision 021). */
  syncTakeoverAfterMs: number;
}

/** Production rereads changed tickets every 5 minutes; the embedded demo sets 30 s. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;

export class ConfigError extends Error {}

function decodeKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64.');
  return key;
}

/** Estimated bits in a secret from its own character frequencies (Shannon entropy × length). */
function estimatedBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const count of counts.values()) {
    const p = count / secret.length;
    bitsPerChar -= p * Math.log2(p);
  }
  return bitsPerChar * secret.length;
}

/** True when the secret is a shorter piece repeated ("abcd1234abcd1234…"). */
function isRepetition(secret: string): boolean {
  for (let period = 1; period <= secret.length / 2; period += 1) {
    if (secret.length % period === 0 && secret.slice(0, period).repeat(secret.length / period) === secret) return true;
  }
  return false;
}

/**
 * A secret an operator typed or copied from an example rather than generated: a default marker,
 * few distinct characters, under 128 estimated bits, or one piece repeated. 32 random bytes as
 * hex or base64 pass with room to spare (≈ 200–250 bits).
 */
function looksWeak(secret: string): boolean {
  const lower = secret.toLowerCase();
  return DEFAULT_SECRET_MARKERS.some((marker) => lower.includes(marker)) || new Set(secret).size < 10 || estimatedBits(secret) < 128 || isRepetition(secret);
}

function isCidrOrAddress(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (isIP(address) === 4 ? 32 : 128);
}

/** TRUST_PROXY: '' → no proxy; digits → hop count; else a list of addresses or CIDR ranges. */
function parseTrustProxy(value: string, problems: string[]): TConfig['trustProxy'] {
  if (value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const invalid = entries.filter((entry) => !isCidrOrAddress(entry));
  if (invalid.length > 0) problems.push(`TRUST_PROXY must be a hop count or comma-separated IP addresses/CIDR ranges (not ${invalid.join(', ')}).`);
  return entries;
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
    if (!sessionSecret || looksWeak(sessionSecret)) problems.push('SESSION_SECRET must be set to a random value of at least 32 characters (e.g. `openssl rand -base64 32`); this one is missing, a default or of low variety.');
    if (!encryptionKey || looksWeak(encryptionKey)) problems.push('ENCRYPTION_KEY must be set to 32 random bytes (64 hex characters, e.g. `openssl rand -hex 32`).');
    if (!env.PUBLIC_URL) problems.push('PUBLIC_URL is required in production.');
    else if (!env.PUBLIC_URL.startsWith('https://')) problems.push('PUBLIC_URL must be an https:// address in production (session cookies are Secure).');
    if (!env.SMTP_URL) problems.push('SMTP_URL is required in production (2FA codes are mailed).');
  } else if (!sessionSecret || !encryptionKey) {
    const generated = generatedSecrets(dataDir);
    sessionSecret ??= generated.sessionSecret;
    encryptionKey ??= generated.encryptionKey;
  }
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const invitationCode = env.MSP_SIGNUP_INVITATION_CODE ?? '';
  if (env.MSP_SIGNUP === 'invitation' && invitationCode.length < 8) problems.push('MSP_SIGNUP_INVITATION_CODE must be set (at least 8 characters) when MSP_SIGNUP=invitation.');
  const mspSignup: TConfig['mspSignup'] = env.MSP_SIGNUP === 'invitation' ? { mode: 'invitation', code: invitationCode } : { mode: env.MSP_SIGNUP };
  if (Boolean(env.UPLOADS_S3_ACCESS_KEY_ID) !== Boolean(env.UPLOADS_S3_SECRET_ACCESS_KEY)) problems.push('UPLOADS_S3_ACCESS_KEY_ID and UPLOADS_S3_SECRET_ACCESS_KEY must be set together.');
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
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    psaOutboxIntervalMs: env.PSA_OUTBOX_INTERVAL_MS,
    psaReconcileIntervalMs: env.PSA_RECONCILE_INTERVAL_MS ?? DEFAULT_RECONCILE_INTERVAL_MS,
    psaReconcileRequestsPerHour: env.PSA_RECONCILE_REQUESTS_PER_HOUR,
    psaNotesReadsPerMinute: env.PSA_NOTES_READS_PER_MINUTE,
    psaEventsUrl: (env.PSA_EVENTS_URL ?? env.PUBLIC_URL)?.replace(/\/+$/, ''),
    slaSweepIntervalMs: env.SLA_SWEEP_INTERVAL_MS,
    emailConnectorIntervalMs: env.EMAIL_CONNECTOR_INTERVAL_MS,
    uploads: env.UPLOADS_S3_BUCKET
      ? {
          kind: 's3',
          bucket: env.UPLOADS_S3_BUCKET,
          endpoint: env.UPLOADS_S3_ENDPOINT,
          region: env.UPLOADS_S3_REGION,
          accessKeyId: env.UPLOADS_S3_ACCESS_KEY_ID,
          secretAccessKey: env.UPLOADS_S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.UPLOADS_S3_FORCE_PATH_STYLE ? env.UPLOADS_S3_FORCE_PATH_STYLE === 'true' : env.UPLOADS_S3_ENDPOINT !== undefined,
          prefix: env.UPLOADS_S3_PREFIX,
        }
      : { kind: 'database' },
    psaSimPort: env.PSA_SIM_PORT,
    trustProxy,
    mspSignup,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    llmTimeoutMs: env.LLM_TIMEOUT_MS,
    syncTakeoverAfterMs: env.SYNC_TAKEOVER_AFTER_MS,
  };
}

/** Only what `npm run db:migrate` needs: DATABASE_URL (required) and how long to wait for it. */
export function loadDatabaseConfig(source: NodeJS.ProcessEnv = process.env): { url: string; connectTimeoutMs: number } {
  const parsed = ZEnv.pick({ DATABASE_URL: true, DATABASE_CONNECT_TIMEOUT_MS: true }).safeParse(source);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  if (!parsed.data.DATABASE_URL) throw new ConfigError('DATABASE_URL is required to migrate (the PostgreSQL server to migrate).');
  return { url: parsed.data.DATABASE_URL, connectTimeoutMs: parsed.data.DATABASE_CONNECT_TIMEOUT_MS };
}

/** The process environment, for entry points that pass it (amended) to loadConfig. */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}
