import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { badgeContrast } from '../../../test/contrast';
import { queueTicket } from '../test/fake-queue-server';
import { PendingPsaBadge, PriorityBadge, TicketBadges } from './ticket-badges';

function contrastOf(label: string): number {
  const badge = screen.getByText(label).closest<HTMLElement>('.mantine-Badge-root');
  if (!badge) throw new Error(`no badge "${label}"`);
  return badgeContrast(badge).ratio;
}

// Bugs (axe sweep s28, WCAG 1.4.3): the tier badge on every ticket card and row was gray.6 on white (3.32:1),
// "Priority 3 - Medium" yellow.9 on yellow.1 (2.68:1) and "Priority 2 - High" orange.9 on orange.1 (3.61:1).
describe('ticket badges', () => {
  it('the tier, priority and state badges of a ticket read at 4.5:1 or more', () => {
    renderWithProviders(<TicketBadges ticket={{ ...queueTicket(1, { priority: 'Priority 3 - Medium', tier: 'Tier1', state: 'claimed' }), psaPendingWrites: 2 }} />);
    for (const label of ['Priority 3 - Medium', 'Tier1', 'Claimed', '2 pending in the PSA']) expect(contrastOf(label), label).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['Priority 1 - Critical', 'Priority 2 - High', 'Priority 3 - Medium', 'Priority 4 - Low', 'Emergency', 'Other'])('the priority "%s" reads at 4.5:1 or more', (priority) => {
    renderWithProviders(<PriorityBadge priority={priority} />);
    expect(contrastOf(priority)).toBeGreaterThanOrEqual(4.5);
  });

  it('the pending-writes badge reads at 4.5:1 or more', () => {
    renderWithProviders(<PendingPsaBadge count={1} />);
    expect(contrastOf('Pending in the PSA')).toBeGreaterThanOrEqual(4.5);
  });
});
