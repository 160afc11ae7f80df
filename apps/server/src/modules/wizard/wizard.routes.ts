import { z } from 'zod';
import { ZCustomDomain, ZWizardCompleteBody, ZWizardOpenBody, ZWizardProgress } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf, mspUserOf } from '../../plugins/access';
import { createWizardService } from './wizard.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const access = { principal: 'user', tenant: 'path', anyPermission: ['mspIntegrations'] } as const;

/**
 * The setup wizard's stored progress (01 §2, §4). Not in the catalogue: the spec keeps the step in
 * the browser; we store it so a refresh or a second admin sees the same step (decision 017).
 */
export const registerWizardRoutes: TModule = (app, deps) => {
  const wizard = createWizardService(deps);

  app.get(
    '/db/:mspCustomDomain/wizard',
    {
      schema: { tags: ['wizard'], operationId: 'getWizardProgress', summary: 'The setup wizard: current step and completed steps; needs mspIntegrations', params: ZMspPathParams, response: { 200: ZWizardProgress } },
      config: { access },
    },
    async (request) => wizard.getProgress(mspUserOf(request).mspId),
  );

  app.post(
    '/db/:mspCustomDomain/wizard/open',
    {
      schema: {
        tags: ['wizard'],
        operationId: 'openWizardStep',
        summary: 'Open a step: step 1, the current step, or one whose previous step is completed (R-183)',
        params: ZMspPathParams,
        body: ZWizardOpenBody,
        response: { 200: ZWizardProgress },
      },
      config: { access },
    },
    async (request) => wizard.openStep(actorOf(request), request.body.step),
  );

  app.post(
    '/db/:mspCustomDomain/wizard/complete',
    {
      schema: {
        tags: ['wizard'],
        operationId: 'completeWizardStep',
        summary: 'Complete the current step when its rule holds (R-184–R-191) and move to the next; step 6 finishes',
        params: ZMspPathParams,
        body: ZWizardCompleteBody,
        response: { 200: ZWizardProgress },
      },
      config: { access },
    },
    async (request) => wizard.completeStep(actorOf(request), request.body),
  );
};
