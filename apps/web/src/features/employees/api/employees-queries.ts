import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddPsaMembersBody, TAddTechnicianBody, TTechnicianEditBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { sessionKeys } from '../../session/api/session-queries';

export type TEmployeeStatus = 'active' | 'inactive';
export type TEmployeeFilter = { search: string; roleId: string; page: number };

export const employeesKeys = {
  all: ['employees'] as const,
  msp: (mspCustomDomain: string) => [...employeesKeys.all, mspCustomDomain] as const,
  list: (mspCustomDomain: string, status: TEmployeeStatus, filter: TEmployeeFilter) => [...employeesKeys.msp(mspCustomDomain), status, filter] as const,
};

const mspPath = (mspCustomDomain: string) => `/db/${encodeURIComponent(mspCustomDomain)}`;

/** A-007 (active) or the inactive list: one server page of 30, searched and filtered by role. */
export function useEmployees(mspCustomDomain: string, status: TEmployeeStatus, filter: TEmployeeFilter) {
  return useQuery({
    queryKey: employeesKeys.list(mspCustomDomain, status, filter),
    queryFn: ({ signal }) =>
      apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/${status}Technicians`, {
        query: { search: filter.search === '' ? undefined : filter.search, roleId: filter.roleId, page: filter.page },
        schema: (s) => s.ZEmployeePage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * After any change to employees: their lists, and the MSP's teams, whose members show each one's name, tier and
 * whether they are active (`['teams', domain]` is teamsKeys' prefix: teams-queries imports this module, not the reverse).
 */
function useInvalidateEmployees(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: employeesKeys.msp(mspCustomDomain) }), queryClient.invalidateQueries({ queryKey: ['teams', mspCustomDomain] })]);
}

/** the add-employee form (only called once the form shows no error, R-144). */
export function useAddEmployee(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (body: TAddTechnicianBody) => (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/add`, { method: 'POST', body, schema: (s) => s.ZAddTechnicianResponse })).user,
    onSettled: invalidate,
  });
}

/** A-036 as an admin edit: role and tier of the employee named by e-mail. */
export function useEditEmployee(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (body: Pick<TTechnicianEditBody, 'email' | 'roleId' | 'tierLevel'>) =>
      (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/edit`, { method: 'PUT', body, schema: (s) => s.ZEditUserResponse })).user,
    // Admins editing themselves: their menus follow their role, so their information is re-read (as after a
    // role edit). Only the signed-in user's information is cached, so editing anyone else refreshes nothing.
    onSuccess: (saved) => queryClient.invalidateQueries({ queryKey: sessionKeys.userInfo(saved.id) }),
    onSettled: invalidate,
  });
}

/** A-038 (a state-changing GET, decisions #2): the employee becomes inactive. */
export function useDeleteEmployee(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (id: string) => (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/delete`, { query: { id }, schema: (s) => s.ZDeleteEmployeeResponse })).employee,
    onSettled: invalidate,
  });
}

/** Restore (addition): an inactive employee becomes active again. */
export function useRestoreEmployee(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (id: string) => (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/restore`, { method: 'POST', query: { id }, schema: (s) => s.ZEmployeeResponse })).employee,
    onSettled: invalidate,
  });
}

/** Decision 047: removes a colleague's lost authenticator app (and any pending setup); the server mails them. */
export function useRemoveAuthenticatorApp(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: (id: string) => apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/totp/remove`, { method: 'POST', body: { id }, schema: (s) => s.ZRemoveAuthenticatorAppResponse }),
    onSettled: invalidate,
  });
}

/** Decision 019: mail an invitation link to one technician without an account. */
export function useSendInvitation(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (id: string) => (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/sendInvitation`, { method: 'POST', body: { id }, schema: (s) => s.ZEmployeeResponse })).employee,
    onSettled: invalidate,
  });
}

/** Decision 019: mail invitation links to every technician with neither an account nor an open invitation. */
export function useSendInvitations(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async () => (await apiFetch(`${mspPath(mspCustomDomain)}/technicianUsers/sendInvitations`, { method: 'POST', schema: (s) => s.ZSendInvitationsResponse })).invited,
    onSettled: invalidate,
  });
}

/** PSA members not yet employees (the server refreshes them from the PSA). */
export function usePsaMemberCandidates(mspCustomDomain: string) {
  return useQuery({
    queryKey: [...employeesKeys.msp(mspCustomDomain), 'psa-candidates'] as const,
    queryFn: async ({ signal }) => (await apiFetch(`${mspPath(mspCustomDomain)}/psaMembers`, { schema: (s) => s.ZPsaMemberCandidates, signal })).members,
  });
}

/** imports the chosen PSA members as technicians with one tier and role. */
export function useImportPsaMembers(mspCustomDomain: string) {
  const invalidate = useInvalidateEmployees(mspCustomDomain);
  return useMutation({
    mutationFn: async (body: TAddPsaMembersBody) => (await apiFetch(`/psa/${encodeURIComponent(mspCustomDomain)}/addPSAMembers`, { method: 'POST', body, schema: (s) => s.ZAddPsaMembersResponse })).added,
    onSettled: invalidate,
  });
}
