/** WCAG 2 contrast of brand colours against white (the text on buttons and the page behind links). */

export const MIN_CONTRAST = 4.5;

type TRgb = [number, number, number];

function parseHex(hex: string): TRgb | null {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  return [parseInt(match[1] ?? '0', 16), parseInt(match[2] ?? '0', 16), parseInt(match[3] ?? '0', 16)];
}

const toHex = (rgb: TRgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

function luminance([red, green, blue]: TRgb): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

/** The contrast ratio of the colour against white (1–21), or null for a colour that is not #rrggbb. */
export function contrastWithWhite(hex: string): number | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  return 1.05 / (luminance(rgb) + 0.05);
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
