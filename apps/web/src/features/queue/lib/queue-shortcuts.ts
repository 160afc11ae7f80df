/**
 * Whether a queue shortcut (n, p, c…) may act on this key press. useHotkeys already leaves typing fields
 * alone; besides, keys pressed in a dialog (Requeue, Edit, the article reader, the Complete confirmation) or in
 * Jarvis belong there: a shortcut acts only while no dialog is open and the focus is in the ticket area, or
 * nowhere (the page itself).
 */
export function isQueueShortcutAllowed(event: KeyboardEvent, area: HTMLElement | null): boolean {
  if (area === null) return false;
  const page = area.ownerDocument;
  const target = event.target;
  const isFocusInArea = target === page.body || target === page.documentElement || (target instanceof Node && area.contains(target));
  if (!isFocusInArea) return false;
  // The area itself is a modal dialog in full screen; any other open one takes the keys.
  return Array.from(page.querySelectorAll('[aria-modal="true"]')).every((dialog) => dialog === area);
}
