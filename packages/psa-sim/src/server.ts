import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AT_API_PREFIX, atErrors, authenticateAutotask } from './autotask/common';
import { autotaskAttachmentRoutes } from './autotask/attachment-routes';
import { autotaskEntityRoutes, autotaskPublicRoutes } from './autotask/entity-routes';
import { autotaskTicketRoutes, editTicketAsTechnician } from './autotask/ticket-routes';
import { autotaskTimeEntryRoutes } from './autotask/time-entry-routes';
import { autotaskWebhookRoutes } from './autotask/webhook-routes';
import { connectWiseBoardRoutes } from './connectwise/board-routes';
import { CW_API_PREFIX, authenticateConnectWise, cwError } from './connectwise/common';
import { connectWiseCompanyRoutes } from './connectwise/company-routes';
import { connectWiseDocumentRoutes } from './connectwise/document-routes';
import { connectWisePublicRoutes, connectWiseSystemRoutes } from './connectwise/system-routes';
import { connectWiseTeamRoutes } from './connectwise/team-routes';
import { connectWiseTicketRoutes, editConnectWiseTicketAsTechnician } from './connectwise/ticket-routes';
import { connectWiseTimeRoutes } from './connectwise/time-routes';
import type { TSimContext } from './context';
import { json, matchRoute } from './http';
import type { TRoute, TSimRequest, TSimResponse } from './http';

export interface TAdminHandlers {
  setFaults: (body: unknown) => TSimResponse;
  reset: (body: unknown) => TSimResponse;
  stats: () => TSimResponse;
}

type TPsa = 'connectwise' | 'autotask';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('Request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function psaOf(path: string): TPsa | null {
  const lower = path.toLowerCase();
  if (lower.startsWith('/login/') || /^\/v[^/]*\/apis\//.test(lower)) return 'connectwise';
  if (lower.startsWith('/atservicesrest/')) return 'autotask';
  return null;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function failure(psa: TPsa, status: number, retryAfterSeconds?: number): TSimResponse {
  const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) };
  if (status === 429) {
    const body =
      psa === 'connectwise'
        ? { code: 'TooManyRequests', message: 'Request volume exceeded capacity. Retry after the number of seconds in the Retry-After header.' }
        : { errors: ['Request volume exceeded the rate limit for this API user. Retry after the number of seconds in the Retry-After header.'] };
    return { status, body, headers };
  }
  const body = psa === 'connectwise' ? { code: 'InternalServerError', message: `Simulated failure with status ${status}.` } : { errors: [`Simulated failure with status ${status}.`] };
  return { status, body, headers };
}

