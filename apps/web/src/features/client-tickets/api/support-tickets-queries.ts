import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TClientTicketSort, TSupportTicketPage } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { ALL_FILTERS, ticketFilterQuery, type TTicketFilters } from '../../queue/queue-types';

/** What the client's All Tickets is narrowed and sorted by (02 §3 Filters, R-285): the technician's filters, words, the sort. */
export type TClientTicketsFilter = { filters: TTicketFilters; search: string; sort: TClientTicketSort };
export const NO_CLIENT_TICKETS_FILTER: TClientTicketsFilter = { filters: ALL_FILTERS, search: '', sort: 'newest' };

export const supportTicketKeys = {
  all: ['support-tickets'] as const,
  ofClient: (clientsUserId: string, page: number, filter: TClientTicketsFilter = NO_CLIENT_TICKETS_FILTER) => [...supportTicketKeys.all, 'client', clientsUserId, page, filter] as const,
};

const PENDING_POLL_MS = 15_000;
const OPEN_POLL_MS = 60_000;

/**
 * How often the client's list is read again: soon while a ticket is still pending in the PSA, every minute while
 * one is open there (its status and progress move in the PSA; review s25 #6), never when all are closed or refused.
 * A first read that failed has no tickets to go by: it is tried again every minute until it works (review s26 #3).
 */
export function clientTicketsRefetchInterval(page: TSupportTicketPage | undefined, hasFailed = false): number | false {
  if (!page) return hasFailed ? OPEN_POLL_MS : false;
  const tickets = page.tickets;
  if (tickets.some((ticket) => ticket.psaWriteState === 'pending')) return PENDING_POLL_MS;
  return tickets.some((ticket) => !ticket.isClosed && ticket.psaWriteState === 'done') ? OPEN_POLL_MS : false;
}

/**
 * the client's own tickets, newest first unless sorted otherwise, filtered, 30 a page, with their
 * progress and whether the PSA has them yet. Polled while one is pending or open, and read again when the window
 * gets the focus back (the app turns that off elsewhere).
 */
export function useClientTickets(clientsUserId: string, page: number, filter: TClientTicketsFilter = NO_CLIENT_TICKETS_FILTER) {
  return useQuery({
    queryKey: supportTicketKeys.ofClient(clientsUserId, page, filter),
    queryFn: ({ signal }) =>
      apiFetch('/db/supportTickets/byClientsUserId', {
        query: {
          clientsUserId,
          page,
          ...ticketFilterQuery(filter.filters, filter.search),
          sort: filter.sort,
        },
        schema: (s) => s.ZSupportTicketPage,
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => clientTicketsRefetchInterval(query.state.data, query.state.status === 'error'),
  });
}
