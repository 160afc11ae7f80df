import { describe, expect, it } from 'vitest';
import type { TPicklistValue } from './picklists';
import { subscribedTicketFieldIds } from './webhook-fields';

const value = (id: number, label: string, isActive = true): TPicklistValue => ({ value: id, label, isDefault: false, sortOrder: id, parentValue: null, isActive, isSystem: false });

describe('subscribedTicketFieldIds', () => {
  it('recognises API field names and screen labels, once each', () => {
    const picklist = [value(4, 'Status'), value(7, 'priority'), value(9, 'Queue'), value(12, 'Primary Resource'), value(13, 'assignedResourceID'), value(20, 'Description')];
    expect(subscribedTicketFieldIds(picklist)).toEqual([4, 7, 9, 13]);
  });

  it('ignores inactive fields and offers nothing when none match', () => {
    expect(subscribedTicketFieldIds([value(4, 'status', false), value(5, 'Estimated Hours')])).toEqual([]);
  });
});
