import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { MESSAGES, type TSupportTicket } from '@switchboard/contracts';
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

// Regression (review s26 #5): a pending ticket showed "pending in the PSA" twice, and a refused one a red "Not accepted
// by the PSA" beside a blue "refused by the PSA".
describe('SupportTicketCard of a ticket not in the PSA', () => {
  const notInPsa = { ...ticket, ticketId: null, ticketNumber: null, isClosed: false, priority: null, progress: { ticketCreated: 'pending', ticketAssigned: 'pending', ticketClosed: 'pending' } } satisfies TSupportTicket;

  it('shows one badge for a ticket still pending in the PSA', () => {
    renderWithProviders(<SupportTicketCard ticket={{ ...notInPsa, psaWriteState: 'pending', status: MESSAGES.assistant.pendingInPsa }} />);
    expect(screen.getAllByText(MESSAGES.assistant.pendingInPsa)).toHaveLength(1);
  });

  it('shows one badge for a ticket the PSA refused, with what happens next', () => {
    renderWithProviders(<SupportTicketCard ticket={{ ...notInPsa, psaWriteState: 'failed', status: MESSAGES.assistant.refusedInPsa }} />);
    expect(screen.getAllByText(MESSAGES.assistant.refusedInPsa)).toHaveLength(1);
    expect(screen.queryByText('Not accepted by the PSA')).not.toBeInTheDocument();
    expect(screen.getByText(MESSAGES.assistant.failedInPsa)).toBeInTheDocument();
  });

  it("still shows a PSA ticket's own status", () => {
    renderWithProviders(<SupportTicketCard ticket={{ ...ticket, status: 'In Progress', isClosed: false }} />);
    expect(screen.getByText('In Progress')).toBeInTheDocument();
  });
});
