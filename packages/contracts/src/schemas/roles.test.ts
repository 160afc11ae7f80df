import { describe, expect, it } from 'vitest';
import { cloneRoleName, ROLE_NAME_MAX } from './roles';

describe('cloneRoleName (spec 02 §4)', () => {
  it('names the first clone of a role "{base} - Clone 1"', () => {
    expect(cloneRoleName('Dispatcher', ['Admin', 'Technician', 'Dispatcher'])).toBe('Dispatcher - Clone 1');
  });

  it('counts the existing clones of that base only', () => {
    const names = ['Admin', 'Admin - Clone 1', 'Admin - Clone 2', 'Dispatcher - Clone 1'];
    expect(cloneRoleName('Admin', names)).toBe('Admin - Clone 3');
    expect(cloneRoleName('Dispatcher', names)).toBe('Dispatcher - Clone 2');
  });

  it('skips a number still taken after an earlier clone was deleted', () => {
    expect(cloneRoleName('Admin', ['Admin', 'Admin - Clone 2'])).toBe('Admin - Clone 3');
  });

  it('treats names case-insensitively, as role names are unique that way', () => {
    expect(cloneRoleName('Admin', ['admin - clone 1'])).toBe('Admin - Clone 2');
  });

  it('does not count names that merely start with the base', () => {
    expect(cloneRoleName('Admin', ['Admin - Clone 1 - Clone 1', 'Admins - Clone 1'])).toBe('Admin - Clone 1');
  });

  it('escapes regular-expression characters in the base', () => {
    expect(cloneRoleName('Ops (L2)+', ['Ops (L2)+ - Clone 1'])).toBe('Ops (L2)+ - Clone 2');
  });

  // Regression (review s26 #3): a base of 51–60 characters gave a clone name longer than a role name may be.
  describe('a base too long for the suffix', () => {
    const base = 'Regional escalation managers for the northern offices'; // 53 characters

    it('shortens the base, ending it with "…", so the clone name fits', () => {
      const name = cloneRoleName(base, [base]);
      expect(name).toHaveLength(ROLE_NAME_MAX);
      expect(name).toBe(`${base.slice(0, ROLE_NAME_MAX - ' - Clone 1'.length - 1)}… - Clone 1`);
      expect(cloneRoleName('R'.repeat(ROLE_NAME_MAX), [])).toBe(`${'R'.repeat(ROLE_NAME_MAX - 11)}… - Clone 1`);
    });

    it('leaves a base that fits as it is', () => {
      const fits = 'F'.repeat(ROLE_NAME_MAX - ' - Clone 1'.length);
      expect(cloneRoleName(fits, [])).toBe(`${fits} - Clone 1`);
    });

    it('counts and skips the shortened clones as it does the others, and stays within the limit at two digits', () => {
      const first = cloneRoleName(base, [base]);
      const second = cloneRoleName(base, [base, first]);
      expect(second).toMatch(/… - Clone 2$/);
      const nine = Array.from({ length: 9 }, (_, index) => `${base.slice(0, 49)}… - Clone ${index + 1}`);
      const tenth = cloneRoleName(base, [base, ...nine]);
      expect(tenth.endsWith('… - Clone 10')).toBe(true);
      expect(tenth.length).toBeLessThanOrEqual(ROLE_NAME_MAX);
    });

    it('drops trailing spaces before the "…" and never splits a character in two', () => {
      const spaced = `${'S'.repeat(48)} ${'T'.repeat(11)}`;
      expect(cloneRoleName(spaced, [])).toBe(`${'S'.repeat(48)}… - Clone 1`);
      const emoji = `${'E'.repeat(48)}😀${'X'.repeat(10)}`;
      expect(cloneRoleName(emoji, [])).toBe(`${'E'.repeat(48)}… - Clone 1`);
    });
  });
});
