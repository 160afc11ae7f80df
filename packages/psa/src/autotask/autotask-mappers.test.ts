import { describe, expect, it } from 'vitest';
import type { TAutotaskNoteRow } from './autotask-mappers';
import { noteSettingsFrom, toNote } from './autotask-records';
import { parseEntityFields } from './picklists';

const picklist = (values: [number, string][]) => values.map(([value, label], index) => ({ value: String(value), label, isDefaultValue: index === 0, sortOrder: index, parentValue: '', isActive: true, isSystem: true }));
// Autotask's own TicketNotes picklists: publish 1 All Autotask Users, 2 Internal Only, 4 Internal & Co-Managed; noteType 3 Resolution.
const settings = noteSettingsFrom(
  parseEntityFields({
    fields: [
      { name: 'publish', isPickList: true, picklistValues: picklist([[1, 'All Autotask Users'], [2, 'Internal Only'], [4, 'Internal & Co-Managed']]) },
      { name: 'noteType', isPickList: true, picklistValues: picklist([[1, 'Task Summary'], [3, 'Resolution'], [13, 'Task Detail']]) },
    ],
  }),
);
const row = (fields: Partial<TAutotaskNoteRow>): TAutotaskNoteRow => ({ id: 9, ticketID: 42, title: 'Note', description: 'Replaced the dock.', noteType: 1, publish: 1, ...fields });

describe('Autotask notes', () => {
  // Regression: the resolution note type was tested before publish, so an internal-only resolution note read as a plain
  // resolution note and client users were shown it.
  it('keeps a resolution note published internally internal', () => {
    expect(toNote(row({ noteType: 3, publish: 2 }), 42, settings.kindValues)).toMatchObject({ kind: 'resolution', isInternal: true });
    expect(toNote(row({ title: 'Resolution', publish: 4 }), 42, settings.kindValues)).toMatchObject({ kind: 'resolution', isInternal: true });
  });

  it('shows only notes published to all users', () => {
    expect(toNote(row({ noteType: 3, publish: 1 }), 42, settings.kindValues)).toMatchObject({ kind: 'resolution', isInternal: false });
    expect(toNote(row({ publish: 1 }), 42, settings.kindValues)).toMatchObject({ kind: 'description', isInternal: false });
    expect(toNote(row({ publish: 2 }), 42, settings.kindValues)).toMatchObject({ kind: 'internal', isInternal: true });
    // A publish value the picklist does not name for everyone (or none at all) stays internal: clients see less, never more.
    expect(toNote(row({ publish: 99 }), 42, settings.kindValues).isInternal).toBe(true);
    expect(toNote(row({ publish: null }), 42, settings.kindValues).isInternal).toBe(true);
  });
});
