import { redirect } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { mspUserHome } from '@switchboard/contracts';
import type { TSessionMspUser, TSessionUser } from '@switchboard/contracts';
import { loadLastActiveUser } from '../../lib/local-storage';
import { queryClient } from '../../lib/query-client';
import { mspFromPath } from '../../lib/route-progress';
import { fetchSession, sessionKeys } from './api/session-queries';

async function currentSessionUser(): Promise<TSessionUser | null> {
  const session = await queryClient.ensureQueryData({ queryKey: sessionKeys.current(), queryFn: fetchSession, staleTime: Infinity });
  return session.authenticated ? session.user : null;
}

/** The page a signed-in user belongs on: MSP users their tickets landing, accounts their dashboard. */
export function homePathFor(user: TSessionUser): string {
  return user.principal === 'user' ? mspUserHome(user.mspCustomDomain, user.id) : `/dashboard/${user.id}`;
}

/** The query parameter that carries where a person was when they were sent to sign in. */
export const RETURN_TO_PARAM = 'returnTo';

/** A sign-in page's path (no query of its own) with `?returnTo=`, or as it is when there is nothing to return to. */
export function withReturnTo(signInPath: string, returnTo: string | null): string {
  return returnTo === null ? signInPath : `${signInPath}?${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}`;
}

/** A signed-out visitor's way to the sign-in page of the MSP in the path (or /auth/login), told to come back to the page asked for. */
function toSignIn(request: Request, msp: string | undefined): Response {
  const mspInPath = mspFromPath(`/${msp ?? ''}`);
  const { pathname, search } = new URL(request.url);
  return redirect(withReturnTo(mspInPath === null ? '/auth/login' : `/${mspInPath}`, `${pathname}${search}`));
}

/** `/{msp}/dashboard/{id}[/tickets]`: only that MSP's signed-in user `id`; others go to their own page or the MSP login. */
export async function requireMspUserLoader({ params, request }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) return toSignIn(request, params.msp);
  if (user.principal !== 'user' || user.mspCustomDomain !== params.msp || user.id !== params.id) return redirect(homePathFor(user));
  return null;
}

/** The sync screen's rule, as its API declares it (A-033, A-058: a technician with mspIntegrations). */
export function canOpenBoardSync(user: TSessionMspUser): boolean {
  return user.userKind === 'technician' && user.permissions.mspIntegrations === true;
}

/**
 * `/{msp}/admin/board/sync`: a signed-in technician of that MSP who may sync (the path carries no
 * user id to check); anyone else of the MSP goes to their home, as the shell offers them no sync.
 */
export async function requireBoardSyncLoader({ params, request }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) return toSignIn(request, params.msp);
  if (user.principal !== 'user' || user.mspCustomDomain !== params.msp || !canOpenBoardSync(user)) return redirect(homePathFor(user));
  return null;
}

/** `/dashboard/{id}`: the general account's own dashboard. */
export async function requireAccountLoader({ params, request }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) return toSignIn(request, undefined);
  if (user.principal !== 'account' || user.id !== params.id) return redirect(homePathFor(user));
  return null;
}

/**
 * `/admin`: the admin tab of the signed-in MSP user's dashboard. The path names no MSP, so a
 * signed-out visitor goes to the MSP login page of the user this browser last saw (kept until a
 * sign-out), else to /auth/login.
 */
export async function requireAdminLoader({ request }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) {
    const lastUser = await loadLastActiveUser().catch(() => null);
    return toSignIn(request, lastUser?.principal === 'user' ? lastUser.mspCustomDomain : undefined);
  }
  if (user.principal !== 'user') return redirect(homePathFor(user));
  return null;
}
