import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOUR } from '@switchboard/contracts';
import { contrastWithWhite, MIN_CONTRAST, suggestAccessibleShade } from './contrast';

describe('brand colour contrast against white (WCAG 2)', () => {
  it('measures known pairs', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#767676')).toBeCloseTo(4.54, 2);
    expect(contrastWithWhite('not a colour')).toBeNull();
  });

  it('suggests the lightest darker shade that passes, and keeps a colour that already passes', () => {
    const suggestion = suggestAccessibleShade('#ffd43b');
    expect(suggestion).not.toBeNull();
    expect(contrastWithWhite(suggestion ?? '')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // One step lighter would fail: it is the lightest that passes.
    expect(suggestion).not.toBe('#000000');
    expect(suggestAccessibleShade('#1c3d5a')).toBe('#1c3d5a');
  });

  it('the default red just passes (4.51:1) and is kept', () => {
    expect(contrastWithWhite(DEFAULT_BRAND_COLOUR)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(suggestAccessibleShade(DEFAULT_BRAND_COLOUR)).toBe(DEFAULT_BRAND_COLOUR);
  });

  it('a light red is flagged with a darker red suggested', () => {
    expect(contrastWithWhite('#ff6b6b') ?? 0).toBeLessThan(MIN_CONTRAST);
    const suggestion = suggestAccessibleShade('#ff6b6b') ?? '';
    expect(contrastWithWhite(suggestion)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(suggestion.slice(1, 3) > suggestion.slice(3, 5)).toBe(true);
  });
});
