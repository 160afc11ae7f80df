import type { FastifyInstance, FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TDatabaseHandle } from '@switchboard/db';
import type { TRetryPolicy } from '@switchboard/psa';
import type { TConfig } from './config/env';
import type { TMailer } from './lib/mailer';
import type { TAuditLog } from './lib/audit';
import type { TLifecycle } from './lib/lifecycle';
import type { TAppCaches } from './app-caches';
import type { TFileStore } from './lib/file-store';
import type { TPsaClientProvider } from './modules/integrations/psa-client-for-msp';
import type { TJobQueue, TJobQueueOptions } from './lib/job-queue';
import type { TTrainCategoriser } from './modules/assistant/categoriser-training';

/** Everything a module needs from the outside world, injected so tests can swap true boundaries. */
export interface TAppDeps {
  config: TConfig;
  database: TDatabaseHandle;
  mailer: TMailer;
  audit: TAuditLog;
  now: () => Date;
  /** Serving state: readiness turns 503 once shutdown begins; requests in flight for the shutdown log. */
  lifecycle: TLifecycle;
  /** Short-lived per-process caches (decision 011); every app gets its own set. */
  caches: TAppCaches;
  /** Background job timing (tests shorten it); the defaults suit production. `queue` is applied when `jobQueue` is built. */
  jobs?: { queue?: Partial<TJobQueueOptions>; staleAfterMs?: number; maxAttempts?: number };
  /**
   * The durable job queue (pg-boss on this database, decision 015), built once per app (createAppJobQueue): every
   * module's workers and sends share it, and it stops when the app closes. Another replica has its own.
   */
  jobQueue: TJobQueue;
  /** Uploaded files (logos, documents): PostgreSQL or an S3-compatible bucket, never a server's disk. */
  files: TFileStore;
  /** The per-MSP PSA clients, built once per app so each tenant's request budget is shared by all its requests. */
  psaClients: TPsaClientProvider;
  /** The PSA clients' own retries (tests shorten the backoff); absent, the adapter's defaults, which suit production. */
  psaRetry?: Partial<TRetryPolicy>;
  /** How long an admin waits for the PSA to check keys (A-041, keys for another PSA); absent, 20 s. Tests shorten it. */
  psaKeyCheckMs?: number;
  /** The categoriser's full training (decision 045: a worker thread by default); tests swap it to make a training fail. */
  trainCategoriser?: TTrainCategoriser;
}

/** The Fastify instance with the zod type provider: route schemas type the handlers. */
export type TApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

export type TModule = (app: TApp, deps: TAppDeps) => Promise<void> | void;
