import { DISPATCH_PATHS, ZDispatchAssignBody, ZDispatchBoard, ZDispatchQuery, ZDispatchUnassignBody, ZQueueTicketResponse, ZSlaAlertList, ZSlaAlertsReadBody } from '@switchboard/contracts';
import type { TApp, TAppDeps } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createDispatchService } from './dispatch.service';
import type { TQueueMaintenance } from './queue.maintenance';
import type { TQueueService } from './queue.service';
import { createSlaAlertsService, createSlaSweepLoop } from './sla-alerts.service';

/** Decision 018: the dispatcher's board is for admins and people managers. */
const DISPATCHERS = { principal: 'technician', tenant: 'query', anyPermission: ['adminPortal', 'technicianUserManagement'] } as const;
const TECH_QUERY = { principal: 'technician', tenant: 'query' } as const;
const tags = ['queue'];

/** The dispatcher's board and SLA alerts (issue #10, beyond the spec); the sweep loop runs with the app. */
export function registerDispatchRoutes(app: TApp, deps: TAppDeps, maintenance: TQueueMaintenance, queue: TQueueService): void {
  const dispatch = createDispatchService(deps, maintenance, queue);
  const alerts = createSlaAlertsService(deps);
  if (deps.config.slaSweepIntervalMs > 0) {
    const loop = createSlaSweepLoop(alerts, { intervalMs: deps.config.slaSweepIntervalMs, log: (error) => app.log.error({ err: error }, 'SLA sweep failed') });
    app.addHook('onReady', async () => loop.start());
    app.addHook('onClose', async () => loop.stop());
  }

  app.get(
    DISPATCH_PATHS.board,
    { schema: { tags, operationId: 'dispatchBoard', summary: 'Every technician’s claimed and running tickets and the unassigned queue by SLA risk (decision 018)', querystring: ZDispatchQuery, response: { 200: ZDispatchBoard } }, config: { access: DISPATCHERS } },
    async (request) => dispatch.board(actorOf(request)),
  );
  app.post(
    DISPATCH_PATHS.assign,
    { schema: { tags, operationId: 'dispatchAssign', summary: 'Assign a queued ticket to a technician (a claim, written to the PSA)', querystring: ZDispatchQuery, body: ZDispatchAssignBody, response: { 200: ZQueueTicketResponse } }, config: { access: DISPATCHERS } },
    async (request) => ({ ticket: await dispatch.assign(actorOf(request), request.body.id, request.body.techId) }),
  );
  app.post(
    DISPATCH_PATHS.unassign,
    { schema: { tags, operationId: 'dispatchUnassign', summary: 'Take an assigned ticket back to the queue', querystring: ZDispatchQuery, body: ZDispatchUnassignBody, response: { 200: ZQueueTicketResponse } }, config: { access: DISPATCHERS } },
    async (request) => ({ ticket: await dispatch.unassign(actorOf(request), request.body.id) }),
  );
  app.get(
    DISPATCH_PATHS.slaAlerts,
    { schema: { tags, operationId: 'slaAlerts', summary: 'The caller’s SLA alerts (50/75/90/100 %), newest first, with the unread count', querystring: ZDispatchQuery, response: { 200: ZSlaAlertList } }, config: { access: TECH_QUERY } },
    async (request) => alerts.list(actorOf(request)),
  );
  app.post(
    DISPATCH_PATHS.slaAlertsRead,
    { schema: { tags, operationId: 'slaAlertsRead', summary: 'Mark the caller’s SLA alerts read', querystring: ZDispatchQuery, body: ZSlaAlertsReadBody, response: { 200: ZSlaAlertList } }, config: { access: TECH_QUERY } },
    async (request) => alerts.markRead(actorOf(request), request.body.ids),
  );
}
