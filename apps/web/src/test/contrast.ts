import { DEFAULT_THEME, mergeMantineTheme, type MantineTheme } from '@mantine/core';
import { createBrandTheme } from '../app/brand/brand-theme';

/** WCAG 2 relative luminance of a #rgb / #rrggbb colour, computed here rather than taken from Mantine. */
export function relativeLuminance(colour: string): number {
  const hex = /^#[0-9a-f]{3}$/i.test(colour) ? `#${[...colour.slice(1)].map((digit) => digit + digit).join('')}` : colour;
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (channels[0] ?? 0) + 0.7152 * (channels[1] ?? 0) + 0.0722 * (channels[2] ?? 0);
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}

/** The app's theme as the browser gets it (default brand). */
export const APP_THEME: MantineTheme = mergeMantineTheme(DEFAULT_THEME, createBrandTheme());

/**
 * A colour value as the browser would paint it in the light scheme: a `var(--mantine-color-…)` becomes the shade
 * Mantine 9's light-scheme variables give it (light → 1, light-color → 9, filled/outline → the primary shade 6);
 * `transparent` and an empty value become `behind` (what the element sits on).
 */
export function resolveColour(value: string, behind = '#ffffff', theme: MantineTheme = APP_THEME): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'transparent') return behind;
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(trimmed);
  if (rgb) return `#${rgb.slice(1, 4).map((channel) => Number(channel).toString(16).padStart(2, '0')).join('')}`;
  const variable = /^var\(--mantine-color-([a-zA-Z]+)(?:-([a-z0-9-]+))?\)$/.exec(trimmed);
  if (!variable) return trimmed;
  const [, name = '', suffix] = variable;
  if (name === 'white') return theme.white;
  if (name === 'black' || name === 'text') return theme.black;
  if (name === 'dimmed') return theme.colors.gray[7] ?? trimmed;
  const shadeOf: Record<string, number> = { light: 1, 'light-color': 9, filled: 6, outline: 6, text: 6 };
  const shade = suffix === undefined ? 6 : /^\d$/.test(suffix) ? Number(suffix) : shadeOf[suffix];
  return (shade === undefined ? undefined : theme.colors[name]?.[shade]) ?? trimmed;
}

/** The contrast of a rendered Mantine Badge's label on its own background (on white when it has none). */
export function badgeContrast(badge: HTMLElement): { ratio: number; text: string; background: string } {
  const background = resolveColour(badge.style.getPropertyValue('--badge-bg'));
  // A `c` prop writes the label's colour straight into the style; otherwise the variant's --badge-color paints it.
  const text = resolveColour(badge.style.color || badge.style.getPropertyValue('--badge-color'), APP_THEME.black);
  return { ratio: contrastRatio(text, background), text, background };
}
