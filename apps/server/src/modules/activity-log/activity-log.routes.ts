import { Readable } from 'node:stream';
import { z } from 'zod';
import { ZActivityLogQuery, ZActivityPage, ZCustomDomain } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, type TRouteAccess } from '../../plugins/access';
import { createActivityLogService } from './activity-log.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const ACCESS: TRouteAccess = { principal: 'technician', tenant: 'path', anyPermission: ['adminPortal', 'roleManagement'] };

/** The activity log screen's reads: a page of audit events, and the filtered log as a streamed CSV. */
export const registerActivityLogRoutes: TModule = (app, deps) => {
  const service = createActivityLogService(deps);

  app.get(
    '/db/:mspCustomDomain/activityLog',
    {
      schema: { tags: ['activity-log'], operationId: 'activityLog', summary: 'The activity log (addition): audit events, newest first, by person, kind and date', params: ZMspPathParams, querystring: ZActivityLogQuery, response: { 200: ZActivityPage } },
      config: { access: ACCESS },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.listPage(actorOf(request).mspId, request.query);
    },
  );

  app.get(
    '/db/:mspCustomDomain/activityLog/export.csv',
    {
      schema: { tags: ['activity-log'], operationId: 'activityLogCsv', summary: 'The filtered activity log as CSV (addition), streamed', params: ZMspPathParams, querystring: ZActivityLogQuery },
      config: { access: ACCESS },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { page: _page, pageSize: _pageSize, ...filter } = request.query;
      const day = deps.now().toISOString().slice(0, 10);
      const lines = await service.csvLines(actor.mspId, filter);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="activity-${actor.mspCustomDomain}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines));
    },
  );
};
