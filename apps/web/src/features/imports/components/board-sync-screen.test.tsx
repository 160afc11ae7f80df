import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { BoardSyncScreen } from './board-sync-screen';

const RUN = '11111111-1111-4111-8111-111111111111';
const phase = (status: string) => ({ status, processed: 1, error: null, startedAt: null, finishedAt: null });

function stubApi(statuses: unknown[], options: { boardsFail?: boolean; timeZone?: string } = {}) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url.startsWith('/psa/getConnectWiseBoards') && options.boardsFail) {
        return json(502, { type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'The PSA did not answer.', code: 'psa_unavailable', requestId: 'r' });
      }
      if (url.startsWith('/psa/getConnectWiseBoards')) return json(200, [{ id: 1, name: 'Help Desk', isActive: true }]);
      if (url.startsWith('/db/api/ticketQueue/weights') && options.timeZone) {
        return json(200, { settings: { priorityWeight: 1, subtypeWeight: 1, slaWeight: 1, ageWeight: 1, rejectCooldownMinutes: 60, idleReleaseMinutes: 30, releaseOnSignOut: true, timeZone: options.timeZone } });
      }
      if (url === '/psa/api/batch/sync-boards') return json(200, { parentRunId: RUN });
      if (url.startsWith('/psa/api/batch/status')) return json(200, statuses.shift());
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Renders the screen and starts a sync of Help Desk over January 2025, as a person would. */
async function startSyncOfJanuary(): Promise<void> {
  renderWithProviders(<BoardSyncScreen mspCustomDomain="northwind" />);
  fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2025-01-01' } });
  fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2025-01-31' } });
  // The board choice: Mantine's MultiSelect opens on click and lists the PSA's boards.
  const [boardsInput] = screen.getAllByLabelText('Boards');
  if (!boardsInput) throw new Error('no board choice');
  fireEvent.click(boardsInput);
  fireEvent.click(await screen.findByText('Help Desk'));
  fireEvent.click(screen.getByRole('button', { name: 'Sync' }));
}

describe('BoardSyncScreen', () => {
  // Bug: when the PSA's boards could not be read the Boards field was simply empty, with no word why.
  it("says why there are no boards to choose when the PSA's boards cannot be read", async () => {
    stubApi([], { boardsFail: true });
    renderWithProviders(<BoardSyncScreen mspCustomDomain="northwind" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The PSA did not answer.');
  });

  it("says the dates are the MSP's days in the queue settings' time zone", async () => {
    stubApi([], { timeZone: 'America/New_York' });
    renderWithProviders(<BoardSyncScreen mspCustomDomain="northwind" />);
    expect(await screen.findByText(MESSAGES.batchSync.daysIn('America/New York'))).toBeInTheDocument();
  });

  it('shows the spec messages for a missing date and clears them after 5 seconds', async () => {
    stubApi([]);
    renderWithProviders(<BoardSyncScreen mspCustomDomain="northwind" />);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Sync' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.batchSync.datesRequired);
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2025-02-01' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2025-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sync' }));
    expect(await screen.findByText(MESSAGES.batchSync.startBeforeEnd)).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_100);
    });
    expect(screen.queryByText(MESSAGES.batchSync.startBeforeEnd)).toBeNull();
  });

  it('starts, waits 10 s, polls every 45 s until both phases settle', async () => {
    const calls = stubApi([
      { parentRunId: RUN, boardIds: [1], startDate: '2025-01-01', endDate: '2025-01-31', psaRequests: 3, phase1: phase('RUNNING') },
      { parentRunId: RUN, boardIds: [1], startDate: '2025-01-01', endDate: '2025-01-31', psaRequests: 9, phase1: phase('COMPLETED'), phase2: phase('COMPLETED') },
    ]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await startSyncOfJanuary();
    // A success is a polite status, not an interrupting alert (Mantine's Alert is role="alert" by default).
    expect((await screen.findByRole('status')).textContent).toBe(MESSAGES.batchSync.started.replace('{id}', RUN));
    const statusCalls = () => calls.filter((url) => url.startsWith('/psa/api/batch/status')).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_000);
    });
    expect(statusCalls()).toBe(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(statusCalls()).toBe(1);
    expect((await screen.findByTestId('sync-status')).textContent).toBe('Boards: reading (1 board so far) · Tickets: waiting for the boards');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(45_000);
    });
    expect(statusCalls()).toBe(2);
    // One board, one ticket: counted in the singular (it read "1 boards").
    expect((await screen.findByTestId('sync-status')).textContent).toBe('Boards: 1 board read · Tickets: 1 ticket copied');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(90_000);
    });
    expect(statusCalls()).toBe(2);
  });
  it('says in plain words how far a failed sync got, and shows its error', async () => {
    stubApi([{ parentRunId: RUN, boardIds: [1], startDate: '2025-01-01', endDate: '2025-01-31', psaRequests: 2, phase1: { ...phase('FAILED'), error: 'The PSA refused the board list.' } }]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await startSyncOfJanuary();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_500);
    });
    expect((await screen.findByTestId('sync-status')).textContent).toBe('Boards: stopped after 1 board · Tickets: not copied');
    expect((await screen.findByRole('alert')).textContent).toBe('The PSA refused the board list.');
  });
});
