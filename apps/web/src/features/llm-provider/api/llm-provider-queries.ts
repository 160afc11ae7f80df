import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TLlmProviderSettings, TSaveLlmProviderBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

export const llmProviderKeys = {
  all: ['llm-provider'] as const,
  byMsp: (mspCustomDomain: string) => [...llmProviderKeys.all, mspCustomDomain] as const,
};

const pathOf = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}/llm-provider`;

/** The AI model Jarvis uses (never the key, only its last four characters). */
export function useLlmProvider(mspCustomDomain: string, isEnabled = true) {
  return useQuery({
    queryKey: llmProviderKeys.byMsp(mspCustomDomain),
    queryFn: () => apiFetch(pathOf(mspCustomDomain), { schema: (s) => s.ZLlmProviderSettings }),
    enabled: isEnabled,
  });
}

/** Saves provider, model, base URL and (when typed) a new key. */
export function useSaveLlmProvider(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSaveLlmProviderBody) => apiFetch(pathOf(mspCustomDomain), { method: 'PUT', body, schema: (s) => s.ZLlmProviderSettings }),
    onSuccess: (settings: TLlmProviderSettings) => queryClient.setQueryData(llmProviderKeys.byMsp(mspCustomDomain), settings),
  });
}

/** Removes the model and its key; Jarvis answers from the knowledge base again. */
export function useRemoveLlmProvider(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch(pathOf(mspCustomDomain), { method: 'DELETE', schema: (s) => s.ZLlmProviderSettings }),
    onSuccess: (settings: TLlmProviderSettings) => queryClient.setQueryData(llmProviderKeys.byMsp(mspCustomDomain), settings),
  });
}

/** One short call to the saved model: ok and a plain message. */
export function useTestLlmProvider(mspCustomDomain: string) {
  return useMutation({
    mutationFn: () => apiFetch(`${pathOf(mspCustomDomain)}/test`, { method: 'POST', schema: (s) => s.ZLlmProviderTestResult }),
  });
}
