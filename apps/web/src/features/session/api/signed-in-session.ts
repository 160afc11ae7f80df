import type { QueryClient } from '@tanstack/react-query';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { resetAllStores } from '../../../lib/store-reset';
import { sessionKeys, setSignedInUser } from './session-queries';

// Loaded by the sign-in steps and the session-end handling only, not with the sign-in pages' first screen (issue #6 §5).

/** Public answers that belong to no user: kept when the person signing in changes (the sign-in page's brand). */
const SHARED_QUERY_ROOTS: ReadonlySet<unknown> = new Set(['msp-profile']);

const ownerOf = (user: TSessionUser): string => `${user.principal}:${user.id}`;

/** The user whose session ended while this page held their data (session-end.ts), until the next sign-in. */
let endedSessionOwner: string | null = null;

/** Remembers whose data stays in memory after their session ended, so the next sign-in can tell who came back. */
export function rememberEndedSession(user: TSessionUser): void {
  endedSessionOwner = ownerOf(user);
}

/**
 * A sign-in's end: the new session's user, in a page holding nothing of anyone else. The page holds
 * the data of the user signed in now, or of the one whose session ended; another user gets every
 * cached answer removed (but public ones) and every store reset, so nothing of the first is shown
 * (regression: B saw A's Jarvis chat and draft). The same user coming back keeps their stores (a
 * Jarvis draft or chat under way); answers refused while signed out are fetched again when shown.
 */
export function startSignedInSession(queryClient: QueryClient, user: TSessionUser): void {
  const cached = queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current());
  const previousOwner = cached?.authenticated === true ? ownerOf(cached.user) : endedSessionOwner;
  if (previousOwner !== null && previousOwner !== ownerOf(user)) {
    const isKept = (queryKey: readonly unknown[]) => SHARED_QUERY_ROOTS.has(queryKey[0]) || (queryKey[0] === sessionKeys.all[0] && queryKey[1] === 'current');
    queryClient.removeQueries({ predicate: (query) => !isKept(query.queryKey) });
    resetAllStores();
  }
  endedSessionOwner = null;
  setSignedInUser(queryClient, user);
}
