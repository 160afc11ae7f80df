import { z } from 'zod';
import { ZCustomDomain } from '@switchboard/contracts';

const boundedText = (max: number) => z.string().trim().min(1).max(max);

export const ZConnectWiseIntegrationInput = z.object({
  companyId: boundedText(100),
  publicKey: boundedText(200),
  privateKey: boundedText(200),
  /** The ConnectWise site, e.g. https://na.myconnectwise.net; the codebase is discovered from it. */
  psaUrl: boundedText(300),
  /** Addition: the integration's ConnectWise clientId, which ConnectWise requires on every call. */
  clientId: boundedText(100).optional(),
});

export const ZAutotaskIntegrationInput = z.object({
  username: boundedText(200),
  secret: boundedText(200),
  integrationCode: boundedText(200),
  /** Addition: where to ask for the zone; Autotask's global zone-information URL when absent. */
  zoneDiscoveryUrl: boundedText(300).optional(),
});

export const ZUpdateIntegrationsBody = z
  .object({
    mspCustomDomain: ZCustomDomain.optional(),
    connectWiseManageIntegration: ZConnectWiseIntegrationInput.optional(),
    autotaskIntegration: ZAutotaskIntegrationInput.optional(),
  })
  .refine((body) => (body.connectWiseManageIntegration === undefined) !== (body.autotaskIntegration === undefined), {
    message: 'Send exactly one of connectWiseManageIntegration or autotaskIntegration.',
    path: ['connectWiseManageIntegration'],
  });
export type TUpdateIntegrationsBody = z.infer<typeof ZUpdateIntegrationsBody>;

export const ZIntegratorQuery = z.object({ status: z.enum(['true', 'false']).transform((value) => value === 'true') });

/** The sealed part of an integration row, as JSON before encryption. */
export const ZIntegrationSecrets = z.union([
  z.object({ psaType: z.literal('CONNECTWISE'), publicKey: z.string(), privateKey: z.string() }),
  z.object({ psaType: z.literal('AUTOTASK'), secret: z.string(), integrationCode: z.string() }),
]);
export type TIntegrationSecrets = z.infer<typeof ZIntegrationSecrets>;
