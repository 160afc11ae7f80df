import { useCallback, useRef, useState } from 'react';

/**
 * One run of an async action at a time: a second call while one runs is ignored (a double click, a key
 * pressed twice). `isRunning` covers the whole action, not only its last request; the ref answers at once,
 * before React has drawn the busy state.
 */
export function useSingleFlight() {
  const isRunningRef = useRef(false);
  const [isRunning, setRunning] = useState(false);
  /** Runs the action unless one is running; whether it ran. */
  const run = useCallback(async (action: () => Promise<void>): Promise<boolean> => {
    if (isRunningRef.current) return false;
    isRunningRef.current = true;
    setRunning(true);
    try {
      await action();
    } finally {
      isRunningRef.current = false;
      setRunning(false);
    }
    return true;
  }, []);
  /** Whether an action runs now (the ref: true from the moment `run` started it). */
  const isBusy = useCallback(() => isRunningRef.current, []);
  return { isRunning, isBusy, run };
}
