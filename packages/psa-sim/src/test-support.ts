import type { TPsaSimulator } from './index';

// Raw HTTP helpers for the simulator's own tests: they send exactly what a vendor client would.

export interface TRawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

async function readResponse(response: Response): Promise<TRawResponse> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

export function connectWiseHeaders(sim: TPsaSimulator): Record<string, string> {
  const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
  return {
    Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`,
    clientId,
    Accept: 'application/vnd.connectwise.com+json; version=2025.16',
    'Content-Type': 'application/json',
  };
}

export function autotaskHeaders(sim: TPsaSimulator): Record<string, string> {
  return { ApiIntegrationCode: sim.autotask.integrationCode, UserName: sim.autotask.username, Secret: sim.autotask.secret, 'Content-Type': 'application/json' };
}

export async function connectWiseCall(sim: TPsaSimulator, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TRawResponse> {
  const url = path.startsWith('http') ? path : `${sim.url}/v4_6_release/apis/3.0${path}`;
  const response = await fetch(url, { method, headers: headers ?? connectWiseHeaders(sim), body: body === undefined ? undefined : JSON.stringify(body) });
  return readResponse(response);
}

export async function autotaskCall(sim: TPsaSimulator, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TRawResponse> {
  const url = path.startsWith('http') ? path : `${sim.url}/ATServicesRest/V1.0${path}`;
  const response = await fetch(url, { method, headers: headers ?? autotaskHeaders(sim), body: body === undefined ? undefined : JSON.stringify(body) });
  return readResponse(response);
}

export function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

export function asArray(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new Error(`Expected an array, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>[];
}

export function asRecord(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`Expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}
