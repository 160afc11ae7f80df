import { useMutation, useQuery } from '@tanstack/react-query';
import type { TSyncBoardsBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

export const syncKeys = {
  all: ['batch-sync'] as const,
  boards: (mspCustomDomain: string) => [...syncKeys.all, mspCustomDomain, 'boards'] as const,
  status: (parentRunId: string) => [...syncKeys.all, 'status', parentRunId] as const,
};

/** the PSA's boards (Autotask: queues) for the board choice. */
export function useSyncBoards(mspCustomDomain: string) {
  return useQuery({
    queryKey: syncKeys.boards(mspCustomDomain),
    queryFn: () => apiFetch('/psa/getConnectWiseBoards', { query: { mspCustomDomain }, schema: (s) => s.ZPsaBoardList }),
  });
}

/** starts a batch sync; answers parentRunId. */
export function useStartBoardSync(mspCustomDomain: string) {
  return useMutation({
    mutationFn: (body: Omit<TSyncBoardsBody, 'mspCustomDomain'>) =>
      apiFetch('/psa/api/batch/sync-boards', { method: 'POST', body: { ...body, mspCustomDomain }, schema: (s) => s.ZSyncBoardsResult }),
  });
}

/** one status read (the screen schedules them: 10 s, then every 45 s). */
export function fetchBatchStatus(parentRunId: string) {
  return apiFetch('/psa/api/batch/status', { query: { parentRunId }, schema: (s) => s.ZBatchStatus });
}
