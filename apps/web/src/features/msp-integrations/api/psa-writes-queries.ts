import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * The MSP's PSA writes not yet in the PSA (decision 013). The routes take the MSP from the session; the keys
 * still carry the MSP's domain, so a session of another MSP in the same tab never reads this one's cache.
 */
export const psaWriteKeys = {
  all: ['psa-writes'] as const,
  open: (mspCustomDomain: string) => [...psaWriteKeys.all, mspCustomDomain, 'open'] as const,
};

const PSA_WRITES_PATH = '/db/api/psa-writes';

/** The writes waiting for the PSA or refused by it, newest first. */
export function usePsaWrites(mspCustomDomain: string) {
  return useQuery({
    queryKey: psaWriteKeys.open(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(PSA_WRITES_PATH, { schema: (s) => s.ZPsaWriteList, signal }),
  });
}

/** Sends one write again now; the answer is the write after that try (done, still pending, or failed). The list is read again after. */
export function useRetryPsaWrite(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (writeId: string) => apiFetch(`${PSA_WRITES_PATH}/${encodeURIComponent(writeId)}/retry`, { method: 'POST', schema: (s) => s.ZPsaWriteResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: psaWriteKeys.open(mspCustomDomain) }),
  });
}

/** Discards a change the PSA refused for good (review s29): never sent, gone from the list. The list is read again after. */
export function useDiscardPsaWrite(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (writeId: string) => apiFetch(`${PSA_WRITES_PATH}/${encodeURIComponent(writeId)}/discard`, { method: 'POST', schema: (s) => s.ZPsaWriteDiscardResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: psaWriteKeys.open(mspCustomDomain) }),
  });
}
