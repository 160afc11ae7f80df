import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { formatDuration, workedSeconds } from '../lib/work-timer';
import type { TWorkSession } from '../queue-types';

/**
 * The time worked on a ticket, ticking every second while a session is open. The figure
 * is recomputed from the server's session times on each tick, never counted up in the browser, by the
 * server's clock (`clockOffsetMs`: how far it is ahead of the browser's).
 */
export function WorkTimerDisplay({ sessions, isActive, label, clockOffsetMs = 0 }: { sessions: readonly TWorkSession[]; isActive: boolean; label: string; clockOffsetMs?: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    // Once at once (new sessions from the server), then every second while a session is open.
    const first = window.setTimeout(tick, 0);
    const handle = isActive ? window.setInterval(tick, 1000) : undefined;
    return () => {
      window.clearTimeout(first);
      if (handle !== undefined) window.clearInterval(handle);
    };
  }, [isActive, sessions]);
  // The server's "now": a browser clock minutes off would otherwise add or take those minutes from the open session.
  const seconds = workedSeconds(sessions, now + clockOffsetMs);
  return (
    <Text component="span" ff="monospace" fz={28} fw={700} role="timer" aria-label={label} aria-live="off" c={isActive ? undefined : 'dimmed'}>
      {formatDuration(seconds)}
    </Text>
  );
}
