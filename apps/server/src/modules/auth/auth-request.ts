import type { TMspUserCollection } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import type { TMspRow, TMspUserKind } from './auth.repository';
import type { TConfig } from '../../config/env';
import { findMspByDomain } from '../msp/msp.repository';

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
