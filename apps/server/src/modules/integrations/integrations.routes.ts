import { z } from 'zod';
import { ZCustomDomain } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import { requirePermission, requireTenantUser } from '../../plugins/auth-context';
import { ZIntegrationSummary, ZIntegratorQuery, ZUpdateIntegrationsBody } from './integrations.schemas';
import { createIntegrationsService } from './integrations.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });

/** PSA keys and integrator flags. */
export const registerIntegrationsRoutes: TModule = (app, deps) => {
  const integrations = createIntegrationsService(deps);

  app.get(
    '/db/:mspCustomDomain/integrations',
    {
      schema: {
        tags: ['integrations'],
        summary: 'A-004 Integration summary and integrator flags (never keys): any signed-in user of the MSP',
        params: ZMspPathParams,
        response: { 200: ZIntegrationSummary },
      },
    },
    async (request) => {
      const auth = requireTenantUser(request, request.params.mspCustomDomain);
      return integrations.getSummary(auth.mspId);
    },
  );

  app.post(
    '/db/:mspCustomDomain/integrations/update',
    {
      schema: {
        tags: ['integrations'],
        summary: 'A-040 Save PSA keys (encrypted at rest): connectWiseManageIntegration or autotaskIntegration; needs mspIntegrations',
        params: ZMspPathParams,
        body: ZUpdateIntegrationsBody,
        response: { 200: ZIntegrationSummary },
      },
    },
    async (request) => {
      const auth = requireTenantUser(request, request.params.mspCustomDomain);
      if (request.body.mspCustomDomain !== undefined && request.body.mspCustomDomain.toLowerCase() !== auth.mspCustomDomain) throw notFound();
      requirePermission(auth, 'mspIntegrations');
      return integrations.saveKeys({ mspId: auth.mspId, userId: auth.userId, ip: request.ip, requestId: request.id }, request.body);
    },
  );

  app.post(
    '/db/:mspCustomDomain/integrations/updateConnectWiseManageIntegrator',
    {
      schema: {
        tags: ['integrations'],
        summary: 'A-041 status=true verifies the keys by fetching boards, then sets the flag; status=false disconnects and clears the keys',
        params: ZMspPathParams,
        querystring: ZIntegratorQuery,
        response: { 200: ZIntegrationSummary.extend({ boardCount: z.number().int().nullable() }) },
      },
    },
    async (request) => {
      const auth = requireTenantUser(request, request.params.mspCustomDomain);
      requirePermission(auth, 'mspIntegrations');
      return integrations.setIntegrator({ mspId: auth.mspId, userId: auth.userId, ip: request.ip, requestId: request.id }, request.query.status);
    },
  );
};
