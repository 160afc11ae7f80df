import { useEffect, useState } from 'react';
import { BOARD_STATE_CLEAR_MS } from '@switchboard/contracts';

export type TBoardOutcome = { color: 'green' | 'red'; message: string } | null;

/** A Board screen card's save outcome, cleared after BOARD_STATE_CLEAR_MS like the board's own. */
export function useBoardOutcome() {
  const [outcome, setOutcome] = useState<TBoardOutcome>(null);
  useEffect(() => {
    if (outcome === null) return;
    const timer = setTimeout(() => setOutcome(null), BOARD_STATE_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  return [outcome, setOutcome] as const;
}
