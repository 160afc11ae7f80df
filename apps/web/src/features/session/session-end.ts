import type { QueryClient } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { onRefusal } from '../../lib/api-client';
import { noticeState } from '../auth/lib/flow-notice';
import { fetchSession, sessionKeys } from './api/session-queries';
import { rememberEndedSession } from './api/signed-in-session';
import { returnPathFor, signInPathFor } from './return-path';
import { homePathFor, withReturnTo } from './session-guards';

export type TSessionEndDeps = {
  queryClient: QueryClient;
  /** The app's router: where the person is, and an in-app navigation that keeps the stores (a Jarvis draft or chat under way). */
  router: Pick<DataRouter, 'state' | 'navigate'>;
  /** A full page load, for another user's session: nothing of the first one may stay. */
  reload?: (path: string) => void;
};

const isSameUser = (a: TSessionUser, b: TSessionUser) => a.principal === b.principal && a.id === b.id;

/**
 * After a refused call, asks the server who holds the cookie (A-072 answers "signed out" instead
 * of refusing). Signed out (cookie expired, signed out in another tab, password reset, deactivated):
 * the check's answer puts "signed out" in the cache, and the person goes to their sign-in page with
 * a notice, their email filled in and the path they were on, without a page load. Still the same user: the refusal was
 * about something else, and the fresh answer (after a 403, with the role's permissions of now) is what
 * the screens show. Another user (signed in in another tab): a full load of their home.
 */
async function checkAfterRefusal({ queryClient, router, reload = (path) => window.location.assign(path) }: TSessionEndDeps, user: TSessionUser, isForbidden: boolean): Promise<void> {
  let session: TSessionCheckResponse;
  try {
    // A technician's dashboard writes A-001's copy of them over the session (R-114): after a 403 it is re-read first,
    // or its older permissions would be written back over the fresh session's.
    if (isForbidden) await queryClient.refetchQueries({ queryKey: sessionKeys.userInfo(user.id), type: 'active' });
    session = await queryClient.fetchQuery({ queryKey: sessionKeys.current(), queryFn: fetchSession, staleTime: 0 });
  } catch {
    // The check itself failed (offline): the person stays where they are; the next refused call asks again.
    return;
  }
  if (session.authenticated) {
    if (!isSameUser(session.user, user)) reload(homePathFor(session.user));
    return;
  }
  rememberEndedSession(user);
  const { pathname, search } = router.state.location;
  const userKind = user.principal === 'user' ? (user.userKind === 'technician' ? 'tech' : 'client') : undefined;
  void router.navigate(withReturnTo(signInPathFor(user), returnPathFor(user, `${pathname}${search}`)), {
    state: noticeState(CORE_MESSAGES.auth.sessionEnded, userKind, user.email),
  });
}

/**
 * Treats a 401 `unauthenticated` answer to any call as the possible end of the session the page
 * holds (there was no such handling: every action answered "Please sign in." and no screen offered
 * to), and a 403 `forbidden` as a sign that the role changed: the session is read again, so the
 * shell re-renders from the permissions the user holds now (review s29: a removed permission kept
 * its navigation item until a full reload). Refusals while no one is signed in (the sign-in flows'
 * own) are theirs to show; several at once are checked once. Returns the unsubscribe.
 */
export function watchForEndedSession(deps: TSessionEndDeps): () => void {
  let checking: Promise<void> | null = null;
  return onRefusal((error) => {
    // The server's code says why (apps/server/src/lib/app-error.ts): a wrong password is `invalid_credentials`, not these.
    if (error.code !== 'unauthenticated' && error.code !== 'forbidden') return;
    const cached = deps.queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current());
    if (cached?.authenticated !== true || checking !== null) return;
    checking = checkAfterRefusal(deps, cached.user, error.code === 'forbidden').finally(() => {
      checking = null;
    });
  });
}
