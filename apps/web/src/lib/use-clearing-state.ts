import { useEffect, useState } from 'react';

/**
 * State that goes back to null `ms` after each time it is set to a value: a confirmation or an outcome
 * that shows for a while (R-167's 3 s, R-211's 5 s, R-254's 2 s, R-321 / R-325's 3 s). Setting a new value
 * restarts the wait; unmounting cancels it.
 */
export function useClearingState<T>(ms: number) {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    if (value === null) return undefined;
    const timer = setTimeout(() => setValue(null), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return [value, setValue] as const;
}
