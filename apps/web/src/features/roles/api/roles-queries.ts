import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZDeleteRoleResponse, ZRoleList, ZSaveRoleResponse } from '@switchboard/contracts';
import type { TSaveRoleBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

export const rolesKeys = {
  all: ['roles'] as const,
  list: (mspCustomDomain: string) => [...rolesKeys.all, mspCustomDomain, 'list'] as const,
};

/** every role of the MSP, built-in and custom. */
export function useRoles(mspCustomDomain: string) {
  return useQuery({
    queryKey: rolesKeys.list(mspCustomDomain),
    queryFn: async () => (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/all`, { schema: ZRoleList })).roles,
  });
}

/** creates a role, or edits it when the body carries an id (a clone is a create). */
export function useSaveRole(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TSaveRoleBody) =>
      (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/create`, { method: 'POST', body, schema: ZSaveRoleResponse })).role,
    onSettled: () => queryClient.invalidateQueries({ queryKey: rolesKeys.list(mspCustomDomain) }),
  });
}

/** A-062 (a state-changing GET, decisions #2). */
export function useDeleteRole(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: string) =>
      apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/roles/delete`, { query: { id: roleId }, schema: ZDeleteRoleResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rolesKeys.list(mspCustomDomain) }),
  });
}
