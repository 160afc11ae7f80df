import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { TSaveRoleBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { sessionKeys } from '../../session/api/session-queries';

/** A role edit may change the signed-in user's own permissions; their information is re-read. */
async function refreshAfterRoleChange(queryClient: QueryClient, mspCustomDomain: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: rolesKeys.list(mspCustomDomain) }),
    queryClient.invalidateQueries({ queryKey: [...sessionKeys.all, 'user-info'] }),
  ]);
}

export const rolesKeys = {
  all: ['roles'] as const,
  list: (mspCustomDomain: string) => [...rolesKeys.all, mspCustomDomain, 'list'] as const,
};

/** every role of the MSP, built-in and custom. */
export function useRoles(mspCustomDomain: string) {
  return useQuery({
    queryKey: rolesKeys.list(mspCustomDomain),
    queryFn: async () => (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/all`, { schema: (s) => s.ZRoleList })).roles,
  });
}

/** creates a role, or edits it when the body carries an id (a clone is a create). */
export function useSaveRole(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TSaveRoleBody) =>
      (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/create`, { method: 'POST', body, schema: (s) => s.ZSaveRoleResponse })).role,
    onSettled: () => refreshAfterRoleChange(queryClient, mspCustomDomain),
  });
}

/** A-062 (a state-changing GET, decisions #2). */
export function useDeleteRole(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: string) =>
      apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/delete`, { query: { id: roleId }, schema: (s) => s.ZDeleteRoleResponse }),
    onSettled: () => refreshAfterRoleChange(queryClient, mspCustomDomain),
  });
}
