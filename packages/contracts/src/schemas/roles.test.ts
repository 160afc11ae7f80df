import { describe, expect, it } from 'vitest';
import { cloneRoleName } from './roles';

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
});
