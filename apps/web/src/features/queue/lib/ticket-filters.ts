import type { TQueueTicketView, TTicketFilters } from '../queue-types';

export type TSortMode = 'newest' | 'oldest';
export const SORT_LABELS: Record<TSortMode, string> = { newest: 'Newest', oldest: 'Oldest' };

const FILTER_FIELDS: Record<keyof TTicketFilters, (ticket: TQueueTicketView) => string | null> = {
  board: (ticket) => ticket.boardName,
  type: (ticket) => ticket.categoryName,
  subtype: (ticket) => ticket.subCategoryName,
  priority: (ticket) => ticket.priority,
};

/** The values a filter can take: those the tickets have, sorted, so no choice leads to an empty list by construction. */
export function filterOptions(tickets: readonly TQueueTicketView[], field: keyof TTicketFilters, filters: TTicketFilters): string[] {
  // A type list narrows to the chosen board, a subtype list to the chosen type.
  const scoped = tickets.filter((ticket) => {
    if (field !== 'board' && filters.board !== 'all' && ticket.boardName !== filters.board) return false;
    if (field === 'subtype' && filters.type !== 'all' && ticket.categoryName !== filters.type) return false;
    return true;
  });
  const values = new Set<string>();
  for (const ticket of scoped) {
    const value = FILTER_FIELDS[field](ticket);
    if (value !== null && value !== '') values.add(value);
  }
  return [...values].sort((a, b) => a.localeCompare(b));
}

/** Applies the four filters, the search text and the sort. */
export function applyTicketFilters(tickets: readonly TQueueTicketView[], filters: TTicketFilters, search: string, sort: TSortMode): TQueueTicketView[] {
  const needle = search.trim().toLowerCase();
  const kept = tickets.filter((ticket) => {
    for (const field of Object.keys(FILTER_FIELDS) as Array<keyof TTicketFilters>) {
      if (filters[field] !== 'all' && FILTER_FIELDS[field](ticket) !== filters[field]) return false;
    }
    if (needle === '') return true;
    return [ticket.ticketId, ticket.title, ticket.description, ticket.companyName, ticket.contactName].some((value) => value !== null && value.toLowerCase().includes(needle));
  });
  const time = (ticket: TQueueTicketView) => (ticket.createdAt === null ? 0 : Date.parse(ticket.createdAt) || 0);
  return kept.sort((a, b) => (sort === 'newest' ? time(b) - time(a) : time(a) - time(b)));
}

/** Setting one filter clears the ones below it: a subtype belongs to a type, a type to a board. */
export function setFilter(filters: TTicketFilters, field: keyof TTicketFilters, value: string): TTicketFilters {
  if (field === 'board') return { ...filters, board: value, type: 'all', subtype: 'all' };
  if (field === 'type') return { ...filters, type: value, subtype: 'all' };
  return { ...filters, [field]: value };
}
