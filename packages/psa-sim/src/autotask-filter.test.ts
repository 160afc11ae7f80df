import { describe, expect, it } from 'vitest';
import { matchesAutotaskFilters, parseAutotaskQuery } from './autotask-filter';

const ticket = { id: 7, title: 'Outlook crashes on start', companyID: 12, contactID: null, createDate: '2025-06-01T10:00:00.000Z', isActive: true };

function matches(filter: unknown): boolean {
  const parsed = parseAutotaskQuery({ filter });
  if (!parsed.ok) throw new Error(parsed.message);
  return matchesAutotaskFilters(ticket, parsed.query.filter);
}

describe('Autotask query filters', () => {
  it('evaluates comparison operators', () => {
    expect(matches([{ op: 'eq', field: 'companyID', value: 12 }])).toBe(true);
    expect(matches([{ op: 'noteq', field: 'companyID', value: 12 }])).toBe(false);
    expect(matches([{ op: 'gt', field: 'id', value: 6 }])).toBe(true);
    expect(matches([{ op: 'gte', field: 'id', value: 8 }])).toBe(false);
    expect(matches([{ op: 'lt', field: 'id', value: 8 }])).toBe(true);
    expect(matches([{ op: 'lte', field: 'id', value: 6 }])).toBe(false);
    expect(matches([{ op: 'gt', field: 'createDate', value: '2025-05-31' }])).toBe(true);
    expect(matches([{ op: 'eq', field: 'isActive', value: 'true' }])).toBe(true);
  });

  it('evaluates string operators case-insensitively', () => {
    expect(matches([{ op: 'beginsWith', field: 'title', value: 'outlook' }])).toBe(true);
    expect(matches([{ op: 'endsWith', field: 'title', value: 'START' }])).toBe(true);
    expect(matches([{ op: 'contains', field: 'title', value: 'crash' }])).toBe(true);
    expect(matches([{ op: 'contains', field: 'title', value: 'printer' }])).toBe(false);
  });

  it('evaluates exist, notExist, in and notIn', () => {
    expect(matches([{ op: 'exist', field: 'title' }])).toBe(true);
    expect(matches([{ op: 'notExist', field: 'contactID' }])).toBe(true);
    expect(matches([{ op: 'in', field: 'companyID', value: [1, 12] }])).toBe(true);
    expect(matches([{ op: 'notIn', field: 'companyID', value: [1, 12] }])).toBe(false);
  });

  it('ANDs the top-level array and nests and/or groups', () => {
    expect(matches([{ op: 'eq', field: 'id', value: 7 }, { op: 'eq', field: 'companyID', value: 1 }])).toBe(false);
    expect(matches([{ op: 'or', items: [{ op: 'eq', field: 'companyID', value: 1 }, { op: 'and', items: [{ op: 'eq', field: 'id', value: 7 }, { op: 'contains', field: 'title', value: 'outlook' }] }] }])).toBe(true);
  });

  it('accepts field names, operators and body properties in any case', () => {
    const parsed = parseAutotaskQuery({ Filter: [{ op: 'EQ', field: 'COMPANYID', value: 12 }], MaxRecords: 10, IncludeFields: ['id'] });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.query.maxRecords).toBe(10);
      expect(matchesAutotaskFilters(ticket, parsed.query.filter)).toBe(true);
    }
  });

  it('rejects unknown operators, missing filters and MaxRecords over 500', () => {
    expect(parseAutotaskQuery({ filter: [{ op: 'like', field: 'title', value: 'x' }] }).ok).toBe(false);
    expect(parseAutotaskQuery({ MaxRecords: 10 }).ok).toBe(false);
    expect(parseAutotaskQuery({ filter: [{ op: 'exist', field: 'id' }], MaxRecords: 501 }).ok).toBe(false);
  });
});
