import { useCallback, useEffect, useRef, useState } from 'react';
import { BOARD_STATE_CLEAR_MS } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import type { TBoardSaveState } from './board-editor-state';

export const IDLE_SAVE_STATE: TBoardSaveState = { status: 'idle' };

/**
 * A refused save's state: `message` first, then the server's reasons; a save refused because another came first
 * (A-034's 409, decision 012) is stale, which has the editor offer Reload board.
 */
export function failedSaveState(error: unknown, message: string): TBoardSaveState {
  return { status: 'error', message, problems: isApiError(error) ? error.invalidParams.map((param) => param.reason) : [], isStale: isApiError(error) && error.code === 'conflict' };
}

/**
 * Each board's save state, where a success or an error (but a stale save's) goes back to idle after
 * BOARD_STATE_CLEAR_MS; shared by the Board screen and the setup wizard's board step.
 */
export function useBoardSaveStates() {
  const [states, setStates] = useState<Record<number, TBoardSaveState>>({});
  const clearTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const timers = clearTimers.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  const showSaveState = useCallback((boardId: number, state: TBoardSaveState) => {
    setStates((current) => ({ ...current, [boardId]: state }));
    const previous = clearTimers.current.get(boardId);
    if (previous) clearTimeout(previous);
    // A stale board (decision 012) stays stale until it is reloaded, so that message and its Reload stay (R-167's
    // clearing is for a save's outcome; this one asks the admin to act).
    if (state.status === 'success' || (state.status === 'error' && state.isStale !== true)) {
      clearTimers.current.set(
        boardId,
        setTimeout(() => setStates((current) => ({ ...current, [boardId]: IDLE_SAVE_STATE })), BOARD_STATE_CLEAR_MS),
      );
    }
  }, []);

  const saveStateOf = (boardId: number | null): TBoardSaveState => (boardId === null ? IDLE_SAVE_STATE : (states[boardId] ?? IDLE_SAVE_STATE));

  return { saveStateOf, showSaveState };
}
