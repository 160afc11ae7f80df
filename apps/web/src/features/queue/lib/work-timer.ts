/** A work session as the server reports it: when it started and, once closed, when it ended. */
export type TWorkSessionTimes = { startTime: string; endTime: string | null };

/**
 * Seconds worked on a ticket at `now`, from the server's sessions only: closed
 * sessions count in full, the open one from ITS server start time, so a reload or a second tab
 * shows the same figure and the browser's clock never starts a session of its own.
 */
export function workedSeconds(sessions: readonly TWorkSessionTimes[], now: number): number {
  let total = 0;
  for (const session of sessions) {
    const start = Date.parse(session.startTime);
    const end = session.endTime === null ? now : Date.parse(session.endTime);
    if (Number.isFinite(start) && Number.isFinite(end) && end > start) total += end - start;
  }
  return Math.floor(total / 1000);
}

/** 1:02:03 / 02:03: hours appear once there are any. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${pad(minutes)}:${pad(rest)}`;
}
