import { describe, expect, it } from 'vitest';
import { secretHintOf } from './crypto';

describe('secretHintOf', () => {
  it('shows the last four characters of a secret of 12 characters or more', () => {
    expect(secretHintOf('abcdefgh9xYz')).toBe('••••9xYz');
    expect(secretHintOf('sk-proj-0123456789abcdef')).toBe('••••cdef');
  });

  it('shows nothing of a shorter secret, which four characters would give away (review s27)', () => {
    for (const secret of ['abcd', '1234', 'none', 'abcdefghijk']) expect(secretHintOf(secret)).toBe('••••');
  });
});
