import { luminance } from '@mantine/core';

/** A colour as red, green and blue channels (0–255). */
export type TRgb = [number, number, number];

/** `#rrggbb` (the `#` optional) as channels; null for anything else. */
export function parseHex(hex: string): TRgb | null {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  return [parseInt(match[1] ?? '0', 16), parseInt(match[2] ?? '0', 16), parseInt(match[3] ?? '0', 16)];
}

export function toHex([red, green, blue]: TRgb): string {
  return `#${[red, green, blue].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** `colour` moved `amount` (0–1) of the way to `target`, channel by channel. */
export function mix(colour: TRgb, target: TRgb, amount: number): TRgb {
  return [0, 1, 2].map((i) => (colour[i] ?? 0) + ((target[i] ?? 0) - (colour[i] ?? 0)) * amount) as TRgb;
}

/** WCAG 2 contrast ratio of two colours (1 to 21), from Mantine's WCAG relative luminance. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}
