import { z } from 'zod';
import { ZCustomDomain, ZIntegrationSummary, ZIntegratorResult } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { ZIntegratorQuery, ZUpdateIntegrationsBody } from './integrations.schemas';
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
        operationId: 'getIntegrations',
        summary: 'A-004 Integration summary and integrator flags (never keys): any signed-in user of the MSP',
        params: ZMspPathParams,
        response: { 200: ZIntegrationSummary },
      },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => {
      return integrations.getSummary(mspUserOf(request).mspId);
    },
  );

  app.post(
    '/db/:mspCustomDomain/integrations/update',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'updateIntegrations',
        summary: 'A-040 Save PSA keys (encrypted at rest): connectWiseManageIntegration or autotaskIntegration; needs mspIntegrations',
        params: ZMspPathParams,
        body: ZUpdateIntegrationsBody,
        response: { 200: ZIntegrationSummary },
      },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['mspIntegrations'] } },
    },
    async (request) => {
      return integrations.saveKeys(actorOf(request), request.body);
    },
  );

  app.post(
    '/db/:mspCustomDomain/integrations/updateConnectWiseManageIntegrator',
    {
      schema: {
        tags: ['integrations'],
        operationId: 'updateConnectWiseManageIntegrator',
        summary: 'A-041 status=true verifies the keys by fetching boards, then sets the flag; status=false disconnects and clears the keys',
        params: ZMspPathParams,
        querystring: ZIntegratorQuery,
        response: { 200: ZIntegratorResult },
      },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['mspIntegrations'] } },
    },
    async (request) => {
      return integrations.setIntegrator(actorOf(request), request.query.status);
    },
  );
};
