import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { loadLastActiveUser } from '../../../lib/local-storage';
import { resetAllStores } from '../../../lib/store-reset';
import { LOGIN_AS_PARAM } from '../../auth/lib/user-kind';
import { LOGOUT_PATH, sessionKeys } from './session-queries';

// The two clearing functions live here, with logout, their one caller: not in the first load (issue #6 §5).
/** Expires every cookie JavaScript can see, on this path and its parents (HttpOnly ones are the server's job). */
function clearScriptVisibleCookies(): void {
  const names = document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
  const segments = window.location.pathname.split('/').filter((segment) => segment !== '');
  const paths = ['/', ...segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}`)];
  for (const name of names) {
    for (const path of paths) {
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
    }
  }
}

/** Spec 02 §4 logout: clears local storage, session storage and script-visible cookies. */
export function clearAllClientState(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Storage may be disabled; nothing to clear then.
  }
  try {
    window.sessionStorage.clear();
  } catch {
    // As above.
  }
  clearScriptVisibleCookies();
}

const MSP_PATH_PATTERN = /^\/([a-z0-9-]{3,63})\/(dashboard|forgot)(\/|$)/;

/**
 * Where logout lands (02 §2, decisions #15): /public from a /public/dashboard path, else the MSP
 * login page of the user (or of the MSP in the current path), else /auth/login. The MSP user's page
 * is told their side (`?as=tech|client`): logout clears the stored last user type (02 §4), and the
 * page would otherwise open on Client and refuse a technician's email.
 */
export function logoutRedirectPath(user: TSessionUser | null, pathname: string): string {
  if (pathname === '/public/dashboard' || pathname.startsWith('/public/dashboard/')) return '/public';
  if (user?.principal === 'user') return `/${user.mspCustomDomain}?${LOGIN_AS_PARAM}=${user.userKind === 'technician' ? 'tech' : 'client'}`;
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
