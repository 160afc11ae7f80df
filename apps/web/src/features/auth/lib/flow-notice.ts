import { z } from 'zod';

/**
 * A one-line confirmation carried in router state to the next page (e.g. "your MSP was created,
 * sign in"), so it shows once and never sits in the URL.
 */
const ZFlowNoticeState = z.object({ notice: z.string().max(300) });

export function noticeState(notice: string): { notice: string } {
  return { notice };
}

export function readNotice(state: unknown): string | null {
  const parsed = ZFlowNoticeState.safeParse(state);
  return parsed.success ? parsed.data.notice : null;
}
