import type { TStreamOptions } from '../psa-client';
import type { TPsaClientOptions } from '../client-options';
import { defaultTimeoutMs } from '../client-options';
import { PsaError } from '../errors';
import { autotaskBudgetLimits, RequestBudget } from '../http/budget';
import { systemClock, type TPsaClock } from '../http/clock';
import { HttpTransport, type TCreateOptions, type TFindExisting } from '../http/request';
import { defaultRetryPolicy } from '../http/retry';
import { autotaskAuthHeaders, listAutotaskRows, mapAutotaskError, streamAutotaskRows } from './autotask-http';
import * as map from './autotask-mappers';
import { itemIdOf } from './autotask-records';
import type { TAutotaskFilter } from './filters';
import { atFilter } from './filters';
import { parseEntityFields, type TEntityFields } from './picklists';
import { defaultZoneDiscoveryUrl, discoverAutotaskApiBase } from './zone';
import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';

export interface TAutotaskConfig {
  psaType: 'autotask';
  username: string;
  secret: string;
  /** The API tracking identifier (ApiIntegrationCode header). */
  integrationCode: string;
  zoneDiscoveryUrl?: string;
  impersonationResourceId?: number;
}

const picklistTtlMs = 5 * 60_000;

/**
 * One Autotask tenant's API: zone discovery, the transport, cached picklists and the API user's resource. The
 * adapter's domain files (reference data, contacts, tickets, webhooks) all talk to Autotask through this.
 */
export class AutotaskApi {
  readonly transport: HttpTransport;
  private readonly clock: TPsaClock;
  private apiBasePromise: Promise<string> | null = null;
  private readonly assertUrlAllowed: (url: string) => Promise<void>;
  private readonly fieldCache = new Map<string, { fetchedAt: number; fields: Promise<TEntityFields> }>();
  private apiUserResourcePromise: Promise<number> | null = null;

  constructor(
    readonly config: TAutotaskConfig,
    options: TPsaClientOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.assertUrlAllowed = options.assertUrlAllowed ?? (() => Promise.resolve());
    const headers = autotaskAuthHeaders(config.username, config.secret, config.integrationCode, config.impersonationResourceId);
    this.transport = new HttpTransport({
      fetch: options.fetch ?? globalThis.fetch,
      clock: this.clock,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      retry: { ...defaultRetryPolicy, ...options.retry },
      budget: options.budget ?? new RequestBudget(autotaskBudgetLimits, this.clock),
      tenantKey: options.tenantKey,
      secrets: [config.secret, config.integrationCode],
      authHeaders: () => headers,
      mapError: mapAutotaskError,
      random: options.random,
    });
  }

  private apiBase(): Promise<string> {
    this.apiBasePromise ??= discoverAutotaskApiBase(this.transport, this.config.zoneDiscoveryUrl ?? defaultZoneDiscoveryUrl, this.config.username, this.assertUrlAllowed).catch(
      (error: unknown) => {
        this.apiBasePromise = null;
        throw error;
      },
    );
    return this.apiBasePromise;
  }

  /** A tenant moved to another zone gets 401 from the old one, so a 401 asks for the zone again and retries once if it changed. */
  private async onCurrentZone<T>(run: (apiBase: string) => Promise<T>): Promise<T> {
    const apiBase = await this.apiBase();
    try {
      return await run(apiBase);
    } catch (error) {
      if (!(error instanceof PsaError) || error.kind !== 'bad_keys' || error.status !== 401) throw error;
      this.apiBasePromise = null;
      const currentBase = await this.apiBase();
      if (currentBase === apiBase) throw error;
      return run(currentBase);
    }
  }

  get<T>(path: string, parse: (body: unknown) => T): Promise<T> {
    return this.onCurrentZone((apiBase) => this.transport.send({ method: 'GET', url: `${apiBase}${path}`, endpointKey: entityOf(path) }, (response) => parse(response.body)));
  }

  /** Autotask updates (`PATCH {Entity} {id, …}`) set fields, so sending one twice lands the same way. */
  patch(path: string, body: Record<string, unknown>): Promise<number> {
    return this.onCurrentZone((apiBase) => this.transport.send({ method: 'PATCH', url: `${apiBase}${path}`, body, endpointKey: entityOf(path) }, (response) => itemIdOf(response.body)));
  }

