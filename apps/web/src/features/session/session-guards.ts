import { redirect } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { mspUserHome } from '@switchboard/contracts';
import type { TSessionUser } from '@switchboard/contracts';
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

/** `/{msp}/dashboard/{id}[/tickets]`: only that MSP's signed-in user `id`; others go to their own page or the MSP login. */
export async function requireMspUserLoader({ params }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) {
    const msp = mspFromPath(`/${params.msp ?? ''}`);
    return redirect(msp === null ? '/auth/login' : `/${msp}`);
  }
  if (user.principal !== 'user' || user.mspCustomDomain !== params.msp || user.id !== params.id) return redirect(homePathFor(user));
  return null;
}

/** `/{msp}/admin/...` (the sync screen): any signed-in user of that MSP; the path carries no user id to check. */
export async function requireMspMemberLoader({ params }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) {
    const msp = mspFromPath(`/${params.msp ?? ''}`);
    return redirect(msp === null ? '/auth/login' : `/${msp}`);
  }
  if (user.principal !== 'user' || user.mspCustomDomain !== params.msp) return redirect(homePathFor(user));
  return null;
}

/** `/dashboard/{id}`: the general account's own dashboard. */
export async function requireAccountLoader({ params }: LoaderFunctionArgs): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) return redirect('/auth/login');
  if (user.principal !== 'account' || user.id !== params.id) return redirect(homePathFor(user));
  return null;
}

/** `/admin`: the admin tab of the signed-in MSP user's dashboard. */
export async function requireAdminLoader(): Promise<Response | null> {
  const user = await currentSessionUser();
  if (user === null) return redirect('/auth/login');
  if (user.principal !== 'user') return redirect(homePathFor(user));
  return null;
}
