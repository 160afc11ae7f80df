import { describe, expect, it } from 'vitest';
import { toNote } from './connectwise-mappers';

const note = (flags: Record<string, boolean>) => ({ id: 7, ticketId: 42, text: 'Reset the VPN profile.', dateCreated: '2026-03-02T10:00:00Z', createdBy: 'pat', ...flags });

describe('ConnectWise notes', () => {
  // Regression: the flags are independent in ConnectWise, and a resolution note also flagged internal was read as a
  // plain resolution note, so client users were shown it.
  it('keeps a resolution note that is also flagged internal internal', () => {
    const mapped = toNote(note({ resolutionFlag: true, internalAnalysisFlag: true }), 42);
    expect(mapped).toMatchObject({ kind: 'resolution', isInternal: true });
  });

  it('reads internalFlag as internal too', () => {
    expect(toNote(note({ detailDescriptionFlag: true, internalFlag: true }), 42)).toMatchObject({ kind: 'description', isInternal: true });
  });

  it('marks discussion, resolution and internal-analysis notes by their own flags', () => {
    expect(toNote(note({ detailDescriptionFlag: true, internalFlag: false }), 42)).toMatchObject({ kind: 'description', isInternal: false });
    expect(toNote(note({ resolutionFlag: true }), 42)).toMatchObject({ kind: 'resolution', isInternal: false });
    expect(toNote(note({ internalAnalysisFlag: true }), 42)).toMatchObject({ kind: 'internal', isInternal: true });
  });
});
