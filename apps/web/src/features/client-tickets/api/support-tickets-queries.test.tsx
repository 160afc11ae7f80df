import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, focusManager } from '@tanstack/react-query';
import type { TSupportTicket, TSupportTicketPage } from '@switchboard/contracts';
import { useClientTickets } from './support-tickets-queries';

const CLIENT_ID = '5f1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11';

function ticket(overrides: Partial<TSupportTicket> = {}): TSupportTicket {
  return {
    id: 't1', ticketId: 4711, ticketNumber: '4711', title: 'Outlook asks for my password', description: null, boardId: 1, boardName: 'Service Desk',
    categoryId: null, categoryName: null, subCategoryId: null, subCategoryName: null, priority: null, priorityId: null, status: 'New',
    companyId: null, companyName: null, contactId: null, contactName: null, ownerName: null, isClosed: false, createdAt: null,
    psaWriteState: 'done', progress: { ticketCreated: 'done', ticketAssigned: 'pending', ticketClosed: 'pending' },
    ...overrides,
  };
}

function serve(tickets: TSupportTicket[]) {
  const page: TSupportTicketPage = { tickets, page: 1, pageSize: 30, total: tickets.length };
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The app's defaults that matter here: no refetch on focus, no retry; data stale at once so focus alone decides. */
function renderTickets() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => useClientTickets(CLIENT_ID, 1), { wrapper });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  focusManager.setFocused(undefined);
});

// Regression (review s25 #6): a client's ticket status never refreshed while the screen stayed open.
describe("a client's ticket list refreshes while a ticket is open", () => {
  it('when the window gets the focus back', async () => {
    const fetchMock = serve([ticket()]);
    const { result } = renderTickets();
    await waitFor(() => expect(result.current.data?.tickets).toHaveLength(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('every minute while one is open, and not at all once all are closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = serve([ticket(), ticket({ id: 't2', isClosed: true, status: 'Closed' })]);
    const { result, unmount } = renderTickets();
    await waitFor(() => expect(result.current.data?.tickets).toHaveLength(2));
    await act(async () => vi.advanceTimersByTimeAsync(61_000));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    unmount();

    const closedOnly = serve([ticket({ isClosed: true, status: 'Closed' })]);
    const closed = renderTickets();
    await waitFor(() => expect(closed.result.current.data?.tickets).toHaveLength(1));
    await act(async () => vi.advanceTimersByTimeAsync(121_000));
    expect(closedOnly).toHaveBeenCalledTimes(1);
  });
});

// Regression (review s26 #3): after a failed first read the list had no tickets to decide by, so it was never read again.
describe("a client's ticket list whose first read failed", () => {
  it('is read again a minute later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const page: TSupportTicketPage = { tickets: [ticket()], page: 1, pageSize: 30, total: 1 };
    const unavailable = { status: 503, title: 'Service Unavailable', detail: 'The service is unavailable. Try again in a moment.', code: 'unavailable', requestId: 'r' };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify(unavailable), { status: 503, headers: { 'content-type': 'application/problem+json' } }))
      .mockImplementation(async () => new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderTickets();
    await waitFor(() => expect(result.current.isError).toBe(true));
    await act(async () => vi.advanceTimersByTimeAsync(61_000));
    await waitFor(() => expect(result.current.data?.tickets).toHaveLength(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
