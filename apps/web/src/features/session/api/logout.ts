import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { clearAllClientState, loadLastActiveUser } from '../../../lib/local-storage';
import { resetAllStores } from '../../../lib/store-reset';
import { LOGOUT_PATH, sessionKeys } from './session-queries';

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
