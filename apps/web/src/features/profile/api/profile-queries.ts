import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@switchboard/contracts';
import type { TClientEditBody, TSessionMspUser } from '@switchboard/contracts';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { sessionKeys, setSignedInUser } from '../../session/api/session-queries';

export type TProfileFields = { firstName: string; lastName: string; phoneNumber: string };

/** the edit endpoint follows the user type (A-036 technicians, A-037 clients). */
export function profileEditPath(user: TSessionMspUser): string {
  const users = user.userKind === 'technician' ? 'technicianUsers' : 'clientUsers';
  return `/db/${encodeURIComponent(user.mspCustomDomain)}/${users}/edit`;
}

/** the server's message (or "Failed to save changes") for a refused save; an exception gets its own text. */
export function profileSaveErrorMessage(error: unknown): string {
  if (isApiError(error) && error.code !== 'network' && error.code !== 'invalid_response') {
    return error.detail.trim() === '' ? MESSAGES.profileSaveFailed : error.detail;
  }
  return MESSAGES.profileSaveException;
}

/** Saves the signed-in user's own names and phone (the changed ones), then updates the cached session user. */
export function useSaveProfile(user: TSessionMspUser) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fields: Partial<TProfileFields>) => {
      const body: TClientEditBody = { email: user.email, ...fields };
      return (await apiFetch(profileEditPath(user), { method: 'PUT', body, schema: (s) => s.ZEditUserResponse })).user;
    },
    // The edit answers the user in the session shape (role and permissions included), so it replaces
    // the cached session user and the cached A-001 copy: the dashboard re-syncs the session from
    // that copy, which otherwise put the old names back until a reload.
    onSuccess: (saved) => {
      queryClient.setQueryData(sessionKeys.userInfo(saved.id), saved);
      setSignedInUser(queryClient, saved);
    },
  });
}
