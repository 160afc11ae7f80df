import { DEFAULT_THEME, colorsTuple, createTheme, defaultVariantColorsResolver, getPrimaryShade, isLightColor } from '@mantine/core';
import type { ColorPickerProps, MantineColorsTuple, MantineThemeOverride, PaginationProps, VariantColorsResolver } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { DEFAULT_BRAND_COLOUR } from '@switchboard/contracts';
import type { TMspBrand } from '@switchboard/contracts';
import { contrastRatio, mix, parseHex as parseHexOrNull, toHex, type TRgb } from '../../lib/colour';

/** A saved brand colour is validated `#rrggbb`; anything else paints the default brand. */
function parseHex(hex: string): TRgb {
  return parseHexOrNull(hex) ?? parseHexOrNull(DEFAULT_BRAND_COLOUR) ?? [0, 0, 0];
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

/** WCAG AA's contrast for body text; badges and light buttons are small text. */
const AA_CONTRAST = 4.5;

/**
 * The label colour of a light badge or button of `name` that reads on its tint: Mantine 9 paints shade 9 on shade 1,
 * which is under 4.5:1 for yellow (2.7:1), orange (3.6:1), teal (4.3:1), green and lime. Those get shade 9 darkened
 * just enough (the hue stays); null when shade 9 already reads. Worked out once per colour: the palettes are fixed.
 */
function readableLightLabel(palette: readonly string[]): string | null {
  const [tint, label] = [palette[1], palette[9]];
  if (tint === undefined || label === undefined || contrastRatio(tint, label) >= AA_CONTRAST) return null;
  // 0.05 steps, then a small margin over the line: the browser rounds channels, the ratio must not fall to 4.49.
  for (let amount = 0.05; amount < 1; amount += 0.05) {
    const darker = toHex(mix(parseHex(label), BLACK, amount));
    if (contrastRatio(tint, darker) >= AA_CONTRAST + 0.1) return darker;
  }
  return toHex(BLACK);
}

const READABLE_LIGHT_LABELS: Record<string, string | null> = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, palette]) => [name, readableLightLabel(palette)]),
);

/**
 * The hover background of a filled `shade` of `palette` on which its text still reads. Mantine's hover is the next
 * shade (8 under 9), and for ten shades neither black nor white reaches 4.5:1 on both that and the resting shade
 * (review s28: black on hovered gray was 2.57:1, indigo.6, grape.6, blue.7, teal.8 and cyan.8 3.8–4.3:1). There the
 * text stays the one that reads at rest and the hover goes only part of the way to the next shade, as far as the
 * text allows, so the pointer still darkens the button; null when Mantine's next shade already reads.
 */
function readableFilledHover(palette: readonly string[], shade: number): string | null {
  const [resting, next] = [palette[shade], palette[shade === 9 ? 8 : shade + 1]];
  if (resting === undefined || next === undefined) return null;
  const text = isLightColor(resting, READABLE_TEXT_LUMINANCE) ? BLACK : WHITE;
  if (contrastRatio(next, toHex(text)) >= AA_CONTRAST) return null;
  // Largest 0.05 step that keeps the same margin over the line as the light labels (the browser rounds channels).
  for (let amount = 0.95; amount > 0.01; amount -= 0.05) {
    const hover = toHex(mix(parseHex(resting), parseHex(next), amount));
    if (contrastRatio(hover, toHex(text)) >= AA_CONTRAST + 0.1) return hover;
  }
  // Not reached by Mantine's palettes; a resting shade just over the line moves away from its text instead.
  return toHex(mix(parseHex(resting), text === BLACK ? WHITE : BLACK, 0.1));
}

const READABLE_FILLED_HOVERS: Record<string, (string | null)[]> = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, palette]) => [name, palette.map((_, shade) => readableFilledHover(palette, shade))]),
);

/**
 * Filled buttons, badges and icons in one of Mantine's own colours (red, orange, yellow…) take black or white text,
 * whichever reads on them (visual review s28: the filled orange Hand back was 2.6:1, the filled red buttons 3.3:1).
 * Under the pointer that text still reads: readableFilledHover stops the hover short where the next shade would not.
 * The MSP's brand colours, and a colour given as a value, keep white text: the Branding screen measures those
 * against white and offers a darker shade. `autoContrast={false}` on a component still opts out.
 * Light ones (a tint with a dark label) of those colours get a label that reads on the tint (axe sweep s28: the
 * yellow "Priority 3 - Medium" badge was 2.68:1, the orange "Priority 2 - High" 3.61:1, teal "% of SLA used" 4.32:1).
 * The app has only the light colour scheme (branded-mantine-provider.tsx), where the tint is shade 1.
 */
const readableVariantColors: VariantColorsResolver = (input) => {
  const [name = '', shade] = (input.color ?? '').split('.');
  const isMantineColour = name in DEFAULT_THEME.colors;
  const isReadableFilled = input.variant === 'filled' && isMantineColour && input.autoContrast !== false;
  const resolved = defaultVariantColorsResolver(isReadableFilled ? { ...input, autoContrast: true } : input);
  const filledHover = isReadableFilled ? READABLE_FILLED_HOVERS[name]?.[shade === undefined ? getPrimaryShade(input.theme, 'light') : Number(shade)] : null;
  if (filledHover) return { ...resolved, hover: filledHover };
  const lightLabel = input.variant === 'light' && input.color === name ? READABLE_LIGHT_LABELS[name] : null;
  return lightLabel ? { ...resolved, color: lightLabel } : resolved;
};

/**
 * Every dialog's X is a button named "Close" (axe sweep s28, WCAG 4.1.2: the Profile, Create role, New board, article
 * and Diagnostic questions dialogs' X was announced as "button"). Set on the close button itself, not as the
 * dialog's `closeButtonProps`, which a dialog passing its own (a size, say) would replace whole; a dialog may still
 * give it another name. Plain objects, not `.extend(…)`, for the reason ColorPicker's are.
 */
const NAMED_CLOSE_BUTTON = { defaultProps: { 'aria-label': 'Close' } satisfies ComponentPropsWithoutRef<'button'> };

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
      ModalCloseButton: NAMED_CLOSE_BUTTON,
      DrawerCloseButton: NAMED_CLOSE_BUTTON,
    },
    focusRing: 'auto',
    // A person who asked their system for less motion gets dialogs, menus and lists without animation (WCAG 2.3.3).
    respectReducedMotion: true,
  });
}
