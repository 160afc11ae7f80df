import { BOARD_STATE_CLEAR_MS } from '@switchboard/contracts';
import { useClearingState } from '../../../lib/use-clearing-state';

export type TBoardOutcome = { color: 'green' | 'red'; message: string };

/** A Board screen card's save outcome, cleared after BOARD_STATE_CLEAR_MS like the board's own. */
export function useBoardOutcome() {
  return useClearingState<TBoardOutcome>(BOARD_STATE_CLEAR_MS);
}
