import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { DEMO_CREDENTIALS } from './context';
import type { TSimContext } from './context';
import { FaultController, RateLimiter, ThreadLimiter } from './faults';
import type { TFailNext, TFaultSettings, TRandomFaults } from './faults';
import { addCompanyWithContacts, generateScale } from './scale';
import type { TCompanyWithContacts, TScaleOptions } from './scale';
import { seedDemoData, seedReferenceData } from './seed';
import { createSimServer } from './server';
import { SimStore } from './store';
import { openStoreFile } from './store-file';
import type { TStoreFile } from './store-file';
import { attachWebhookDelivery } from './webhooks';

export { DEMO_CREDENTIALS } from './context';
export { demoDirectory } from './seed';
export type { TDemoDirectory, TDemoDirectoryCompany, TDemoDirectoryContact, TDemoDirectoryMember } from './seed';
export { generateScale } from './scale';
export { loadDemoData } from './demo-data';
export type { THistoricalTicket } from './demo-data';
export type { TCompanyWithContacts, TScaleOptions } from './scale';
export type { TFailNext, TFaultKind, TFaultSettings, TRandomFaults } from './faults';
export { autotaskSignature, connectWiseSignature } from './webhooks';

export interface TPsaSimulatorOptions {
  port?: number;
  host?: string;
  seed?: 'demo' | 'empty';
  scale?: { companies?: number; contacts?: number; tickets?: number };
  rateLimit?: { perMinute: number } | false;
  /** Signs Autotask webhooks created without their own secretKey (default `SimWebhookSecret1`). */
  webhookSecret?: string;
  /** Clock for timestamps and the rate-limit window (tests pass a fake one). */
  now?: () => number;
  /**
   * Keeps the simulated PSA's data in this JSON file, as a real PSA keeps its own: read at start when it is there (the
   * seed and scale options then apply only when it is not), written shortly after each change and on close. Without
   * it (the default, and what tests use) every start begins from the seed and nothing is written.
   */
  stateFile?: string;
  /** Where problems with the state file are told in plain words (default: console.warn). */
  onStateProblem?: (message: string) => void;
}

export interface TPsaSimulator {
  url: string;
  connectWise: { companyId: string; publicKey: string; privateKey: string; clientId: string; siteUrl: string };
  autotask: { username: string; secret: string; integrationCode: string; zoneDiscoveryUrl: string };
  faults: {
    set(f: TFaultSettings): void;
    failNext(f: TFailNext): void;
    /** Random faults of mixed kinds on one route (see TRandomFaults). */
    random(f: TRandomFaults): void;
    pendingCount(): number;
    /** Faults that struck since the last reset. */
    struckCount(): number;
    reset(): void;
  };
  setRateLimit(limit: { perMinute: number } | false): void;
  /** Where this run's data came from: the state file (`saved`) or the seed. */
  dataSource: 'saved' | 'seed';
  /**
   * Numbers new tickets, companies and contacts above the given ids, so ids someone else still holds (a copy kept while
   * the simulator's own data was lost) are never handed out again for something else. Never lowers the numbering. The
   * highest floor given is kept and holds after a data reset (`POST /__sim/reset {"data":true}`) too.
   */
  numberAbove(highest: { tickets?: number; companies?: number; contacts?: number }): void;
  /**
   * Scenario support (no PSA lets a client do this): the ticket was opened at `createdAt` (ms), as one
   * raised long before a test began; it counts as just updated, so a sync or reconcile reads it again.
   * Answers false for an unknown ticket.
   */
  backdateTicket(ticketId: number, createdAt: number): boolean;
  /** Scenario support: one more company with many generated contacts (see addCompanyWithContacts); answers its id. */
  addCompanyWithContacts(input: TCompanyWithContacts): { companyId: number };
  stats(): { requests: number; byPath: Record<string, number>; creates: number; webhookDeliveries: number };
  /** The files attached to a ticket (through either vendor's API), oldest first, with their bytes, so a test can compare them. */
  attachmentsOf(ticketId: number): TSimTicketAttachment[];
  close(): Promise<void>;
}

