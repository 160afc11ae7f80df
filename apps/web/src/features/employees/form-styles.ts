/**
 * Mantine's default error red (red.6) is below 4.5:1 on white (axe color-contrast); form messages
 * on these screens use red.8. The modal close button gets a name screen readers can announce.
 */
export const READABLE_ERROR_STYLES = { error: { color: 'var(--mantine-color-red-8)' } } as const;
/** A file input's placeholder names what to choose, so it is text to read: gray.7, not Mantine's pale gray.5 (2.07:1). */
export const READABLE_FILE_INPUT_STYLES = { ...READABLE_ERROR_STYLES, placeholder: { color: 'var(--mantine-color-gray-7)' } } as const;
export const MODAL_CLOSE_BUTTON_PROPS = { 'aria-label': 'Close' } as const;
