import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useClearingState } from './use-clearing-state';

afterEach(() => vi.useRealTimers());

describe('useClearingState', () => {
  it('clears a value after the wait, and a new value restarts the wait', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useClearingState<string>(2_000));
    act(() => {
      result.current[1]('Saved');
    });
    expect(result.current[0]).toBe('Saved');
    act(() => {
      vi.advanceTimersByTime(1_500);
    });
    act(() => {
      result.current[1]('Saved again');
    });
    act(() => {
      vi.advanceTimersByTime(1_500);
    });
    expect(result.current[0]).toBe('Saved again');
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(result.current[0]).toBeNull();
  });
});
