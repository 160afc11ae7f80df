import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const catalogueKeys = {
  all: ['integrations-catalogue'] as const,
  client: (mspCustomDomain: string, clientId: string) => [...catalogueKeys.all, mspCustomDomain, 'client', clientId] as const,
};

/** one client company's integration cards. */
export function useClientIntegrations(mspCustomDomain: string, clientId: string | null) {
  return useQuery({
    queryKey: catalogueKeys.client(mspCustomDomain, clientId ?? ''),
    queryFn: () => apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/clientIntegrations/client`, { query: { clientId }, schema: (s) => s.ZClientIntegrations }),
    enabled: clientId !== null,
  });
}
