import { describe, expect, it } from 'vitest';
import { PsaError } from './errors';
import { formatConversation } from './conversation';
import { isSameTimeEntry, timeEntrySpan } from './time-entry-span';

describe('formatConversation', () => {
  it('writes one line per message with who said it and when, under a Conversation title', () => {
    const text = formatConversation([
      { role: 'user', content: '  My VPN stopped working. ', at: '2026-11-23T09:00:00Z' },
      { role: 'assistant', content: 'Does it say authentication failed?' },
      { role: 'user', content: '   ' },
    ]);
    expect(text).toBe('Conversation\n\n[2026-11-23T09:00:00Z] User: My VPN stopped working.\nAssistant: Does it say authentication failed?');
  });

  it('is empty for a chat without words, so no empty note is written', () => {
    expect(formatConversation([{ role: 'user', content: ' ' }])).toBe('');
  });
});

describe('timeEntrySpan', () => {
  it('cuts times to the second and derives hours to four places', () => {
    expect(timeEntrySpan({ startAt: '2026-11-23T09:00:00.900Z', endAt: '2026-11-23T09:20:00Z' })).toEqual({ startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:20:00Z', hours: 0.3333 });
  });

  it('refuses an entry that does not end after it starts, or a time that is not one', () => {
    expect(() => timeEntrySpan({ startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:00:00.500Z' })).toThrow(PsaError);
    expect(() => timeEntrySpan({ startAt: 'yesterday', endAt: '2026-11-23T09:00:00Z' })).toThrow(/startAt/);
  });
});

describe('isSameTimeEntry', () => {
  const wanted = { startAt: '2026-11-23T09:00:30Z', endAt: '2026-11-23T09:20:10Z', notes: 'Fixed' };

  it('matches the same start second whatever format the PSA echoes it in', () => {
    expect(isSameTimeEntry({ startAt: '2026-11-23T09:00:30.000Z', endAt: null, notes: 'other' }, wanted)).toBe(true);
  });

  it('matches a PSA that kept only minutes when end minute and notes agree too, and nothing else', () => {
    expect(isSameTimeEntry({ startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:20:00Z', notes: 'Fixed' }, wanted)).toBe(true);
    expect(isSameTimeEntry({ startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:20:00Z', notes: 'Another entry' }, wanted)).toBe(false);
    expect(isSameTimeEntry({ startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:25:00Z', notes: 'Fixed' }, wanted)).toBe(false);
  });
});
