import { DEFAULT_THEME, colorsTuple, createTheme, defaultVariantColorsResolver } from '@mantine/core';
import type { ColorPickerProps, MantineColorsTuple, MantineThemeOverride, PaginationProps, VariantColorsResolver } from '@mantine/core';
import { DEFAULT_BRAND_COLOUR } from '@switchboard/contracts';
import type { TMspBrand } from '@switchboard/contracts';

type TRgb = [number, number, number];

function parseHex(hex: string): TRgb {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return parseHex(DEFAULT_BRAND_COLOUR);
  return [parseInt(match[1] ?? '0', 16), parseInt(match[2] ?? '0', 16), parseInt(match[3] ?? '0', 16)];
}

function toHex([red, green, blue]: TRgb): string {
  return `#${[red, green, blue].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function mix(colour: TRgb, target: TRgb, amount: number): TRgb {
  return [0, 1, 2].map((i) => (colour[i] ?? 0) + ((target[i] ?? 0) - (colour[i] ?? 0)) * amount) as TRgb;
}

const WHITE: TRgb = [255, 255, 255];
const BLACK: TRgb = [0, 0, 0];
// Shade 6 is Mantine's default primary shade, so the MSP's exact colour sits there.
const TINTS = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16];
const SHADES = [0.14, 0.28, 0.42];

/** A 10-shade Mantine palette whose shade 6 is exactly `hex`. */
export function brandPalette(hex: string): MantineColorsTuple {
  const base = parseHex(hex);
  return colorsTuple([
    ...TINTS.map((amount) => toHex(mix(base, WHITE, amount))),
    toHex(base),
    ...SHADES.map((amount) => toHex(mix(base, BLACK, amount))),
  ]);
}

export const DEFAULT_BRAND: TMspBrand = {
  primaryColour: DEFAULT_BRAND_COLOUR,
  primaryButtonColour: DEFAULT_BRAND_COLOUR,
  secondaryButtonColour: DEFAULT_BRAND_COLOUR,
};

/** Mantine's first/previous/next/last page buttons are bare icons: without these names a screen reader hears only "button" (axe button-name, WCAG 4.1.2). */
export const PAGINATION_CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/**
 * WCAG's crossing point for text colour: on a background of relative luminance up to 0.1833 white text reaches
 * 4.5:1, from 0.175 black text does. Mantine's default (0.3) kept white text on red.6 (3.3:1) and orange.6 (2.6:1).
 */
const READABLE_TEXT_LUMINANCE = 0.183;

/**
 * Filled buttons, badges and icons in one of Mantine's own colours (red, orange, yellow…) take black or white text,
 * whichever reads on them (visual review s28: the filled orange Hand back was 2.6:1, the filled red buttons 3.3:1).
 * The MSP's brand colours, and a colour given as a value, keep white text: the Branding screen measures those
 * against white and offers a darker shade. `autoContrast={false}` on a component still opts out.
 */
const readableVariantColors: VariantColorsResolver = (input) => {
  const name = (input.color ?? '').split('.')[0] ?? '';
  const isMantineColour = name in DEFAULT_THEME.colors;
  return defaultVariantColorsResolver(input.variant === 'filled' && isMantineColour && input.autoContrast !== false ? { ...input, autoContrast: true } : input);
};

/** The MSP's three brand colours as the Mantine theme (01 §2 branding, DESIGN §9). */
export function createBrandTheme(brand: TMspBrand = DEFAULT_BRAND): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    luminanceThreshold: READABLE_TEXT_LUMINANCE,
    variantColorResolver: readableVariantColors,
    colors: {
      brand: brandPalette(brand.primaryColour),
      brandButton: brandPalette(brand.primaryButtonColour),
      brandSecondary: brandPalette(brand.secondaryButtonColour),
    },
    components: {
      Button: { defaultProps: { color: 'brandButton' } },
      // ColorInput's dropdown picker does not pass these on, so only the theme can name its sliders (axe aria-input-field-name).
      // Plain objects, not `ColorPicker.extend(…)`: `.extend` would import both components (~10 KB gzip) into every
      // sign-in page, which shows neither (bench:web).
      ColorPicker: { defaultProps: { saturationLabel: 'Saturation and brightness', hueLabel: 'Hue', alphaLabel: 'Opacity' } satisfies Partial<ColorPickerProps> },
      Pagination: { defaultProps: { getControlProps: (control) => ({ 'aria-label': PAGINATION_CONTROL_LABELS[control] }) } satisfies Partial<PaginationProps> },
    },
    focusRing: 'auto',
    // A person who asked their system for less motion gets dialogs, menus and lists without animation (WCAG 2.3.3).
    respectReducedMotion: true,
  });
}
