import { describe, expect, it } from 'vitest';
import { describePsaWrite } from './psa-outbox';
import { QUEUE_WRITES } from '../queue/queue.psa-writes';
import { EMAIL_ATTACHMENT_ADDED_AFTER_ALL_WRITE, EMAIL_ATTACHMENT_NOT_ADDED_WRITE, EMAIL_ATTACHMENT_WRITE, EMAIL_NOTE_WRITE, EMAIL_TICKET_WRITE } from '../email-connector/email-tickets.psa-write';
import { TICKET_CREATE_WRITE } from '../assistant/ticket-create.psa-write';
import { CONTACT_CREATE } from '../companies/companies.psa-writes';

/** Every kind of PSA write defined in the code base, with a payload as its module stores it, and the admin's summary of it. */
const KINDS: [kind: string, payload: unknown, summary: string][] = [
  [QUEUE_WRITES.assign, { ticketId: 12, boardId: 3, memberId: 7 }, 'Assign the ticket to its technician'],
  [QUEUE_WRITES.unassign, { ticketId: 12, statusName: 'New' }, 'Hand the ticket back to the queue'],
  [QUEUE_WRITES.note, { noteId: 'n1', ticketId: 12, text: 'Checked the cable', kind: 'internal', noteType: null, memberId: 7 }, 'Internal note on the ticket'],
  [QUEUE_WRITES.note, { noteId: 'n2', ticketId: 12, text: 'Swapped the toner', kind: 'resolution', noteType: null, memberId: 7 }, 'Resolution note on the ticket'],
  [QUEUE_WRITES.note, { noteId: 'n3', ticketId: 12, text: 'Called the user', kind: 'description', noteType: null, memberId: 7 }, 'Note on the ticket'],
  [QUEUE_WRITES.update, { ticketId: 12, summary: 'Printer offline', priorityId: 2 }, 'Change the ticket’s summary and priority'],
  [QUEUE_WRITES.update, { ticketId: 12, typeId: 4, subtypeId: 5, statusId: 6 }, 'Change the ticket’s type, subtype and status'],
  [QUEUE_WRITES.close, { ticketId: 12, statusId: 9, resolution: 'Replaced the fuser' }, 'Close the ticket with its resolution'],
  [QUEUE_WRITES.close, { ticketId: 12, statusId: 9, resolution: null }, 'Close the ticket'],
  [QUEUE_WRITES.timeEntry, { timerId: 't1', ticketId: 12, memberId: 7, start: '2026-01-05T09:00:00Z', end: '2026-01-05T09:25:00Z', minutes: 25, notes: '' }, 'Time entry of 25 min'],
  [QUEUE_WRITES.timeEntry, { timerId: 't2', ticketId: 12, memberId: 7, start: '2026-01-05T09:00:00Z', end: '2026-01-05T10:05:00Z', minutes: 65, notes: '' }, 'Time entry of 1 h 5 min'],
  [TICKET_CREATE_WRITE, { psaType: 'CONNECTWISE', requestId: 'r1', draftId: null, input: { summary: 'Outlook keeps asking for a password', boardId: 1, companyId: 2 }, names: {} }, 'New ticket: Outlook keeps asking for a password'],
  [EMAIL_TICKET_WRITE, { psaType: 'CONNECTWISE', emailMessageRowId: 'm1', input: { summary: 'Scanner will not send', boardId: 1, companyId: 2 }, names: {} }, 'New ticket from an email: Scanner will not send'],
  [EMAIL_NOTE_WRITE, { emailMessageRowId: 'm2', threadRowId: 'm1', ticket: null, text: 'Still broken' }, 'Email reply as a note on its ticket'],
  [EMAIL_ATTACHMENT_WRITE, { attachmentRowId: 'a1', threadRowId: 'm1', ticket: null, fileName: 'report.pdf', contentType: 'application/pdf', sizeBytes: 1000 }, 'Attachment report.pdf'],
  [EMAIL_ATTACHMENT_NOT_ADDED_WRITE, { threadRowId: 'm1', ticket: null, text: 'The file report.pdf could not be added.' }, 'Internal note that a file from an email was not added'],
  [EMAIL_ATTACHMENT_ADDED_AFTER_ALL_WRITE, { threadRowId: 'm1', ticket: null, text: 'The file report.pdf from the email was added to this ticket after all.' }, 'Internal note that a file from an email was added after all'],
  [CONTACT_CREATE, { psaType: 'CONNECTWISE', externalCompanyId: '250', firstName: 'Ada', lastName: 'Lovelace', email: null, phone: null, emailTypeId: null, phoneTypeId: null }, 'New contact Ada Lovelace'],
];

describe('the summary of a PSA write', () => {
  it('says what each kind of write does in plain words, from its payload', () => {
    for (const [kind, payload, summary] of KINDS) expect(describePsaWrite(kind, payload), kind).toBe(summary);
  });

  it('never throws on an odd stored payload: a short summary without the missing parts, or the kind', () => {
    for (const kind of new Set(KINDS.map(([each]) => each))) {
      for (const payload of [null, undefined, {}, [], 'text', 42, { input: null }, { minutes: 'many', fileName: { a: 1 }, kind: 7 }]) {
        const summary = describePsaWrite(kind, payload);
        expect(summary, `${kind} of ${JSON.stringify(payload)}`).toMatch(/\S/);
        expect(summary).not.toMatch(/undefined|null|NaN|\[object/);
      }
    }
  });

  it('keeps a long ticket summary or file name short, and answers the kind of a write this server does not know', () => {
    const long = describePsaWrite(EMAIL_ATTACHMENT_WRITE, { fileName: `${'x'.repeat(300)}.pdf` });
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith('…')).toBe(true);
    expect(describePsaWrite('board.type.create', { name: 'Hardware' })).toBe('board.type.create');
  });
});
