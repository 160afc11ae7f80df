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
});
