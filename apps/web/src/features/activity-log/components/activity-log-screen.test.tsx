import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TActivityEvent, TActivityPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { ActivityLogScreen } from './activity-log-screen';

const MSP = 'northwind';
const BOB = '00000000-0000-4000-8000-000000000042';

function event(id: number, action: string, target: string | null, targetLabel: string | null): TActivityEvent {
  return { id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, at: '2026-02-10T12:00:00.000Z', who: 'Ada Admin', userId: null, action, kind: 'change', target, targetLabel, outcome: 'success', ip: null };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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

  // Regression: From and To were UTC days while the table shows local times, so an admin in Auckland asking for
  // 1 March missed the morning of 1 March and got the evening of 28 February's UTC day instead.
  it('asks for the admin\'s own days: the browser\'s time zone goes with From and To, to the page and the CSV', async () => {
    // The browser says it is in Auckland, whatever the machine running the test is set to.
    const options = new Intl.DateTimeFormat().resolvedOptions();
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ ...options, timeZone: 'Pacific/Auckland' });
    const page: TActivityPage = { items: [event(1, 'technician.tier', BOB, 'Bob Builder')], total: 1, page: 1, pageSize: 50, people: [] };
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(page), { status: 200 }));
    const lastUrl = () => fetchMock.mock.calls.at(-1)?.[0] ?? '';
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ActivityLogScreen mspCustomDomain={MSP} />);
    await screen.findByText('Bob Builder');
    // No day chosen: nothing to say about days.
    expect(lastUrl()).not.toContain('tz=');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-02' } });
    await waitFor(() => expect(lastUrl()).toContain('to=2026-03-02'));
    const asked = new URL(lastUrl(), 'http://localhost');
    expect([asked.searchParams.get('from'), asked.searchParams.get('to'), asked.searchParams.get('tz')]).toEqual(['2026-03-01', '2026-03-02', 'Pacific/Auckland']);
    const csv = new URL(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href') ?? '', 'http://localhost');
    expect([csv.searchParams.get('from'), csv.searchParams.get('to'), csv.searchParams.get('tz')]).toEqual(['2026-03-01', '2026-03-02', 'Pacific/Auckland']);
  });
});
