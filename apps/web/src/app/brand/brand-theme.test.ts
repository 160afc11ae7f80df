import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOUR } from '@switchboard/contracts';
import { brandPalette, createBrandTheme } from './brand-theme';

describe('brand theme (01 §2 branding, DESIGN §9)', () => {
  it("puts the MSP's exact colour at the primary shade, lighter shades before it and darker after", () => {
    const palette = brandPalette('#1c7ed6');
    expect(palette).toHaveLength(10);
    expect(palette[6]).toBe('#1c7ed6');
    expect(palette[0]).not.toBe(palette[6]);
    expect(parseInt((palette[9] ?? '#000000').slice(1, 3), 16)).toBeLessThan(0x1c);
  });

  it('defaults every colour to the spec red', () => {
    const theme = createBrandTheme();
    expect(theme.primaryColor).toBe('brand');
    expect(theme.colors?.brand?.[6]).toBe(DEFAULT_BRAND_COLOUR);
    expect(theme.colors?.brandButton?.[6]).toBe(DEFAULT_BRAND_COLOUR);
  });

  it('uses each of the three brand colours', () => {
    const theme = createBrandTheme({ primaryColour: '#112233', primaryButtonColour: '#445566', secondaryButtonColour: '#778899' });
    expect([theme.colors?.brand?.[6], theme.colors?.brandButton?.[6], theme.colors?.brandSecondary?.[6]]).toEqual(['#112233', '#445566', '#778899']);
  });
});
