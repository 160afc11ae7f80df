import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionCheckResponse, TSessionMspUser, TSessionUser } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { clearAllClientState, loadLastActiveUser, saveLastActiveUser, saveLastActiveUserType } from '../../../lib/local-storage';
import { resetAllStores } from '../../../lib/store-reset';

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

/** A-072, asked once per app start; sign-in and sign-out refresh it explicitly. */
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
    if (query.isError) console.error(MESSAGES.techInitFailed, query.error);
  }, [query.isError, query.error]);
}

const MSP_PATH_PATTERN = /^\/([a-z0-9-]{3,63})\/(dashboard|forgot)(\/|$)/;

/**
 * Where logout lands (02 §2, decisions #15): /public from a /public/dashboard path, else the MSP
 * login page of the user (or of the MSP in the current path), else /auth/login.
 */
export function logoutRedirectPath(user: TSessionUser | null, pathname: string): string {
  if (pathname === '/public/dashboard' || pathname.startsWith('/public/dashboard/')) return '/public';
  if (user?.principal === 'user') return `/${user.mspCustomDomain}`;
  if (user?.principal === 'account') return '/auth/login';
  const mspInPath = MSP_PATH_PATTERN.exec(pathname)?.[1];
  return mspInPath === undefined ? '/auth/login' : `/${mspInPath}`;
}

export type TLogoutDeps = {
  queryClient: QueryClient;
  pathname: string;
  redirect: (path: string) => void;
};

/** Spec 02 §4 logout: server call, then clear everything the browser holds and redirect — even if the call failed. */
export async function performLogout({ queryClient, pathname, redirect }: TLogoutDeps): Promise<void> {
  const cached = queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current());
  const user = cached?.authenticated === true ? cached.user : await loadLastActiveUser().catch(() => null);
  const target = logoutRedirectPath(user, pathname);
  try {
    await apiFetch(LOGOUT_PATH, { method: 'POST', schema: (s) => s.ZLogoutResponse });
  } catch {
    // Decisions #15: a failed logout call still clears and redirects; the cookie expires on its own.
  } finally {
    clearAllClientState();
    await queryClient.cancelQueries();
    queryClient.clear();
    resetAllStores();
    redirect(target);
  }
}

/** Full page load on purpose: nothing of the old session survives in memory. */
function redirectWithReload(path: string): void {
  window.location.assign(path);
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => performLogout({ queryClient, pathname: window.location.pathname, redirect: redirectWithReload }),
  });
}
