import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { fetchSession, sessionKeys } from '../features/session/api/session-queries';

/** What a signed-in screen's tab says after its own name when no MSP is known (index.html's title). */
export const PRODUCT_NAME = 'Switchboard';

/** "<screen> · <MSP name>": what a tab, the history list and a screen reader's window list show for a screen. */
export function documentTitleOf(screen: string, mspName: string | null): string {
  return `${screen} · ${mspName ?? PRODUCT_NAME}`;
}

/**
 * Names the browser tab after the screen showing (WCAG 2.4.2; the axe sweep s28 found every signed-in screen titled
 * "Switchboard"). The MSP's name comes from the session the app already holds: this only reads it, never asks the
 * server, so a screen rendered alone (a component test) sends nothing more. The title before is put back on leaving.
 */
export function useDocumentTitle(screen: string): void {
  // useSession's own options, but not enabled: the session query stays as that hook left it (one query, one queryFn).
  const session = useQuery<TSessionCheckResponse>({ queryKey: sessionKeys.current(), queryFn: fetchSession, enabled: false, staleTime: Infinity, gcTime: Infinity, retry: false, refetchOnWindowFocus: false });
  const user = session.data?.authenticated === true ? session.data.user : null;
  const mspName = user?.principal === 'user' ? user.mspName : null;
  const title = documentTitleOf(screen, mspName);
  useEffect(() => {
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}
