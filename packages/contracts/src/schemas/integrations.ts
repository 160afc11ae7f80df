import { z } from 'zod';

/**
 * the MSP's PSA integration as any signed-in user of the MSP may see it —
 * never a key, only a hint of its last characters.
 */
export const ZIntegrationSummary = z.object({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']).nullable(),
  isConfigured: z.boolean(),
  companyId: z.string().nullable(),
  psaUrl: z.string().nullable(),
  username: z.string().nullable(),
  keyHint: z.string().nullable(),
  connectWiseManageIntegrator: z.boolean(),
  microsoftGraphIntegrator: z.boolean(),
  emailIntegrator: z.boolean(),
});
export type TIntegrationSummary = z.infer<typeof ZIntegrationSummary>;

/** the summary after the integrator flag changed, with the boards the key check counted (null when disconnecting). */
export const ZIntegratorResult = ZIntegrationSummary.extend({ boardCount: z.number().int().nullable() });
export type TIntegratorResult = z.infer<typeof ZIntegratorResult>;