export interface TSimTicketAttachment {
  id: number;
  fileName: string;
  title: string;
  contentType: string;
  data: Uint8Array;
}

/** Used for Autotask webhooks created without a secretKey when no webhookSecret option is given. */
const DEFAULT_WEBHOOK_SECRET = 'SimWebhookSecret1';

function buildStore(options: TPsaSimulatorOptions, now: () => number): SimStore {
  const store = new SimStore(now);
  seedReferenceData(store);
  if ((options.seed ?? 'demo') === 'demo') seedDemoData(store);
  if (options.scale) generateScale(options.scale satisfies TScaleOptions, store);
  return store;
}

const ZFaultKind = z.union([z.number().int().min(100).max(599), z.literal('drop'), z.literal('timeout')]);
// `status` is accepted as another name for `kind` over HTTP, so `{"status": 503}` reads naturally in e2e scripts.
const ZFailNext = z
  .object({
    kind: ZFaultKind.optional(),
    status: ZFaultKind.optional(),
    count: z.number().int().min(1).optional(),
    pathPrefix: z.string().optional(),
    path: z.string().optional(),
    phase: z.enum(['before', 'after']).optional(),
    method: z.enum(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']).optional(),
  })
  .refine((fault) => fault.kind !== undefined || fault.status !== undefined, { message: 'kind (or status) is required' })
  .transform((fault): TFailNext => ({ kind: fault.kind ?? fault.status ?? 500, count: fault.count, pathPrefix: fault.pathPrefix, path: fault.path, phase: fault.phase, method: fault.method }));
const ZRandomFaults = z.object({
  rate: z.number().min(0).max(1),
  kinds: z.array(ZFaultKind).optional(),
  pathPrefix: z.string().optional(),
  path: z.string().optional(),
  method: z.enum(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']).optional(),
  phase: z.enum(['before', 'after', 'either']).optional(),
});
const ZFaultsBody = z.object({
  latencyMs: z.number().min(0).optional(),
  retryAfterSeconds: z.number().min(0).max(3600).optional(),
  random: z.union([ZRandomFaults, z.array(ZRandomFaults)]).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  dropRate: z.number().min(0).max(1).optional(),
  failNext: z.union([ZFailNext, z.array(ZFailNext)]).optional(),
  rateLimit: z.union([z.object({ perMinute: z.number().int().min(1) }), z.literal(false)]).optional(),
});
const ZResetBody = z.object({ data: z.boolean().optional() }).optional();

export async function startPsaSimulator(options: TPsaSimulatorOptions = {}): Promise<TPsaSimulator> {
  const now = options.now ?? Date.now;
  const reportStateProblem = options.onStateProblem ?? ((message: string) => console.warn(message));
  const stateFile: TStoreFile | null = options.stateFile ? openStoreFile(options.stateFile, { onProblem: reportStateProblem }) : null;
  const loaded = stateFile?.load(now) ?? { store: null, problem: null };
  if (loaded.problem !== null) reportStateProblem(loaded.problem);
  const context: TSimContext = {
    store: loaded.store ?? buildStore(options, now),
    credentials: DEMO_CREDENTIALS,
    faults: new FaultController(),
    rateLimiter: new RateLimiter(now),
    threadLimiter: new ThreadLimiter(),
    stats: { requests: 0, byPath: new Map(), creates: 0, webhookDeliveries: 0 },
    autotaskCallTimes: [],
    webhookSecret: options.webhookSecret ?? DEFAULT_WEBHOOK_SECRET,
    now,
  };
  context.rateLimiter.configure(options.rateLimit ?? false);
  // The highest floors given to numberAbove, applied again to a store rebuilt by a data reset: the ids held elsewhere
  // are still held, and the embedded app sets the floor only once, at start.
  const floor: { tickets?: number; companies?: number; contacts?: number } = {};
  const applyFloor = (store: SimStore) => {
    if (floor.tickets !== undefined) store.tickets.raiseNextId(floor.tickets + 1);
    if (floor.companies !== undefined) store.companies.raiseNextId(floor.companies + 1);
    if (floor.contacts !== undefined) store.contacts.raiseNextId(floor.contacts + 1);
  };
  let baseUrl = '';
  let detachWebhooks = attachWebhookDelivery(context, () => baseUrl);
  const statsSnapshot = (): { requests: number; byPath: Record<string, number>; creates: number; webhookDeliveries: number } => ({
    requests: context.stats.requests,
    byPath: Object.fromEntries(context.stats.byPath),
    creates: context.stats.creates,
    webhookDeliveries: context.stats.webhookDeliveries,
  });
  const { server, destroyHeldSockets } = createSimServer(context, {
    setFaults: (body) => {
      const parsed = ZFaultsBody.safeParse(body ?? {});
      if (!parsed.success) return { status: 400, body: { error: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') } };
      context.faults.set(parsed.data);
      const failNext = parsed.data.failNext;
      for (const fault of Array.isArray(failNext) ? failNext : failNext ? [failNext] : []) context.faults.failNext(fault);
      const random = parsed.data.random;
      for (const rule of Array.isArray(random) ? random : random ? [random] : []) context.faults.addRandomFaults(rule);
      if (parsed.data.rateLimit !== undefined) context.rateLimiter.configure(parsed.data.rateLimit);
      return { status: 200, body: { ok: true } };
    },
    reset: (body) => {
      const parsed = ZResetBody.safeParse(body);
      context.faults.reset();
      context.rateLimiter.reset();
      context.stats.requests = 0;
      context.stats.byPath.clear();
      context.stats.creates = 0;
      context.stats.webhookDeliveries = 0;
      if (parsed.success && parsed.data?.data === true) {
        detachWebhooks();
        context.store = buildStore(options, now);
        applyFloor(context.store);
        detachWebhooks = attachWebhookDelivery(context, () => baseUrl);
        if (stateFile) {
          stateFile.follow(context.store);
          void stateFile.saveNow();
        }
      }
      return { status: 200, body: { ok: true } };
    },
    stats: () => ({ status: 200, body: statsSnapshot() }),
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Only a simulator that listens writes the file: a start that failed (its port taken) leaves it to the next attempt.
  stateFile?.follow(context.store);
  // A store that came from the seed is written at once, so the file exists from the first start on.
  if (stateFile && !loaded.store) await stateFile.saveNow();
  const address = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    url: baseUrl,
    connectWise: { ...DEMO_CREDENTIALS.connectWise, siteUrl: baseUrl },
    autotask: { ...DEMO_CREDENTIALS.autotask, zoneDiscoveryUrl: `${baseUrl}/atservicesrest/v1.0/zoneInformation` },
    faults: {
      set: (settings) => context.faults.set(settings),
      failNext: (fault) => context.faults.failNext(fault),
      random: (rule) => context.faults.addRandomFaults(rule),
      pendingCount: () => context.faults.pendingCount(),
      struckCount: () => context.faults.struckCount(),
      reset: () => context.faults.reset(),
    },
    setRateLimit: (limit) => context.rateLimiter.configure(limit),
    dataSource: loaded.store ? 'saved' : 'seed',
    numberAbove: (highest) => {
      for (const table of ['tickets', 'companies', 'contacts'] as const) {
        const id = highest[table];
        if (id !== undefined) floor[table] = Math.max(floor[table] ?? id, id);
      }
      applyFloor(context.store);
    },
    backdateTicket: (ticketId, createdAt) => {
      const ticket = context.store.tickets.get(ticketId);
      if (!ticket) return false;
      context.store.updateTicket({ ...ticket, createdAt, updatedAt: Math.max(now(), ticket.updatedAt) }, 'connectwise', true);
      return true;
    },
    addCompanyWithContacts: (input) => addCompanyWithContacts(context.store, input),
    stats: statsSnapshot,
    attachmentsOf: (ticketId) =>
      context.store.attachmentsOfTicket(ticketId).map(({ id, fileName, title, contentType, data }) => ({ id, fileName, title, contentType, data: new Uint8Array(data) })),
    close: async () => {
      try {
        await new Promise<void>((resolve, reject) => {
          detachWebhooks();
          destroyHeldSockets();
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        });
      } finally {
        // After the server: a request still running when close began may have changed something.
        await stateFile?.close();
      }
    },
  };
}
