import { describe, expect, it } from 'vitest';
import { ticketNumberIn } from './email-tickets.service';

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
