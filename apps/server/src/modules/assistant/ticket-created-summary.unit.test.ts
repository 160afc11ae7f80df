import { describe, expect, it } from 'vitest';
import { ticketCreatedSummary } from './ticket-create.service';

const names = { ticketNumber: '100536', boardName: 'Help Desk', typeName: 'Hardware', subTypeName: 'Printer / Scanner' };

describe('ticketCreatedSummary (the line Jarvis shows when a ticket was created)', () => {
  it('does not say "priority Priority 3 - Medium" for a PSA priority named with the word', () => {
    expect(ticketCreatedSummary({ ...names, priority: 'Priority 3 - Medium' })).toBe('Your ticket 100536 was created on Help Desk: Hardware / Printer / Scanner, priority 3 - Medium.');
    expect(ticketCreatedSummary({ ...names, priority: 'Medium' })).toBe('Your ticket 100536 was created on Help Desk: Hardware / Printer / Scanner, priority Medium.');
  });

  it('leaves the priority out when there is none (it read "priority .")', () => {
    expect(ticketCreatedSummary({ ...names, priority: null })).toBe('Your ticket 100536 was created on Help Desk: Hardware / Printer / Scanner.');
    expect(ticketCreatedSummary({ ...names, priority: ' ' })).toBe('Your ticket 100536 was created on Help Desk: Hardware / Printer / Scanner.');
  });
});
