import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { WorkTimerDisplay } from './work-timer-display';

afterEach(() => vi.useRealTimers());

describe('WorkTimerDisplay', () => {
  it('counts from the server\'s start time and ticks every second while running (R-309)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:01:05Z'));
    const sessions = [
      { startTime: '2026-11-23T09:00:00Z', endTime: '2026-11-23T09:10:00Z' },
      { startTime: '2026-11-23T10:00:00Z', endTime: null },
    ].map((session, index) => ({ ...session, id: String(index), ticketId: 1, technicianId: 't', minutes: 0, flag: null, confirmedAt: null }));
    renderWithProviders(<WorkTimerDisplay sessions={sessions} isActive label="Time worked" />);
    act(() => {
      vi.advanceTimersByTime(0);
    });
    // 10 minutes closed + 65 seconds of the open session, whatever the browser's own start was.
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('11:05');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('11:06');
    act(() => {
      vi.advanceTimersByTime(3600_000);
    });
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('1:11:06');
  });

  it('counts by the server\'s clock when the browser\'s is off (a laptop 5 minutes fast shows 00:10, not 05:10)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:05:10Z'));
    const sessions = [{ id: '1', ticketId: 1, technicianId: 't', startTime: '2026-11-23T10:00:00Z', endTime: null, minutes: 0, flag: null, confirmedAt: null }];
    // The server answered at 10:00:10 by its clock while this browser read 10:05:10.
    renderWithProviders(<WorkTimerDisplay sessions={sessions} isActive clockOffsetMs={-300_000} label="Time worked" />);
    act(() => {
      vi.advanceTimersByTime(0);
    });
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('00:10');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('00:11');
  });

  it('stands still when paused', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:01:05Z'));
    const sessions = [{ id: '1', ticketId: 1, technicianId: 't', startTime: '2026-11-23T09:00:00Z', endTime: '2026-11-23T09:00:42Z', minutes: 0, flag: null, confirmedAt: null }];
    renderWithProviders(<WorkTimerDisplay sessions={sessions} isActive={false} label="Time worked" />);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.getByRole('timer', { name: 'Time worked' })).toHaveTextContent('00:42');
  });
});
