import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { TActivityEvent, TActivityPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { ActivityLogScreen } from './activity-log-screen';

const MSP = 'northwind';
const BOB = '00000000-0000-4000-8000-000000000042';

function event(id: number, action: string, target: string | null, targetLabel: string | null): TActivityEvent {
  return { id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, at: '2026-02-10T12:00:00.000Z', who: 'Ada Admin', userId: null, action, kind: 'change', target, targetLabel, outcome: 'success', ip: null };
}

afterEach(() => vi.unstubAllGlobals());

describe('ActivityLogScreen', () => {
  // Regression: the Target column showed raw uuids and PSA numbers.
  it('shows each target by name with its id beneath, and a target without a name as recorded', async () => {
    const page: TActivityPage = {
      items: [event(1, 'technician.tier', BOB, 'Bob Builder'), event(2, 'auth.sign_in', 'someone@example.com', null)],
      total: 2,
      page: 1,
      pageSize: 50,
      people: [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(page), { status: 200 })),
    );
    renderWithProviders(<ActivityLogScreen mspCustomDomain={MSP} />);
    const named = await screen.findByText('Bob Builder');
    const cell = named.closest('td');
    expect(cell).not.toBeNull();
    if (cell) {
      expect(within(cell).getByText(BOB)).toBeInTheDocument();
      expect(within(cell).getByTitle(BOB)).toBeInTheDocument();
    }
    expect(screen.getByText('someone@example.com')).toBeInTheDocument();
  });

  // Bug: the log showed the browser's numeric date ("2/10/2026, 12:00:00 PM") while every other screen writes the month.
  it('writes when as the other screens do, to the second', async () => {
    const page: TActivityPage = { items: [event(1, 'technician.tier', BOB, 'Bob Builder')], total: 1, page: 1, pageSize: 50, people: [] };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(page), { status: 200 })),
    );
    renderWithProviders(<ActivityLogScreen mspCustomDomain={MSP} />);
    const row = (await screen.findByText('Bob Builder')).closest('tr');
    if (!row) throw new Error('no row');
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date('2026-02-10T12:00:00.000Z'));
    expect(within(row).getByText(expected)).toBeInTheDocument();
    expect(expected).toMatch(/Feb/);
  });
});
