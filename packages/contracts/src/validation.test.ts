import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';
import { hasControlCharacters } from './validation';
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
