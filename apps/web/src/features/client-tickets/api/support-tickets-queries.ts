import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const supportTicketKeys = {
  all: ['support-tickets'] as const,
  ofClient: (clientsUserId: string, page: number) => [...supportTicketKeys.all, 'client', clientsUserId, page] as const,
};

/**
 * the client's own tickets, newest first, 30 a page, with their progress and
 * whether the PSA has them yet. Polled while one is still pending in the PSA.
 */
export function useClientTickets(clientsUserId: string, page: number) {
  return useQuery({
    queryKey: supportTicketKeys.ofClient(clientsUserId, page),
    queryFn: ({ signal }) => apiFetch('/db/supportTickets/byClientsUserId', { query: { clientsUserId, page }, schema: (s) => s.ZSupportTicketPage, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.tickets.some((ticket) => ticket.psaWriteState === 'pending') ? 15_000 : false),
  });
}
