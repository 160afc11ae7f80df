/** WCAG 2 contrast of brand colours against white (the text on buttons and the page behind links). */

import { contrastRatio, parseHex, toHex, type TRgb } from '../../lib/colour';

export const MIN_CONTRAST = 4.5;

/** The contrast ratio of the colour against white (1–21), or null for a colour that is not #rrggbb. */
export function contrastWithWhite(hex: string): number | null {
  const rgb = parseHex(hex);
  return rgb === null ? null : contrastRatio(toHex(rgb), '#ffffff');
}

/** The lightest darker shade of the colour (same hue) that reaches 4.5:1 against white; the colour itself when it already does. */
export function suggestAccessibleShade(hex: string): string | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  for (let step = 0; step <= 100; step += 1) {
    const amount = step / 100;
    const shade = rgb.map((channel) => channel * (1 - amount)) as TRgb;
    const rounded = toHex(shade);
    const ratio = contrastWithWhite(rounded);
    if (ratio !== null && ratio >= MIN_CONTRAST) return rounded;
  }
  return '#000000';
}
