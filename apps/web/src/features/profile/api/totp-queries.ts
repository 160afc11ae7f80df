import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSessionMspUser, TTotpStatusResponse } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

/** The signed-in user's own authenticator-app calls (decisions #16): `/db/{msp}/{technicianUsers|clientUsers}/totp`. */
export function totpPath(user: Pick<TSessionMspUser, 'mspCustomDomain' | 'userKind'>): string {
  const users = user.userKind === 'technician' ? 'technicianUsers' : 'clientUsers';
  return `/db/${encodeURIComponent(user.mspCustomDomain)}/${users}/totp`;
}

export const totpKeys = { status: (user: Pick<TSessionMspUser, 'id'>) => ['totp', user.id] as const };

/** The key grouped in fours, as people type it into an app. */
export function groupedKey(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

export function useTotpStatus(user: TSessionMspUser) {
  return useQuery({
    queryKey: totpKeys.status(user),
    queryFn: async ({ signal }) => (await apiFetch(totpPath(user), { schema: (s) => s.ZTotpStatusResponse, signal })).totpEnabled,
  });
}

/** A new secret to type into the app; an app already in use keeps working until the new one is confirmed. */
export function useStartTotpSetup(user: TSessionMspUser) {
  return useMutation({ mutationFn: async () => apiFetch(`${totpPath(user)}/setup`, { method: 'POST', schema: (s) => s.ZTotpSetupResponse }) });
}

/** The codes a change sends: `currentCode` only when a new app replaces the enrolled one (security review s28). */
export type TTotpCodes = { code: string; currentCode?: string };

function useTotpChange(user: TSessionMspUser, step: 'enable' | 'disable') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (codes: TTotpCodes): Promise<TTotpStatusResponse> => apiFetch(`${totpPath(user)}/${step}`, { method: 'POST', body: codes, schema: (s) => s.ZTotpStatusResponse }),
    onSuccess: ({ totpEnabled }) => queryClient.setQueryData(totpKeys.status(user), totpEnabled),
    // A refusal may come from a status changed since it was read (an app turned on in another tab, so the server asks
    // for the current app's code too): read it again, so the form asks for what the server does.
    onError: () => queryClient.invalidateQueries({ queryKey: totpKeys.status(user) }),
  });
}

/** Confirms the app being set up with a code from it, and from the enrolled app when it replaces one. */
export const useConfirmTotp = (user: TSessionMspUser) => useTotpChange(user, 'enable');

/** Turns the app off with a current code from it. */
export const useTurnOffTotp = (user: TSessionMspUser) => useTotpChange(user, 'disable');