function send(response: ServerResponse, result: TSimResponse, psa: TPsa | null): void {
  const headers: Record<string, string> = { ...(result.headers ?? {}) };
  if (psa === 'connectwise') headers['api-current-version'] = '2025.16';
  if (result.status === 204) {
    response.writeHead(204, headers);
    response.end();
    return;
  }
  if (result.text !== undefined) {
    response.writeHead(result.status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(result.text);
    return;
  }
  response.writeHead(result.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  response.end(result.body === undefined ? '' : JSON.stringify(result.body));
}

/**
 * ConnectWise answers `GET {list}/count` (with the list's conditions) on every list it serves, so the simulator does
 * too, for any route whose answer is a list: the list is asked, and its row total before paging becomes `{count}`.
 */
async function countConnectWiseList(routes: TRoute[], request: TSimRequest): Promise<TSimResponse | null> {
  const countSuffix = /\/count\/?$/i;
  if (request.method !== 'GET' || !countSuffix.test(request.path)) return null;
  const listPath = request.path.replace(countSuffix, '');
  const match = matchRoute(routes, 'GET', listPath);
  if (!('route' in match)) return null;
  const listed = await match.route.handler({ ...request, path: listPath }, match.params);
  if (listed.status !== 200) return listed;
  return listed.listTotal === undefined ? null : json(200, { count: listed.listTotal });
}

export interface TSimServer {
  server: Server;
  /** Destroys sockets held open by 'timeout' faults so close() can finish. */
  destroyHeldSockets: () => void;
}

/** Every authenticated ConnectWise route, in match order. */
export function connectWiseApiRoutes(context: TSimContext): TRoute[] {
  return [...connectWiseTicketRoutes(context), ...connectWiseBoardRoutes(context), ...connectWiseTeamRoutes(context), ...connectWiseTimeRoutes(context), ...connectWiseCompanyRoutes(context), ...connectWiseDocumentRoutes(context), ...connectWiseSystemRoutes(context)];
}

export function createSimServer(context: TSimContext, admin: TAdminHandlers): TSimServer {
  const cwPublic = connectWisePublicRoutes(context);
  const cwRoutes = connectWiseApiRoutes(context);
  const atPublic = autotaskPublicRoutes(context);
  const atRoutes: TRoute[] = [...autotaskTicketRoutes(context), ...autotaskAttachmentRoutes(context), ...autotaskTimeEntryRoutes(context), ...autotaskEntityRoutes(context), ...autotaskWebhookRoutes(context)];
  const heldSockets = new Set<Socket>();

  async function dispatch(request: TSimRequest, psa: TPsa): Promise<TSimResponse> {
    const publicMatch = matchRoute(psa === 'connectwise' ? cwPublic : atPublic, request.method, request.path);
    if ('route' in publicMatch) return publicMatch.route.handler(request, publicMatch.params);
    const lowerPath = request.path.toLowerCase();
    if (psa === 'connectwise') {
      if (!lowerPath.startsWith(CW_API_PREFIX.toLowerCase())) return { status: 404, text: 'Cannot route. Codebase/company is invalid' };
      const denied = authenticateConnectWise(context, request);
      if (denied) return denied;
      const match = matchRoute(cwRoutes, request.method, request.path);
      if ('route' in match) return match.route.handler(request, match.params);
      const counted = await countConnectWiseList(cwRoutes, request);
      if (counted) return counted;
      return match.isMethodMismatch ? cwError(405, 'MethodNotAllowed', `The requested resource does not support http method '${request.method}'.`) : cwError(404, 'NotFound', `No resource was found at ${request.path}.`);
    }
    if (!lowerPath.startsWith(AT_API_PREFIX.toLowerCase())) return atErrors(404, `No HTTP resource was found that matches the request URI '${request.url.toString()}'.`);
    const denied = authenticateAutotask(context, request);
    if (denied) return denied;
    const now = context.now();
    context.autotaskCallTimes.push(now);
    while ((context.autotaskCallTimes[0] ?? now) <= now - 3_600_000) context.autotaskCallTimes.shift();
    const match = matchRoute(atRoutes, request.method, request.path);
    if ('route' in match) return match.route.handler(request, match.params);
    return match.isMethodMismatch
      ? atErrors(405, `The requested resource does not support http method '${request.method}'.`)
      : atErrors(404, `No HTTP resource was found that matches the request URI '${request.url.toString()}'.`);
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const origin = `http://${incoming.headers.host ?? '127.0.0.1'}`;
    const url = new URL(incoming.url ?? '/', origin);
    const path = url.pathname;
    const rawBody = await readBody(incoming);
    const text = rawBody.toString('utf8');
    let body: unknown;
    let hasInvalidJson = false;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        hasInvalidJson = true;
      }
    }
    const method = (incoming.method ?? 'GET').toUpperCase();
    const request: TSimRequest = { method, url, path, headers: incoming.headers, body, hasInvalidJson, rawBody, origin };
    if (path.startsWith('/__sim/')) {
      if (method === 'POST' && path === '/__sim/faults') return send(response, admin.setFaults(body), null);
      if (method === 'POST' && path === '/__sim/reset') return send(response, admin.reset(body), null);
      if (method === 'GET' && path === '/__sim/stats') return send(response, admin.stats(), null);
      if (method === 'POST' && path === '/__sim/autotask/technician-ticket-edits') return send(response, editTicketAsTechnician(context, body), null);
      if (method === 'POST' && path === '/__sim/connectwise/technician-ticket-edits') return send(response, editConnectWiseTicketAsTechnician(context, body), null);
      return send(response, { status: 404, body: { error: 'Unknown simulator admin route' } }, null);
    }
    context.stats.requests += 1;
    context.stats.byPath.set(path, (context.stats.byPath.get(path) ?? 0) + 1);
    const psa = psaOf(path);
    if (!psa) return send(response, { status: 404, text: 'Not Found' }, null);
    const decision = context.faults.decide(method, path);
    /** Answers with the decided fault instead of the handler's response; false when there is none. */
    const applyFault = (): boolean => {
      if (decision.kind === 'none') return false;
      if (decision.kind === 'drop') incoming.socket.destroy();
      else if (decision.kind === 'timeout') {
        heldSockets.add(incoming.socket);
        incoming.socket.once('close', () => heldSockets.delete(incoming.socket));
      } else send(response, failure(psa, decision.status, decision.status === 429 ? context.faults.retryAfterSeconds : undefined), psa);
      return true;
    };
    if (decision.phase === 'before' && applyFault()) return;
    const isDiscovery = path.toLowerCase().startsWith('/login/') || path.toLowerCase().includes('/zoneinformation');
    if (!isDiscovery) {
      const retryAfter = context.rateLimiter.take(psa);
      if (retryAfter > 0) return send(response, failure(psa, 429, retryAfter), psa);
    }
    const endpoint = psa === 'autotask' && !isDiscovery ? (path.slice(AT_API_PREFIX.length + 1).split('/')[0] ?? '').toLowerCase() : null;
    if (endpoint !== null && !context.threadLimiter.tryEnter(endpoint)) {
      return send(response, { status: 429, headers: { 'Retry-After': '1' }, body: { errors: ['Itgenatr005: The thread limit of 3 concurrent requests for this endpoint and tracking identifier has been reached.'] } }, psa);
    }
    try {
      if (context.faults.latencyMs > 0) await sleep(context.faults.latencyMs);
      const result = await dispatch(request, psa);
      // An 'after' fault lets the request take effect and then loses or replaces its answer.
      if (decision.phase === 'after' && applyFault()) return;
      send(response, result, psa);
    } finally {
      if (endpoint !== null) context.threadLimiter.leave(endpoint);
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (response.headersSent) return;
      const message = error instanceof Error ? error.message : 'Unexpected error';
      send(response, { status: 500, body: { code: 'InternalServerError', message, errors: [message] } }, null);
    });
  });
  return {
    server,
    destroyHeldSockets: () => {
      for (const socket of heldSockets) socket.destroy();
      heldSockets.clear();
    },
  };
}
