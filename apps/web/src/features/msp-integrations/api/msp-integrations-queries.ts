import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TWizardCompleteBody, TWizardProgress } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

const mspPath = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}`;

export const mspIntegrationKeys = {
  all: ['msp-integrations'] as const,
  summary: (mspCustomDomain: string) => [...mspIntegrationKeys.all, mspCustomDomain, 'summary'] as const,
  wizard: (mspCustomDomain: string) => [...mspIntegrationKeys.all, mspCustomDomain, 'wizard'] as const,
};

export type TConnectWiseKeys = { companyId: string; publicKey: string; privateKey: string; psaUrl: string; clientId?: string };
export type TAutotaskKeys = { username: string; secret: string; integrationCode: string; zoneDiscoveryUrl?: string };
export type TConnectInput = { psaType: 'CONNECTWISE'; keys: TConnectWiseKeys } | { psaType: 'AUTOTASK'; keys: TAutotaskKeys };

/** the MSP's integration summary. */
export function useIntegrationSummary(mspCustomDomain: string) {
  return useQuery({
    queryKey: mspIntegrationKeys.summary(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(`${mspPath(mspCustomDomain)}/integrations`, { schema: (s) => s.ZIntegrationSummary, signal }),
  });
}

function useInvalidateAll() {
  const queryClient = useQueryClient();
  // Connecting or disconnecting changes every PSA-backed list (boards, members, teams, the wizard).
  return () => queryClient.invalidateQueries();
}

/** save keys, then integrate: fetch boards and set the integrator status true. */
export function useConnectPsa(mspCustomDomain: string) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: async (input: TConnectInput) => {
      const body = input.psaType === 'CONNECTWISE' ? { mspCustomDomain, connectWiseManageIntegration: input.keys } : { mspCustomDomain, autotaskIntegration: input.keys };
      await apiFetch(`${mspPath(mspCustomDomain)}/integrations/update`, { method: 'POST', body, schema: (s) => s.ZIntegrationSummary });
      return apiFetch(`${mspPath(mspCustomDomain)}/integrations/updateConnectWiseManageIntegrator`, { method: 'POST', query: { status: 'true' }, schema: (s) => s.ZIntegratorResult });
    },
    onSettled: invalidate,
  });
}

/** disconnect clears the keys and the status; the server also resets the wizard. */
export function useDisconnectPsa(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch(`${mspPath(mspCustomDomain)}/integrations/updateConnectWiseManageIntegrator`, { method: 'POST', query: { status: 'false' }, schema: (s) => s.ZIntegratorResult }),
    // clears all loaded data, not only this screen's; the session stays (the user is still signed in).
    onSettled: () => queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== 'session' }),
  });
}

/** The stored wizard progress (decision 017). */
export function useWizardProgress(mspCustomDomain: string) {
  return useQuery({
    queryKey: mspIntegrationKeys.wizard(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(`${mspPath(mspCustomDomain)}/wizard`, { schema: (s) => s.ZWizardProgress, signal }),
  });
}

/**
 * A refused open or complete (409: another admin moved the wizard on, or disconnected the PSA) means the progress held
 * here is stale, and refetch on focus is off: read it again so the stepper shows where the wizard really is.
 */
function useWizardMutationHandlers(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return {
    onSuccess: (progress: TWizardProgress) => queryClient.setQueryData(mspIntegrationKeys.wizard(mspCustomDomain), progress),
    onError: () => queryClient.invalidateQueries({ queryKey: mspIntegrationKeys.wizard(mspCustomDomain) }),
  };
}

export function useOpenWizardStep(mspCustomDomain: string) {
  return useMutation({
    mutationFn: (step: number) => apiFetch(`${mspPath(mspCustomDomain)}/wizard/open`, { method: 'POST', body: { step }, schema: (s) => s.ZWizardProgress }),
    ...useWizardMutationHandlers(mspCustomDomain),
  });
}

export function useCompleteWizardStep(mspCustomDomain: string) {
  return useMutation({
    mutationFn: (body: TWizardCompleteBody) => apiFetch(`${mspPath(mspCustomDomain)}/wizard/complete`, { method: 'POST', body, schema: (s) => s.ZWizardProgress }),
    ...useWizardMutationHandlers(mspCustomDomain),
  });
}

/** the PSA's company (client) types for the finish step. */
export function useCompanyTypes(mspCustomDomain: string) {
  return useQuery({
    queryKey: [...mspIntegrationKeys.all, mspCustomDomain, 'company-types'] as const,
    queryFn: ({ signal }) => apiFetch('/psa/getCompanyTypes', { query: { mspCustomDomain }, schema: (s) => s.ZNamedList, signal }),
  });
}

/** A-042 records the auto-synced client type, then A-043 copies companies and contacts. */
export function useFinishAutoSync(mspCustomDomain: string) {
  return useMutation({
    mutationFn: async (clientType: { id: number; name: string } | null) => {
      if (clientType) {
        await apiFetch(`${mspPath(mspCustomDomain)}/updateClientSync`, { query: { clientTypeId: clientType.id, clientTypeName: clientType.name }, schema: (s) => s.ZClientSyncResult });
      }
      return apiFetch('/psa/syncClientsContacts', { query: { mspCustomDomain }, schema: (s) => s.ZSyncClientsContactsResult });
    },
  });
}
