import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  MESSAGES,
  ZClientSyncResult,
  ZCustomDomain,
  ZProgressiveStreamQuery,
  ZSaveSelectedClientsBody,
  ZSaveSelectedContactsBody,
  ZSaveSelectedContactsQuery,
  ZSaveSelectedResult,
  ZSyncClientsContactsResult,
  ZUpdateClientSyncQuery,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { IMPORT_ADMIN_BY_PATH, IMPORT_ADMIN_BY_QUERY, IMPORT_ADMIN_BY_SESSION } from './imports.policy';
import { createImportsService, type TImportSink } from './imports.service';

/** Writes one server-sent event, waiting for the socket to drain so a slow browser slows the PSA paging instead of filling memory. */
function sseSink(raw: ServerResponse): TImportSink {
  return {
    async send(event, payload) {
      if (raw.destroyed || raw.writableEnded) return;
      if (raw.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`)) return;
      // Both listeners go once either fires: a long stream must not pile up listeners per chunk.
      await new Promise<void>((resolve) => {
        const done = () => {
          raw.off('drain', done);
          raw.off('close', done);
          resolve();
        };
        raw.on('drain', done);
        raw.on('close', done);
      });
    },
  };
}

const IMPORT_KINDS = ['clients', 'contacts'] as const;
const ZCancelQuery = z.object({ mspCustomDomain: ZCustomDomain, jobId: z.uuid() });

/** Clients and contacts loading (catalogue group "Imports/streams": ). */
export const registerImportsRoutes: TModule = (app, deps) => {
  const imports = createImportsService(deps);

  // Each call at its catalogue path (A-059 clients, A-060 contacts), so the OpenAPI document lists both.
  for (const kind of IMPORT_KINDS) {
    const call = kind === 'clients' ? { id: 'A-059', name: 'Clients' } : { id: 'A-060', name: 'Contacts' };
    app.get(
      `/psa/psa/progressive/${kind}/fetchStream`,
      {
        schema: {
          tags: ['imports'],
          operationId: `fetch${call.name}Stream`,
          summary: `${call.id} Server-sent events of the PSA's ${kind}: started {importJobId}, progress {importJobId, progress {progressPercentage, currentPage, fetched, total}}, data (a chunk of rows), complete; error {importJobId, code, detail} before complete when the PSA fails. \`jobId\` resumes an earlier import: after \`afterId\` with \`received\` rows held when the browser says so, else after the last row the job recorded as sent.`,
          querystring: ZProgressiveStreamQuery,
        },
        config: { access: IMPORT_ADMIN_BY_QUERY },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const prepared = await imports.prepareStream(actor, kind, request.query.jobId, request.query.afterId === undefined || request.query.received === undefined ? undefined : { afterId: request.query.afterId, received: request.query.received });
        // From here the response is the event stream; the open connection is the only state this replica holds.
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
        const controller = new AbortController();
        raw.on('close', () => controller.abort());
        try {
          await imports.runStream(actor, kind, prepared, sseSink(raw), controller.signal);
        } catch (error) {
          request.log.error({ err: error }, 'import stream failed');
          await sseSink(raw).send('error', { importJobId: prepared.job.id, code: 'internal', detail: MESSAGES.imports.loadFailed });
        } finally {
          if (!raw.writableEnded) raw.end();
        }
      },
    );

    app.post(
      `/psa/psa/progressive/${kind}/cancel`,
      {
        schema: {
          tags: ['imports'],
          operationId: `cancel${call.name}Stream`,
          summary: `Ours (api-additions): cancel a ${kind} import stream by its importJobId; the stream ends with complete {status: CANCELLED} on whichever replica holds it`,
          querystring: ZCancelQuery,
          response: { 200: z.object({ importJobId: z.uuid(), status: z.string() }) },
        },
        config: { access: IMPORT_ADMIN_BY_QUERY },
      },
      async (request) => imports.cancelStream(actorOf(request), kind, request.query.jobId),
    );
  }

  app.post(
    '/psa/psa/progressive/clients/save-selected',
    {
      schema: {
        tags: ['imports'],
        operationId: 'saveSelectedClients',
        summary: 'A-056 Save the selected companies (at most 1,000 a call), keyed by PSA id: a repeated save creates no duplicates',
        body: ZSaveSelectedClientsBody,
        response: { 200: ZSaveSelectedResult },
      },
      config: { access: IMPORT_ADMIN_BY_SESSION },
    },
    async (request) => imports.saveSelectedClients(actorOf(request), request.body.selectedClients, request.body.importJobId),
  );

  app.post(
    '/psa/psa/progressive/contacts/save-selected',
    {
      schema: {
        tags: ['imports'],
        operationId: 'saveSelectedContacts',
        summary: 'A-057 Save the selected contacts (at most 1,000 a call), keyed by PSA id and linked to their company; `jobId` is the stream\'s importJobId',
        querystring: ZSaveSelectedContactsQuery,
        body: ZSaveSelectedContactsBody,
        response: { 200: ZSaveSelectedResult },
      },
      config: { access: IMPORT_ADMIN_BY_QUERY },
    },
    async (request) => imports.saveSelectedContacts(actorOf(request), request.body, request.query.jobId),
  );

  app.get(
    '/db/:mspCustomDomain/updateClientSync',
    {
      schema: {
        tags: ['imports'],
        operationId: 'updateClientSync',
        summary: 'A-042 Record which client type is auto-synced (wizard finish). A state-changing GET (decisions #2)',
        params: z.object({ mspCustomDomain: ZCustomDomain }),
        querystring: ZUpdateClientSyncQuery,
        response: { 200: ZClientSyncResult },
      },
      config: { access: { ...IMPORT_ADMIN_BY_PATH, stateChanging: true } },
    },
    async (request) => imports.updateClientSync(actorOf(request), request.query.clientTypeId, request.query.clientTypeName),
  );

  app.get(
    '/psa/syncClientsContacts',
    {
      schema: {
        tags: ['imports'],
        operationId: 'syncClientsContacts',
        summary: 'A-043 Copy every PSA company and contact into the synchronized copies (wizard finish auto-sync). A state-changing GET (decisions #2)',
        querystring: z.object({ mspCustomDomain: ZCustomDomain }),
        response: { 200: ZSyncClientsContactsResult },
      },
      config: { access: { ...IMPORT_ADMIN_BY_QUERY, stateChanging: true } },
    },
    async (request) => imports.syncClientsContacts(actorOf(request)),
  );
};
