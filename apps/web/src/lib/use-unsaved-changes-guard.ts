import { useCallback, useEffect, useState } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { registerStoreReset } from './store-reset';

/**
 * The question of the screen that holds unsaved edits now, if any. The dashboard shell switches most screens
 * without a route change (its options live in the UI store, not the URL), which useBlocker cannot see, so the
 * shell asks here first. One screen guards at a time, as React Router has one blocker at a time.
 */
let askBeforeLeaving: ((leave: () => void) => void) | null = null;

/** Runs `leave` at once, or once the person has confirmed leaving the screen that holds unsaved edits. */
export function leaveAfterConfirming(leave: () => void): void {
  if (askBeforeLeaving === null) leave();
  else askBeforeLeaving(leave);
}

// Sign-out clears every store, then reloads the page on purpose: that reload must not ask "leave site?".
registerStoreReset(() => {
  askBeforeLeaving = null;
});

export type TUnsavedChangesGuard = {
  /** A navigation or screen switch waits for the person's answer. */
  isAsking: boolean;
  stay: () => void;
  leave: () => void;
};

/**
 * While `hasUnsavedChanges`, leaving the screen asks first: a route change (useBlocker, so a data router is
 * needed), a dashboard screen switch (`leaveAfterConfirming`), and closing or reloading the tab (the browser's
 * own `beforeunload` prompt, whose text browsers no longer let a page set). The caller shows the question.
 */
export function useUnsavedChangesGuard(hasUnsavedChanges: boolean): TUnsavedChangesGuard {
  // A change of hash or of history state only is no leaving.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => hasUnsavedChanges && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [hasUnsavedChanges],
  );
  const blocker = useBlocker(shouldBlock);
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);

  useEffect(() => {
    if (!hasUnsavedChanges) return undefined;
    const ask = (leave: () => void) => setPendingLeave(() => leave);
    askBeforeLeaving = ask;
    function handleBeforeUnload(event: BeforeUnloadEvent) {
      if (askBeforeLeaving !== ask) return;
      event.preventDefault();
      // Chromium before 119 asks only when returnValue is set as well.
      event.returnValue = '';
    }
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', handleBeforeUnload);
      if (askBeforeLeaving === ask) askBeforeLeaving = null;
    };
  }, [hasUnsavedChanges]);

  const stay = useCallback(() => {
    if (blocker.state === 'blocked') blocker.reset();
    setPendingLeave(null);
  }, [blocker]);

  const leave = useCallback(() => {
    if (blocker.state === 'blocked') blocker.proceed();
    setPendingLeave(null);
    pendingLeave?.();
  }, [blocker, pendingLeave]);

  return { isAsking: blocker.state === 'blocked' || pendingLeave !== null, stay, leave };
}
