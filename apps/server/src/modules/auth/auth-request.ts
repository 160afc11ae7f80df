import type { FastifyRequest } from 'fastify';
import type { TMspUserCollection } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import { findMspByDomain, type TMspRow, type TMspUserKind } from './auth.repository';
import type { TConfig } from '../../config/env';

/** Who asked, for audit events. */
export interface TRequestMeta {
  ip: string;
  requestId: string;
}

export const requestMeta = (request: FastifyRequest): TRequestMeta => ({ ip: request.ip, requestId: request.id });

export const USER_KIND_OF: Record<TMspUserCollection, TMspUserKind> = { technicianUsers: 'technician', clientUsers: 'client' };

/** The MSP named by a public route's `{msp}` segment, or 404. */
export async function requireMsp(deps: Pick<TAppDeps, 'database'>, customDomain: string): Promise<TMspRow> {
  const msp = await findMspByDomain(deps.database.db, customDomain);
  if (!msp) throw notFound();
  return msp;
}

/** Brute-force guard per IP for sign-in, 2FA and reset routes (issue #2 §3: 5 per 20 s by default). */
export function authIpRateLimit(config: Pick<TConfig, 'authRateLimitPerIp'>) {
  return { rateLimit: { max: config.authRateLimitPerIp, timeWindow: 20_000 } };
}
