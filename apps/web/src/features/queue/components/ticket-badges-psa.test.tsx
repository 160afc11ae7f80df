import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { badgeContrast } from '../../../test/contrast';
import { queueTicket } from '../test/fake-queue-server';
import { TicketBadges } from './ticket-badges';

// Regression (review s29, finding 2): a write the PSA refused for good showed on the ticket card as "Pending in the PSA",
// whose tooltip says it will be retried.
describe('the ticket card’s PSA badges', () => {
  it('a refused write shows as a red "Not in the PSA" whose tooltip sends the admin to Integrations; pending ones stay apart', async () => {
    renderWithProviders(<TicketBadges ticket={{ ...queueTicket(1), psaPendingWrites: 2, psaFailedWrites: 1 }} />);
    expect(screen.getByText('2 pending in the PSA')).toBeInTheDocument();
    const failed = screen.getByText('Not in the PSA');
    const badge = failed.closest<HTMLElement>('.mantine-Badge-root');
    if (!badge) throw new Error('no badge');
    expect(badge.getAttribute('style') ?? '').toContain('red');
    expect(badgeContrast(badge).ratio).toBeGreaterThanOrEqual(4.5);
    await userEvent.hover(failed);
    expect(await screen.findByText(MESSAGES.queue.psaFailed)).toBeInTheDocument();
  });

  it('only refused writes: no pending badge', () => {
    renderWithProviders(<TicketBadges ticket={{ ...queueTicket(1), psaPendingWrites: 0, psaFailedWrites: 2 }} />);
    expect(screen.getByText('2 not in the PSA')).toBeInTheDocument();
    expect(screen.queryByText(/pending in the PSA/i)).not.toBeInTheDocument();
  });
});
