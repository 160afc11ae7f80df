import { describe, expect, it } from 'vitest';
import { cutText, wellFormed, wellFormedDeep } from './text';

describe('cutText (a title cut in the middle of an emoji was a 500 and a lost ticket)', () => {
  it('never keeps half of a surrogate pair', () => {
    expect(cutText(`${'a'.repeat(99)}😀`, 100)).toBe('a'.repeat(99));
    expect(cutText(`${'a'.repeat(98)}😀`, 100)).toBe(`${'a'.repeat(98)}😀`);
    expect(cutText('😀😀', 3)).toBe('😀');
  });

  it('keeps a short text whole and counts UTF-16 units, as the PSAs do', () => {
    expect(cutText('Printer offline', 100)).toBe('Printer offline');
    expect(cutText('😀'.repeat(60), 100)).toHaveLength(100);
  });
});

describe('wellFormed (PostgreSQL jsonb refuses a lone surrogate)', () => {
  it('replaces lone surrogates and keeps pairs', () => {
    expect(wellFormed('a\uD83Db')).toBe('a\uFFFDb');
    expect(wellFormed('a\uDE00b')).toBe('a\uFFFDb');
    expect(wellFormed('a😀b')).toBe('a😀b');
    expect(wellFormed('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
  });

  it('repairs every string of a request body and leaves the rest alone', () => {
    expect(wellFormedDeep({ title: 'x\uD83D', list: ['\uDE00', 1, null, true], nested: { name: 'ok' } })).toEqual({ title: 'x\uFFFD', list: ['\uFFFD', 1, null, true], nested: { name: 'ok' } });
  });
});
