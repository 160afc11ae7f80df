import type { TPsaClientOptions } from '../client-options';
import type { TStreamOptions } from '../psa-client';
import { defaultTimeoutMs } from '../client-options';
import { PsaError } from '../errors';
import { connectWiseBudgetLimits, RequestBudget } from '../http/budget';
import { systemClock } from '../http/clock';
import { HttpTransport, type TCreateOptions, type TFindExisting } from '../http/request';
import { defaultRetryPolicy } from '../http/retry';
import { checkId } from '../record-id';
import {
  connectWiseApiVersion,
  connectWiseAuthHeaders,
  discoverConnectWiseApiBase,
  listConnectWiseRows,
  mapConnectWiseError,
  streamConnectWiseRows,
  type TConnectWiseListQuery,
} from './connectwise-http';
import type { Condition } from './conditions';
import { z } from 'zod';
import { appendQuery, parsePsaPayload } from '../http/parse';

const ZCount = z.object({ count: z.number().int().min(0) });

export interface TConnectWiseConfig {
  psaType: 'connectwise';
  /** The site the admin signs in to, e.g. https://na.myconnectwise.net; the codebase is discovered from it. */
  siteUrl: string;
  companyId: string;
  publicKey: string;
  privateKey: string;
  /** The integration's clientId from developer.connectwise.com, required on every call. */
  clientId: string;
  apiVersion?: string;
}

/** JSON-Patch `replace` only: setting a value twice lands the same way, so a patch is safe to send again. */
export type TPatchOperation = { op: 'replace'; path: string; value: unknown };

/**
 * One ConnectWise tenant's API: codebase discovery and the transport. The adapter's domain files (reference data,
 * contacts, tickets, callbacks) all talk to ConnectWise through this.
 */
export class ConnectWiseApi {
  readonly transport: HttpTransport;
  private apiBasePromise: Promise<string> | null = null;
  private readonly assertUrlAllowed: (url: string) => Promise<void>;

  constructor(
    private readonly config: TConnectWiseConfig,
    options: TPsaClientOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.assertUrlAllowed = options.assertUrlAllowed ?? (() => Promise.resolve());
    const headers = connectWiseAuthHeaders(config.companyId, config.publicKey, config.privateKey, config.clientId, config.apiVersion ?? connectWiseApiVersion);
    this.transport = new HttpTransport({
      fetch: options.fetch ?? globalThis.fetch,
      clock,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      retry: { ...defaultRetryPolicy, ...options.retry },
      budget: options.budget ?? new RequestBudget(connectWiseBudgetLimits, clock),
      tenantKey: options.tenantKey,
      secrets: [config.privateKey, config.publicKey, headers.Authorization ?? ''],
      authHeaders: () => headers,
      mapError: mapConnectWiseError,
      random: options.random,
    });
  }

  private apiBase(): Promise<string> {
    this.apiBasePromise ??= discoverConnectWiseApiBase(this.transport, this.config.siteUrl, this.config.companyId, this.assertUrlAllowed).catch((error: unknown) => {
      this.apiBasePromise = null;
      throw error;
    });
    return this.apiBasePromise;
  }

  async list<T>(path: string, mapRow: (row: unknown) => T, query: TConnectWiseListQuery = {}): Promise<T[]> {
    const rows = await listConnectWiseRows(this.transport, await this.apiBase(), path, query);
    return rows.map(mapRow);
  }

  async *stream<T>(path: string, mapRow: (row: unknown) => T, query: TConnectWiseListQuery = {}, options: TStreamOptions = {}): AsyncGenerator<T> {
    for await (const row of streamConnectWiseRows(this.transport, await this.apiBase(), path, query, options.readAhead ?? 0)) yield mapRow(row);
  }

  /** `GET {list}/count` with the list's conditions: how many rows match, without reading them (a progress bar's total). */
  async count(path: string, conditions?: Condition): Promise<number> {
    const url = appendQuery(`${await this.apiBase()}${path}/count`, { conditions: conditions?.toString() });
    return this.transport.send({ method: 'GET', url, endpointKey: endpointOf(path) }, (response) => parsePsaPayload(ZCount, response.body, 'count').count);
  }

  async get<T>(path: string, mapRow: (row: unknown) => T): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.send({ method: 'GET', url, endpointKey: endpointOf(path) }, (response) => mapRow(response.body));
  }

  /** Creates a record; `findExisting` finds it by its natural key or external reference when the outcome is unknown. */
  async create<T>(path: string, body: unknown, mapRow: (row: unknown) => T, findExisting: TFindExisting<T>, options?: TCreateOptions): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.create({ method: 'POST', url, body, endpointKey: endpointOf(path) }, (response) => mapRow(response.body), findExisting, options);
  }

  /** `DELETE {path}`: removes a record; sending it twice lands the same way (the second is a 404 the caller may ignore). */
  async remove(path: string): Promise<void> {
    const url = `${await this.apiBase()}${path}`;
    await this.transport.send({ method: 'DELETE', url, endpointKey: endpointOf(path) }, () => undefined);
  }

  async patch<T>(path: string, operations: TPatchOperation[], mapRow: (row: unknown) => T): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.send({ method: 'PATCH', url, body: operations, endpointKey: endpointOf(path) }, (response) => mapRow(response.body));
  }
}

/** The concurrency limit groups requests by route, not by record. */
function endpointOf(path: string): string {
  return path.replace(/\/\d+/g, '/{id}');
}

export function requireBoard(boardId: number | null): number {
  if (boardId === null) {
    throw new PsaError('validation', 'ConnectWise keeps this list per board; choose a board first.', { fieldMessages: [{ field: 'boardId', message: 'Required.' }] });
  }
  return checkId(boardId);
}