  /** `DELETE {path}`: removes a record; sending it twice lands the same way (the second is a 404 the caller may ignore). */
  async remove(path: string): Promise<void> {
    await this.onCurrentZone((apiBase) => this.transport.send({ method: 'DELETE', url: `${apiBase}${path}`, endpointKey: entityOf(path) }, () => undefined));
  }

  /** Creates a record and returns its id; `findExisting` finds it by its external id or natural key when the outcome is unknown. */
  create(path: string, body: Record<string, unknown>, findExisting: TFindExisting<number>, options?: TCreateOptions): Promise<number> {
    return this.onCurrentZone((apiBase) =>
      this.transport.create({ method: 'POST', url: `${apiBase}${path}`, body, endpointKey: entityOf(path) }, (response) => itemIdOf(response.body), findExisting, options),
    );
  }

  async query<T>(entity: string, filter: TAutotaskFilter[], mapRow: (row: unknown) => T): Promise<T[]> {
    const rows = await this.onCurrentZone((apiBase) => listAutotaskRows(this.transport, apiBase, entity, { filter }));
    return rows.map(mapRow);
  }

  /** `POST {Entity}/query/count`: how many records match, without reading them (a progress bar's total). */
  count(entity: string, filter: TAutotaskFilter[]): Promise<number> {
    return this.onCurrentZone((apiBase) =>
      this.transport.send({ method: 'POST', isQuery: true, url: `${apiBase}/${entity}/query/count`, body: { filter }, endpointKey: entity }, (response) =>
        parsePsaPayload(ZQueryCount, response.body, `${entity} count`).queryCount,
      ),
    );
  }

  async *stream<T>(entity: string, filter: TAutotaskFilter[], mapRow: (row: unknown) => T, options: TStreamOptions = {}): AsyncGenerator<T> {
    for await (const row of streamAutotaskRows(this.transport, await this.apiBase(), entity, { filter }, options.readAhead ?? 0)) yield mapRow(row);
  }

  /** Picklists change rarely and cost a request each, so they are cached per client for a few minutes. */
  fields(entity: string): Promise<TEntityFields> {
    const cached = this.fieldCache.get(entity);
    if (cached && this.clock.now() - cached.fetchedAt < picklistTtlMs) return cached.fields;
    const fields = this.get(`/${entity}/entityInformation/fields`, parseEntityFields);
    fields.catch(() => this.fieldCache.delete(entity));
    this.fieldCache.set(entity, { fetchedAt: this.clock.now(), fields });
    return fields;
  }

  async ticketPicklist(fieldName: string) {
    return (await this.fields('Tickets')).picklist(fieldName);
  }

  /**
   * The resource Autotask attributes this API user's writes to. API users are resources whose userName is the API
   * username (the e-mail field is the fallback); it never changes for a set of keys, so it is looked up once per client.
   */
  apiUserResourceId(): Promise<number> {
    this.apiUserResourcePromise ??= this.findApiUserResourceId().catch((error: unknown) => {
      this.apiUserResourcePromise = null;
      throw error;
    });
    return this.apiUserResourcePromise;
  }

  private async findApiUserResourceId(): Promise<number> {
    const username = this.config.username.trim();
    const candidates = await this.query('Resources', [atFilter.or(atFilter.eq('userName', username), atFilter.eq('email', username))], map.toMember);
    const wanted = username.toLowerCase();
    const resource = candidates.find((candidate) => candidate.identifier.toLowerCase() === wanted) ?? candidates.find((candidate) => candidate.email?.toLowerCase() === wanted);
    if (!resource) throw new PsaError('validation', 'Autotask has no resource for the API user, so its own ticket changes cannot be excluded from the webhook.');
    return resource.id;
  }
}

const ZQueryCount = z.object({ queryCount: z.number().int().min(0) });

/** Autotask counts concurrent threads per entity (the first path segment). */
function entityOf(path: string): string {
  return path.split('/')[1] ?? path;
}
