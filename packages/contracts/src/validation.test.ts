import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';
import { hasControlCharacters, NAME_PATTERN } from './validation';
import { PROFILE_NAME_PATTERN } from './validation-employee';
import { ZCustomDomain, ZEmail } from './schemas/common';

// Issue #6 §2: a NUL byte in an MSP value reached PostgreSQL and answered 500.
describe('control characters in MSP values and emails', () => {
  it('are found anywhere in a string, DEL included, and printable text passes', () => {
    expect(['a\u0000b', '\u0000', 'x\u001f', 'tab\there', 'del\u007f'].map(hasControlCharacters)).toEqual([true, true, true, true, true]);
    expect(['acme-it', 'Zoë 😀', '\u202Eevil', ''].map(hasControlCharacters)).toEqual([false, false, false, false]);
  });

  it('are refused by ZCustomDomain and ZEmail with the plain message', () => {
    for (const schema of [ZCustomDomain, ZEmail]) {
      const result = schema.safeParse('a\u0000b');
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(MESSAGES.controlCharacters);
    }
    expect(ZCustomDomain.parse(' Acme-IT ')).toBe('acme-it');
  });
});

describe('names: the sign-up rule as 01 §5 words it, the profile rule for names as people have them (review s25 #2)', () => {
  it("keeps sign-up to letters, digits and spaces, and lets a profile hold Seán O'Brien", () => {
    expect(NAME_PATTERN.test("Seán O'Brien")).toBe(false);
    expect(NAME_PATTERN.test('Sean OBrien')).toBe(true);
    for (const name of ["Seán O'Brien", 'Zoë-Anne', 'St. John’s', 'Nguyễn', 'Ólafur', '李 小龍', 'Renée 2']) expect(PROFILE_NAME_PATTERN.test(name)).toBe(true);
    for (const name of ['Bad<Name>', 'Help & Desk', 'a_b', '', 'x\u0000y']) expect(PROFILE_NAME_PATTERN.test(name)).toBe(false);
  });
});
