import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TModule } from '../../app-deps';
import { createIntervalLoop } from '../../lib/interval-loop';
import { eventDeliveryNotice } from './psa-events.delivery';
import { createPsaEventsService, PSA_EVENT_QUEUE, PSA_EVENTS_PATH, type TPsaEventJob } from './psa-events.service';

const ZEventParams = z.object({ routeToken: z.string().min(1).max(300) });
const ZEventAccepted = z.object({ queued: z.number().int() });
const MAX_EVENT_BYTES = 1024 * 1024;

/** PSA ticket events (ConnectWise callbacks, Autotask webhooks) and the reconcile loop (decision 016). */
export const registerPsaEventsRoutes: TModule = async (app, deps) => {
  const events = createPsaEventsService(deps);
  // 'short': one waiting reread per ticket, so a burst of events costs one PSA request (decision 022).
  await deps.jobQueue.work<TPsaEventJob>(PSA_EVENT_QUEUE, (job) => events.applyEvent(job), { policy: 'short' });

  // Said once per start: without an address for the PSA, the reconcile loop is what keeps the copies in step (decision 022).
  const notice = eventDeliveryNotice(deps.config);
  if (notice) app.addHook('onReady', async () => app.log.warn(notice));

  const intervalMs = deps.config.psaReconcileIntervalMs;
  if (intervalMs > 0) {
    const loop = createIntervalLoop({
      intervalMs,
      run: () => events.reconcileAll((message, error) => app.log.error({ err: error }, message)),
      onError: (error) => app.log.error({ err: error }, 'psa-events: reconcile pass failed'),
    });
    app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', async () => loop.stop());
  }

  // The signature covers the exact bytes the PSA sent, so this route reads its body as text (its own parser, in its own scope).
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_EVENT_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      `${PSA_EVENTS_PATH}/:routeToken`,
      {
        schema: {
          tags: ['psa-events'],
          operationId: 'receivePsaEvent',
          summary: 'A ticket event from the PSA (ConnectWise callback or Autotask webhook), checked by route token and signature; 202 when queued, 401 otherwise',
          params: ZEventParams,
          response: { 202: ZEventAccepted },
        },
        // Called by the PSA, not a browser: no session, no cookie, so no CSRF header either; the route token and the
        // PSA's HMAC signature are what admit it.
        config: { access: { public: true, stateChanging: false } },
      },
      async (request, reply) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const result = await events.receive(request.params.routeToken, request.headers, rawBody);
        return reply.code(202).send(result);
      },
    );
  });
};
