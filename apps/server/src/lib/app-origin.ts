import type { FastifyRequest } from 'fastify';
import type { TConfig } from '../config/env';

/**
 * The app's own origin, for links in mails and for an identity provider's return address: PUBLIC_URL when set (production
 * requires it, so a forged Host header cannot change a link), else this request's; no trailing slash.
 */
export function appOrigin(config: Pick<TConfig, 'publicUrl'>, request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  return (config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}
