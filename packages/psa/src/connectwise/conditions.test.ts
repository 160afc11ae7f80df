import { describe, expect, it } from 'vitest';
import { Condition, eq, formatValue } from './conditions';

describe('ConnectWise conditions builder', () => {
  it('quotes strings and escapes quotes and backslashes so input cannot close the string', () => {
    expect(eq('summary', 'say "hi" \\ or 1=1').toString()).toBe('summary="say \\"hi\\" \\\\ or 1=1"');
  });

  it('writes numbers and booleans bare, null as a keyword and dates in brackets', () => {
    expect(formatValue(42)).toBe('42');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(null)).toBe('null');
    expect(formatValue(new Date('2024-03-01T10:20:30.456Z'))).toBe('[2024-03-01T10:20:30Z]');
  });

  it('groups and/or operands in parentheses and builds in-lists', () => {
    const condition = Condition.and(eq('board/id', 5), Condition.or(eq('closedFlag', false), Condition.in('status/name', ['New', 'Open'])));
    expect(condition.toString()).toBe('(board/id=5) and ((closedFlag=false) or (status/name in ("New", "Open")))');
  });

  it('puts spaces around word operators', () => {
    expect(Condition.compare('name', 'like', 'Acme%').toString()).toBe('name like "Acme%"');
  });

  it('rejects field paths that are not plain identifiers', () => {
    expect(() => eq('name=1 or id', 1)).toThrow(/Not a ConnectWise field path/);
    expect(() => eq('', 1)).toThrow();
    expect(() => formatValue(Number.NaN)).toThrow();
  });
});
