import { MESSAGES, ZPsaWriteDiscardResponse, ZPsaWriteIdParams, ZPsaWriteList, ZPsaWriteResponse, ZPsaWritesQuery } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { conflict, notFound } from '../../lib/app-error';
import { actorOf } from '../../plugins/access';
import { attemptPsaWrite, createPsaOutboxWorker } from './psa-outbox';
import { discardFailedPsaWrite, findPsaWrite, findPsaWriteWithTicket, isStoppedByConnectionChange, listOpenPsaWrites, requeuePsaWrite } from './psa-outbox.repository';
import { presentPsaWrite } from './psa-outbox.presenter';
import { userAuditFields } from '../../lib/audit';

const MANAGE_PSA_WRITES = { principal: 'technician', tenant: 'session', anyPermission: ['mspIntegrations', 'adminPortal'] } as const;

/** The PSA outbox (decision 013): its retry loop runs with the app; admins see and resend what the PSA does not have yet. */
export const registerPsaOutboxRoutes: TModule = (app, deps) => {
  const worker = createPsaOutboxWorker(deps, { intervalMs: deps.config.psaOutboxIntervalMs, log: (message, error) => app.log.error({ err: error }, message) });
  if (deps.config.psaOutboxIntervalMs > 0) {
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => worker.stop());
  }

  app.get(
    '/db/api/psa-writes',
    {
      schema: { tags: ['psa-writes'], operationId: 'psaWritesList', summary: 'The MSP’s PSA writes not yet in the PSA (pending or failed), newest first', querystring: ZPsaWritesQuery, response: { 200: ZPsaWriteList } },
      config: { access: MANAGE_PSA_WRITES },
    },
    async (request) => {
      const rows = await listOpenPsaWrites(deps.database.db, actorOf(request).mspId, request.query.status, request.query.limit);
      return { writes: rows.map(({ row, ticket }) => presentPsaWrite(row, ticket)) };
    },
  );

  app.post(
    '/db/api/psa-writes/:writeId/retry',
    {
      schema: { tags: ['psa-writes'], operationId: 'psaWritesRetry', summary: 'Send a pending or failed PSA write again now', params: ZPsaWriteIdParams, response: { 200: ZPsaWriteResponse } },
      config: { access: MANAGE_PSA_WRITES },
    },
    async (request) => {
      const actor = actorOf(request);
      const row = await deps.database.db.transaction(async (tx) => {
        const requeued = await requeuePsaWrite(tx, actor.mspId, request.params.writeId, deps.now());
        if (requeued) await deps.audit.record(tx, { ...userAuditFields(actor), action: 'psa_write.retry', target: requeued.id, outcome: 'success', details: { kind: requeued.kind } });
        return requeued;
      });
      if (row) await attemptPsaWrite(deps, actor.mspId, row.id);
      // The write as it stands after that try, with its ticket. A write the retry loop landed while the admin looked at
      // the list was not requeued: it is in the PSA, which is what they asked for.
      const shown = await findPsaWriteWithTicket(deps.database.db, actor.mspId, request.params.writeId);
      if (!shown) throw notFound('Write not found.');
      // Not requeued either: a write stopped because the PSA connection changed (decision 013). Sent now it would go to
      // the PSA connected now, where its ticket number may be another ticket.
      if (!row && isStoppedByConnectionChange(shown.row)) {
        await deps.audit.record(deps.database.db, { ...userAuditFields(actor), action: 'psa_write.retry', target: shown.row.id, outcome: 'failure', details: { kind: shown.row.kind, reason: 'connection_changed' } });
        throw conflict(MESSAGES.psa.sendAgainConnectionChanged);
      }
      return { write: presentPsaWrite(shown.row, shown.ticket) };
    },
  );

  app.post(
    '/db/api/psa-writes/:writeId/discard',
    {
      schema: {
        tags: ['psa-writes'],
        operationId: 'psaWritesDiscard',
        summary: 'Discard a PSA write the PSA refused for good: never sent, gone from the list and the tickets’ counts',
        params: ZPsaWriteIdParams,
        response: { 200: ZPsaWriteDiscardResponse },
      },
      config: { access: MANAGE_PSA_WRITES },
    },
    async (request) => {
      const actor = actorOf(request);
      const now = deps.now();
      const discarded = await deps.database.db.transaction(async (tx) => {
        const row = await discardFailedPsaWrite(tx, actor.mspId, request.params.writeId, now);
        if (row) await deps.audit.record(tx, { ...userAuditFields(actor), action: 'psa_write.discard', target: row.id, outcome: 'success', details: { kind: row.kind, reason: row.lastError } });
        return row;
      });
      if (discarded) return { writeId: discarded.id, discardedAt: now.toISOString() };
      // Why not: another MSP's, unknown or already discarded (gone from the list: 404), or not refused for good (409).
      const row = await findPsaWrite(deps.database.db, actor.mspId, request.params.writeId);
      if (!row || row.discardedAt !== null) throw notFound('Write not found.');
      throw conflict(row.status === 'done' ? MESSAGES.psa.discardAlreadyInPsa : MESSAGES.psa.discardOnlyFailed);
    },
  );
};
