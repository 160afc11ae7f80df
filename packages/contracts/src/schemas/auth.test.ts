import { describe, expect, it } from 'vitest';
import { mspUserHome } from '../paths';
import { maskEmail, ZSessionCheckResponse } from './auth';

describe('auth contracts', () => {
  it('masks an email to its first letter and domain', () => {
    expect(maskEmail('jane@northwind-it.example')).toBe('j•••@northwind-it.example');
    expect(maskEmail('broken')).toBe('•••');
  });

  it('builds the landing path after 2FA', () => {
    expect(mspUserHome('northwind', 'abc')).toBe('/northwind/dashboard/abc/tickets');
  });

  it('parses both session-check answers', () => {
    expect(ZSessionCheckResponse.parse({ authenticated: false })).toEqual({ authenticated: false });
    expect(ZSessionCheckResponse.safeParse({ authenticated: true }).success).toBe(false);
  });
});
