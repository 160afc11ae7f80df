import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CSRF_HEADER, MESSAGES } from '@switchboard/contracts';
import { AppError } from '../lib/app-error';
import { isStateChanging } from './access';

/**
 * DESIGN §4: every state-changing request carries the app's custom header (which a cross-site form
 * or simple request cannot add) and, where the browser says where it came from, comes from the
 * same origin.
 */
export const csrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    if (!isStateChanging(request)) return;
    const rejected = () => new AppError('csrf', MESSAGES.csrfRejected);
    if (request.headers[CSRF_HEADER] !== '1') throw rejected();
    const fetchSite = request.headers['sec-fetch-site'];
    if (typeof fetchSite === 'string' && fetchSite !== 'same-origin' && fetchSite !== 'none') throw rejected();
    const origin = request.headers.origin;
    if (typeof origin === 'string' && origin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        throw rejected();
      }
      // request.host is X-Forwarded-Host only when the peer is a trusted proxy (TRUST_PROXY), else Host:
      // a client cannot name its own origin as the server's host.
      if (originHost !== request.host) throw rejected();
    }
  });
});
