import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { TSupportTicket } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { formatWhen } from '../../../lib/format-when';
import { SupportTicketCard } from './support-ticket-card';

const ticket: TSupportTicket = {
  id: 't-1',
  ticketId: 100346,
  ticketNumber: '100346',
  title: 'outlook not opening',
  description: null,
  boardId: 1,
  boardName: 'Help Desk',
  categoryId: 2,
  categoryName: 'Email',
  subCategoryId: 3,
  subCategoryName: 'Outlook Not Working',
  priority: 'Priority 2 - High',
  priorityId: 2,
  status: 'Closed',
  companyId: '1',
  companyName: 'Brightwater Family Dental',
  contactId: '1',
  contactName: 'Tanya Beaulieu',
  ownerName: null,
  isClosed: true,
  createdAt: '2026-06-12T16:10:07.000Z',
  psaWriteState: 'done',
  progress: { ticketCreated: 'done', ticketAssigned: 'done', ticketClosed: 'done' },
};

describe('SupportTicketCard', () => {
  it("shows when the ticket was opened as the technicians' screens do, without seconds (it showed \"6/12/2026, 4:10:07 PM\")", () => {
    renderWithProviders(<SupportTicketCard ticket={ticket} />);
    const line = screen.getByText(/^Ticket 100346 · /);
    expect(line).toHaveTextContent(`Ticket 100346 · ${formatWhen(ticket.createdAt)} · Priority 2 - High`);
    expect(line.textContent).not.toContain(':07');
  });
});
