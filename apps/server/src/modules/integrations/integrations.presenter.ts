import type { TIntegrationRow } from './integrations.repository';
import type { TIntegrationSummary } from '@switchboard/contracts';
import { dataPsaOf } from './psa-identity';

export const isIntegrationConfigured = (row: TIntegrationRow): boolean => row.secretCiphertext !== '';

/**
 * `dataPsa*`: the PSA the MSP's data came from (decision 042), for the form's warning before keys for another PSA.
 * `hasEmailConnector`: A-004's emailIntegrator is true while a mailbox that accepted the sign-in is saved
 * (decision 036); it lives in email_connectors, so disconnecting the PSA leaves it alone.
 */
export function presentIntegration(row: TIntegrationRow | null, hasEmailConnector: boolean): TIntegrationSummary {
  if (!row) {
    return {
      psaType: null,
      isConfigured: false,
      companyId: null,
      psaUrl: null,
      username: null,
      keyHint: null,
      connectWiseManageIntegrator: false,
      microsoftGraphIntegrator: false,
      emailIntegrator: hasEmailConnector,
      dataPsaConnection: null,
      dataPsaLabel: null,
    };
  }
  const isConfigured = isIntegrationConfigured(row);
  const dataPsa = dataPsaOf(row);
  return {
    psaType: isConfigured ? row.psaType : null,
    isConfigured,
    companyId: row.settings.companyId ?? null,
    psaUrl: row.settings.psaUrl ?? row.settings.zoneDiscoveryUrl ?? null,
    username: row.settings.username ?? null,
    keyHint: row.keyHint || null,
    connectWiseManageIntegrator: row.connectWiseManageIntegrator,
    microsoftGraphIntegrator: row.microsoftGraphIntegrator,
    emailIntegrator: hasEmailConnector,
    dataPsaConnection: dataPsa?.key ?? null,
    dataPsaLabel: dataPsa?.label ?? null,
  };
}
