import { describe, expect, it } from 'vitest';
import { ConditionsSyntaxError, evaluateConditions, parseConditions, resolveObjectPath } from './conditions-parser';

const ticket = {
  id: 42,
  summary: 'Printer "HP-4" jammed',
  closedFlag: false,
  budgetHours: null,
  board: { id: 1, name: 'Help Desk' },
  company: { identifier: "O'Brien Co" },
  _info: { lastUpdated: '2025-06-01T10:00:00Z' },
};

function matches(conditions: string, record: Record<string, unknown> = ticket): boolean {
  return evaluateConditions(parseConditions(conditions), (path) => resolveObjectPath(record, path));
}

describe('ConnectWise conditions', () => {
  it('compares numbers with every comparison operator', () => {
    expect(matches('id = 42')).toBe(true);
    expect(matches('id != 42')).toBe(false);
    expect(matches('id <> 41')).toBe(true);
    expect(matches('id < 43')).toBe(true);
    expect(matches('id <= 42')).toBe(true);
    expect(matches('id > 42')).toBe(false);
    expect(matches('id >= 42')).toBe(true);
  });

  it('reads nested fields with slashes and falls back to _info for lastUpdated', () => {
    expect(matches('board/id = 1')).toBe(true);
    expect(matches('board/name = "Help Desk"')).toBe(true);
    expect(matches('lastUpdated > [2025-05-31T00:00:00Z]')).toBe(true);
    expect(matches('lastUpdated < [2025-05-31T00:00:00Z]')).toBe(false);
  });

  it('matches strings case-insensitively with contains and like wildcards', () => {
    expect(matches('summary contains "jammed"')).toBe(true);
    expect(matches('summary like "printer%"')).toBe(true);
    expect(matches('summary like "%HP-_"" jammed"')).toBe(true);
    expect(matches('summary like "%HP-__"" jammed"')).toBe(false);
    expect(matches('summary like "%hp-4%"')).toBe(true);
    expect(matches('summary not like "%scanner%"')).toBe(true);
  });

  it('unescapes doubled and backslash-escaped quotes inside strings', () => {
    expect(matches('summary = "Printer ""HP-4"" jammed"')).toBe(true);
    expect(matches('summary = "Printer \\"HP-4\\" jammed"')).toBe(true);
    expect(matches("company/identifier = 'O''Brien Co'")).toBe(true);
  });

  it('handles booleans, null and in / not in lists', () => {
    expect(matches('closedFlag = false')).toBe(true);
    expect(matches('closedFlag = True')).toBe(false);
    expect(matches('budgetHours = null')).toBe(true);
    expect(matches('summary != null')).toBe(true);
    expect(matches('id in (1, 42, 7)')).toBe(true);
    expect(matches('board/name in ("Projects", "Help Desk")')).toBe(true);
    expect(matches('id not in (1, 42)')).toBe(false);
  });

  it('binds and tighter than or, and honours parentheses', () => {
    expect(matches('id = 1 or id = 42 and closedFlag = true')).toBe(false);
    expect(matches('(id = 1 or id = 42) and closedFlag = false')).toBe(true);
    expect(matches('id = 1 OR (id = 42 AND board/id = 1)')).toBe(true);
    expect(matches('not (id = 42)')).toBe(false);
  });

  it('rejects malformed conditions with a positioned message', () => {
    expect(() => parseConditions('summary = "open')).toThrow(ConditionsSyntaxError);
    expect(() => parseConditions('summary = open')).toThrow(/strings must be quoted/);
    expect(() => parseConditions('id = 1 and')).toThrow(ConditionsSyntaxError);
    expect(() => parseConditions('(id = 1')).toThrow(/Expected '\)'/);
    expect(() => parseConditions('lastUpdated > [not a date]')).toThrow(/Invalid date/);
    expect(() => parseConditions('id ~ 3')).toThrow(ConditionsSyntaxError);
  });
});
