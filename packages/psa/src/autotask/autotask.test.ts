import { describe, expect, it } from 'vitest';
import { mapAutotaskError } from './autotask-http';
import { atFilter } from './filters';
import { defaultOf, isClosedStatus, parseEntityFields } from './picklists';

const fieldsBody = {
  fields: [
    {
      name: 'subIssueType',
      isPickList: true,
      picklistValues: [
        { value: '12', label: 'Outlook', isDefaultValue: false, sortOrder: 2, parentValue: '3', isActive: true, isSystem: false },
        { value: '11', label: 'Password reset', isDefaultValue: false, sortOrder: 1, parentValue: '4', isActive: true, isSystem: false },
      ],
    },
    {
      name: 'status',
      isPickList: true,
      isRequired: true,
      picklistValues: [
        { value: '1', label: 'New', isDefaultValue: true, sortOrder: 1, parentValue: '', isActive: true, isSystem: true },
        { value: '5', label: 'Complete', isDefaultValue: false, sortOrder: 9, parentValue: '', isActive: true, isSystem: true },
      ],
    },
  ],
};

describe('Autotask picklists', () => {
  it('turns string values into numbers, keeps the parent issue type and sorts by sort order', () => {
    const fields = parseEntityFields(fieldsBody);
    expect(fields.picklist('SUBISSUETYPE').map((value) => [value.value, value.parentValue])).toEqual([
      [11, 4],
      [12, 3],
    ]);
    expect(fields.isRequired('status')).toBe(true);
    expect(fields.picklist('missing')).toEqual([]);
  });

  it('finds the default and the closing status', () => {
    const statuses = parseEntityFields(fieldsBody).picklist('status');
    expect(defaultOf(statuses)?.label).toBe('New');
    expect(statuses.filter(isClosedStatus).map((status) => status.label)).toEqual(['Complete']);
  });
});

describe('Autotask filters and errors', () => {
  it('builds JSON filters and rejects odd field names', () => {
    expect(atFilter.or(atFilter.eq('companyID', 4), atFilter.in('status', [1, 5]))).toEqual({
      op: 'or',
      items: [
        { op: 'eq', field: 'companyID', value: 4 },
        { op: 'in', field: 'status', value: [1, 5] },
      ],
    });
    expect(() => atFilter.eq('id"', 1)).toThrow();
  });

  it('maps statuses and the errors array to kinds and field messages', () => {
    const response = (status: number, body: unknown) => ({ status, body, headers: new Headers() });
    expect(mapAutotaskError(response(401, null)).kind).toBe('bad_keys');
    expect(mapAutotaskError(response(404, { errors: ['Not found'] })).kind).toBe('not_found');
    const validation = mapAutotaskError(response(400, { errors: ['Value does not reference an existing entity for taskType .'] }));
    expect(validation).toMatchObject({ kind: 'validation', fieldMessages: [{ field: 'taskType' }] });
    expect(mapAutotaskError(response(405, { errors: ['Thread threshold exceeded (Itgenatr005)'] })).kind).toBe('rate_limited');
    expect(mapAutotaskError(response(503, null)).kind).toBe('unavailable');
    expect(mapAutotaskError(response(500, { errors: ['An unexpected error occurred on the server.'] })).kind).toBe('unavailable');
    expect(mapAutotaskError(response(500, { errors: ['Value does not reference an existing entity for queueID .'] }))).toMatchObject({
      kind: 'validation',
      fieldMessages: [{ field: 'queueID' }],
    });
  });
});
