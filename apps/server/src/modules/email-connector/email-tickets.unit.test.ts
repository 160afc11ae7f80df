import { describe, expect, it } from 'vitest';
import { ticketNumberIn } from './email-tickets.service';
import { ATTACHMENT_MAX_BYTES, INLINE_IMAGE_MAX_BYTES, attachmentLinesOf, attachmentPlanOf } from './email-attachments';

describe('the ticket number a reply’s subject names', () => {
  it('reads the ways PSA notifications write it', () => {
    expect(ticketNumberIn('RE: Ticket#12345/Printer jams on every page')).toBe('12345');
    expect(ticketNumberIn('Re: Ticket #12345 - Printer jams')).toBe('12345');
    expect(ticketNumberIn('Fwd: ticket 777 updated')).toBe('777');
    expect(ticketNumberIn('RE: Ticket No. 4021 has been closed')).toBe('4021');
    expect(ticketNumberIn('RE: [T20261128.0001] Laptop battery')).toBe('T20261128.0001');
  });

  it('finds none in an ordinary subject, nor in a number that is not a ticket’s', () => {
    expect(ticketNumberIn('Printer on floor 2 shows error 49')).toBeNull();
    expect(ticketNumberIn('Invoice #12345 attached')).toBeNull();
    expect(ticketNumberIn('ticketing system down')).toBeNull();
    expect(ticketNumberIn('')).toBeNull();
  });
});

describe('which files of a mail are added to its ticket (decision 039)', () => {
  const file = (filename: string | undefined, size: number, related?: boolean) => ({ filename, contentType: 'image/png', content: Buffer.alloc(size), related });

  it('leaves out small inline images, adds ten files of up to 6 MB, and names the larger and further ones', () => {
    const files = [file('logo.png', 1_024, true), file('pasted.png', INLINE_IMAGE_MAX_BYTES, true), file('huge.mov', ATTACHMENT_MAX_BYTES + 1), file('exact.bin', ATTACHMENT_MAX_BYTES)];
    for (let index = 1; index <= 10; index += 1) files.push(file(`photo-${index}.jpg`, 10));
    const plan = attachmentPlanOf({ attachments: files });
    expect(plan.toAdd.map((added) => added.fileName)).toEqual(['pasted.png', 'exact.bin', ...Array.from({ length: 8 }, (_, index) => `photo-${index + 1}.jpg`)]);
    expect(plan.overSize).toEqual(['huge.mov']);
    expect(plan.overCount).toEqual(['photo-9.jpg', 'photo-10.jpg']);
    expect(attachmentLinesOf(plan)).toEqual([
      `Attachments (added to the ticket): ${plan.toAdd.map((added) => added.fileName).join(', ')}`,
      'Attachments not added (over 6 MB, in the help-desk mailbox): huge.mov',
      'Attachments not added (more than 10, in the help-desk mailbox): photo-9.jpg, photo-10.jpg',
    ]);
  });

  it('names a file without a name by its place, and keeps a path out of a name', () => {
    const plan = attachmentPlanOf({ attachments: [file(undefined, 5), file('C:\\Users\\pat\\report.pdf', 5)] });
    expect(plan.toAdd.map((added) => added.fileName)).toEqual(['attachment-1', 'report.pdf']);
    expect(attachmentLinesOf({ toAdd: [], overSize: [], overCount: [], overMail: [] })).toEqual([]);
  });
});
