import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { saveLastActiveUser, saveLastActiveUserType } from '../../../lib/local-storage';

export const SESSION_CHECK_PATH = '/auth/api/auth/microsoft-user';
export const LOGOUT_PATH = '/auth/api/auth/logout';

export const sessionKeys = {
  all: ['session'] as const,
  current: () => [...sessionKeys.all, 'current'] as const,
  userInfo: (userId: string) => [...sessionKeys.all, 'user-info', userId] as const,
};

function rememberUser(user: TSessionUser): void {
  saveLastActiveUser(user);
  if (user.principal === 'user') saveLastActiveUserType(user.userKind === 'technician' ? 'tech' : 'client');
}

export async function fetchSession(): Promise<TSessionCheckResponse> {
  const session = await apiFetch(SESSION_CHECK_PATH, { schema: (s) => s.ZSessionCheckResponse });
  if (session.authenticated) rememberUser(session.user);
  return session;
}

/** A-072, asked once per app start; sign-in and sign-out refresh it explicitly, and so does a refused call (session-end.ts). */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.current(),
    queryFn: fetchSession,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** The signed-in user, or null while loading or signed out. */
export function useSessionUser(): TSessionUser | null {
  const { data } = useSession();
  return data?.authenticated === true ? data.user : null;
}

/** Called by sign-in flows with the user the server returned, so the shell needs no extra round trip. */
export function setSignedInUser(queryClient: QueryClient, user: TSessionUser): void {
  rememberUser(user);
  const session: TSessionCheckResponse = { authenticated: true, user };
  queryClient.setQueryData(sessionKeys.current(), session);
}
