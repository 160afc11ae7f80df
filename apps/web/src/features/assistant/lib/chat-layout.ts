/** 02 §9 / R-043–, decisions #13: the assistant panel's numbers. */
export const ASSISTANT_WIDTH_DEFAULT = 800;
export const ASSISTANT_WIDTH_RESET = 600;
export const ASSISTANT_WIDTH_MIN = 360;
export const AT_BOTTOM_TOLERANCE_PX = 10;
export const TEXT_AREA_HEIGHT_PX = 24;
/** Below this width the assistant uses its mobile layout (full width over the page). */
export const ASSISTANT_MOBILE_BELOW_PX = 1023;

/** the chat counts as scrolled to the bottom within 10 pixels of it. */
export function isScrolledToBottom(element: Pick<HTMLElement, 'scrollHeight' | 'scrollTop' | 'clientHeight'>): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM_TOLERANCE_PX;
}

/** The least width the page beside Jarvis keeps. */
export const MAIN_MIN_PX = 320;
/** The width the page keeps when Jarvis opens at its default, where the window allows: a ticket list or table needs it. */
export const MAIN_OPENING_PX = 640;
/** The dashboard's navigation panel, open at start beside Jarvis on a wide screen (msp-dashboard-shell's navbar width). */
export const DASHBOARD_NAVBAR_PX = 260;

/** A dragged width stays between the minimum and the window (minus room for the page). */
export function clampAssistantWidth(width: number, windowWidth: number): number {
  return Math.round(Math.min(Math.max(width, ASSISTANT_WIDTH_MIN), Math.max(ASSISTANT_WIDTH_MIN, windowWidth - MAIN_MIN_PX)));
}

/**
 * The width Jarvis opens with beside the open navigation. The default opens at min(800, what leaves the page 640 px):
 * 800 left the page ~340 px at 1440 px (visual review s27), and 0 px at 1024–1092 px (review s25 #4). A width the
 * person chose (any other than the default: the panel's width is not kept across visits) stays theirs, within
 * what leaves the page its minimum.
 */
export function startingAssistantWidth(width: number, windowWidth: number): number {
  const room = windowWidth - DASHBOARD_NAVBAR_PX;
  const wanted = width === ASSISTANT_WIDTH_DEFAULT ? Math.min(width, room - MAIN_OPENING_PX) : width;
  return clampAssistantWidth(wanted, room);
}
