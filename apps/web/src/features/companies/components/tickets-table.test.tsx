import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { TCompanyTicketPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { formatWhen } from '../../../lib/format-when';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { TicketsTable } from './tickets-table';

afterEach(() => vi.unstubAllGlobals());

describe('TicketsTable (company and contact tickets)', () => {
  it('shows when each ticket was opened as every ticket screen does, date and time', { timeout: 20_000 }, async () => {
    const page: TCompanyTicketPage = {
      items: [{ id: '0b7f7a52-4a55-4b4e-9a1a-6d2c7e3f8a10', psaTicketId: '100536', ticketNumber: '100536', summary: 'Printer offline', boardName: 'Help Desk', statusName: 'New', priorityName: 'Priority 3 - Medium', companyName: 'Brightwater', contactName: 'Tanya Beaulieu', ownerName: null, isClosed: false, createdAt: '2026-11-27T15:49:00.000Z', updatedAt: null }],
      total: 1,
      page: 1,
      pageSize: 30,
    };
    stubFetch({ [`GET /db/${MSP}/psaTickets`]: () => ({ status: 200, body: page }) });
    renderWithProviders(<TicketsTable mspCustomDomain={MSP} psaCompanyId="1" onLoadFailed={() => undefined} />);
    const row = (await screen.findByText('Printer offline')).closest('tr');
    if (!row) throw new Error('no row');
    // It showed the date alone in the browser's short form ("11/27/2026"), unlike the queue, All Tickets and the activity log.
    expect(within(row).getByText(formatWhen('2026-11-27T15:49:00.000Z'))).toBeInTheDocument();
  });

  // Bug: a closed ticket read "Closed CLOSED" (the PSA's status name and our badge), and the Contacts screen's All
  // tickets, which spans every company, did not say whose company a ticket was.
  it('says closed once, and names the company where the list spans companies', { timeout: 20_000 }, async () => {
    const base = { psaTicketId: '1', ticketNumber: '1', boardName: 'Help Desk', priorityName: null, contactName: 'Tanya Beaulieu', ownerName: null, createdAt: '2026-11-27T15:49:00.000Z', updatedAt: null };
    const page: TCompanyTicketPage = {
      items: [
        { ...base, id: '0b7f7a52-4a55-4b4e-9a1a-6d2c7e3f8a11', summary: 'Printer offline', statusName: 'Closed', isClosed: true, companyName: 'Brightwater Family Dental' },
        { ...base, id: '0b7f7a52-4a55-4b4e-9a1a-6d2c7e3f8a12', summary: 'VPN down', statusName: 'Resolved', isClosed: true, companyName: 'Granite Peak Builders' },
      ],
      total: 2,
      page: 1,
      pageSize: 30,
    };
    stubFetch({ [`GET /db/${MSP}/psaTickets`]: () => ({ status: 200, body: page }) });
    renderWithProviders(<TicketsTable mspCustomDomain={MSP} onLoadFailed={() => undefined} />);
    const closed = (await screen.findByText('Printer offline')).closest('tr');
    const resolved = screen.getByText('VPN down').closest('tr');
    if (!closed || !resolved) throw new Error('no rows');
    expect(within(closed).getAllByText(/^closed$/i)).toHaveLength(1);
    expect(within(resolved).getByText('Closed')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Company' })).toBeInTheDocument();
    expect(within(closed).getByRole('cell', { name: 'Brightwater Family Dental' })).toBeInTheDocument();
  });

  it('leaves the company out inside one company', { timeout: 20_000 }, async () => {
    const page: TCompanyTicketPage = { items: [], total: 0, page: 1, pageSize: 30 };
    stubFetch({ [`GET /db/${MSP}/psaTickets`]: () => ({ status: 200, body: { ...page, items: [{ id: '0b7f7a52-4a55-4b4e-9a1a-6d2c7e3f8a13', psaTicketId: '2', ticketNumber: '2', summary: 'Scanner', boardName: null, statusName: 'New', priorityName: null, companyName: 'Brightwater Family Dental', contactName: null, ownerName: null, isClosed: false, createdAt: null, updatedAt: null }], total: 1 } }) });
    renderWithProviders(<TicketsTable mspCustomDomain={MSP} psaCompanyId="19" onLoadFailed={() => undefined} />);
    expect(await screen.findByText('Scanner')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Company' })).not.toBeInTheDocument();
  });
});
