import type { TIntegrationRow } from './integrations.repository';
import type { TIntegrationSummary } from '@switchboard/contracts';

export const isIntegrationConfigured = (row: TIntegrationRow): boolean => row.secretCiphertext !== '';

/** Shows the last four characters only, e.g. "••••Key1". */
export function keyHintOf(key: string): string {
  return `••••${key.slice(-4)}`;
}

export function presentIntegration(row: TIntegrationRow | null): TIntegrationSummary {
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
      emailIntegrator: false,
    };
  }
  const isConfigured = isIntegrationConfigured(row);
  return {
    psaType: isConfigured ? row.psaType : null,
    isConfigured,
    companyId: row.settings.companyId ?? null,
    psaUrl: row.settings.psaUrl ?? row.settings.zoneDiscoveryUrl ?? null,
    username: row.settings.username ?? null,
    keyHint: row.keyHint || null,
    connectWiseManageIntegrator: row.connectWiseManageIntegrator,
    microsoftGraphIntegrator: row.microsoftGraphIntegrator,
    emailIntegrator: row.emailIntegrator,
  };
}
