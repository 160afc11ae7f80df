import { useCallback, useRef, useState } from 'react';

/**
 * One run of an async action at a time: a second call while one runs is ignored (a double click, a key
 * pressed twice). `isRunning` covers the whole action, not only its last request; the ref answers at once,
 * before React has drawn the busy state.
 */
export function useSingleFlight() {
  const isRunningRef = useRef(false);
  const [isRunning, setRunning] = useState(false);
  const run = useCallback(async (action: () => Promise<void>) => {
    if (isRunningRef.current) return;
    isRunningRef.current = true;
    setRunning(true);
    try {
      await action();
    } finally {
      isRunningRef.current = false;
      setRunning(false);
    }
  }, []);
  return { isRunning, run };
}
