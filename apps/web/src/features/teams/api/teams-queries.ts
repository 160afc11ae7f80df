import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddTeamMembersBody, TCreateTeamBody, TUpdateTeamBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { employeesKeys } from '../../employees/api/employees-queries';

export const teamsKeys = {
  all: ['teams'] as const,
  list: (mspCustomDomain: string) => [...teamsKeys.all, mspCustomDomain, 'list'] as const,
  boards: (mspCustomDomain: string) => [...teamsKeys.all, mspCustomDomain, 'boards'] as const,
};

/** the MSP's teams with their members. */
export function useTeams(mspCustomDomain: string) {
  return useQuery({
    queryKey: teamsKeys.list(mspCustomDomain),
    queryFn: async ({ signal }) => (await apiFetch('/db/api/teams/getByMspCustomDomain', { query: { mspCustomDomain }, schema: (s) => s.ZTeamList, signal })).teams,
  });
}

/** the PSA's boards (Autotask: queues) a team is created on. */
export function useBoards(mspCustomDomain: string, isEnabled: boolean) {
  return useQuery({
    queryKey: teamsKeys.boards(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch('/psa/getConnectWiseBoards', { query: { mspCustomDomain }, schema: (s) => s.ZTeamBoards, signal }),
    enabled: isEnabled,
  });
}

/** A-007 narrowed to technicians linked to a PSA member, the only ones a team may take. */
export function useTeamCandidates(mspCustomDomain: string, search: string, page: number) {
  const filter = { search, roleId: 'all', page, hasPsaMember: true };
  return useQuery({
    queryKey: [...employeesKeys.msp(mspCustomDomain), 'team-candidates', filter] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/technicianUsers/activeTechnicians`, {
        query: { search: search === '' ? undefined : search, page, hasPsaMember: 'true' },
        schema: (s) => s.ZEmployeePage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateTeams(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: teamsKeys.list(mspCustomDomain) });
}

/** a board and a name (01 §5); created in the PSA and here. */
export function useCreateTeam(mspCustomDomain: string) {
  const invalidate = useInvalidateTeams(mspCustomDomain);
  return useMutation({
    mutationFn: async (body: Omit<TCreateTeamBody, 'mspCustomDomain'>) =>
      (await apiFetch('/psa/addTeamInConnectWiseAndAutopilot', { method: 'POST', query: { mspCustomDomain }, body: { ...body, mspCustomDomain }, schema: (s) => s.ZTeamResponse })).team,
    onSettled: invalidate,
  });
}

/** members to add, Tier1 unless chosen otherwise (02 §4). */
export function useAddTeamMembers(mspCustomDomain: string) {
  const invalidate = useInvalidateTeams(mspCustomDomain);
  return useMutation({
    mutationFn: async ({ teamId, members }: { teamId: string; members: TAddTeamMembersBody }) =>
      (await apiFetch(`/psa/api/teams/addMembers/${encodeURIComponent(teamId)}`, { method: 'PUT', body: members, schema: (s) => s.ZTeamResponse })).team,
    onSettled: invalidate,
  });
}

/** member tiers (the edit-member dialog) and the team name. */
export function useUpdateTeam(mspCustomDomain: string) {
  const invalidate = useInvalidateTeams(mspCustomDomain);
  return useMutation({
    mutationFn: async ({ teamId, body }: { teamId: string; body: TUpdateTeamBody }) =>
      (await apiFetch(`/psa/api/teams/update/${encodeURIComponent(teamId)}`, { method: 'PUT', body, schema: (s) => s.ZTeamResponse })).team,
    onSettled: invalidate,
  });
}

/** removes the member with this e-mail. */
export function useRemoveTeamMember(mspCustomDomain: string) {
  const invalidate = useInvalidateTeams(mspCustomDomain);
  return useMutation({
    mutationFn: async ({ teamId, email }: { teamId: string; email: string }) =>
      (await apiFetch(`/psa/api/teams/removeMember/${encodeURIComponent(teamId)}`, { method: 'DELETE', query: { emailId: email }, schema: (s) => s.ZTeamResponse })).team,
    onSettled: invalidate,
  });
}
