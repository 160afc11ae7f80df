import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CORE_MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { sessionKeys, setSignedInUser } from './session-queries';

/**
 * the dashboard initialises the technician's information from A-001, so a role changed
 * since sign-in shows its current permissions; a failure is logged with the spec's text.
 */
export function useTechnicianInformation(user: TSessionMspUser) {
  const queryClient = useQueryClient();
  const isTechnician = user.userKind === 'technician';
  const query = useQuery({
    queryKey: sessionKeys.userInfo(user.id),
    queryFn: () =>
      apiFetch(`/db/${encodeURIComponent(user.mspCustomDomain)}/technicianUsers/getById`, { query: { id: user.id }, schema: (s) => s.ZGetUserByIdResponse }),
    enabled: isTechnician,
    retry: false,
  });
  const fresh = query.data;
  useEffect(() => {
    if (fresh !== undefined && JSON.stringify(fresh) !== JSON.stringify(user)) setSignedInUser(queryClient, fresh);
  }, [fresh, user, queryClient]);
  useEffect(() => {
    if (query.isError) console.error(CORE_MESSAGES.techInitFailed, query.error);
  }, [query.isError, query.error]);
}
