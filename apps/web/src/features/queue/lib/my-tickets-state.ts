/**
 * The "My Ticket" list's selection rules (02 §4), kept pure so they are tested without a screen.
 * The list holds the tickets "next" claimed for this technician; one of them is active.
 */
export type TMyTicketsState<TTicket extends { id: string }> = { tickets: TTicket[]; activeIndex: number };

/** previous/next and direct switches stay inside the list; an out-of-range index is ignored. */
export function selectIndex<TTicket extends { id: string }>(state: TMyTicketsState<TTicket>, index: number): TMyTicketsState<TTicket> {
  if (!Number.isInteger(index) || index < 0 || index >= state.tickets.length) return state;
  return { ...state, activeIndex: index };
}

/**
 * after completing the ticket at `removedIndex` the selection moves to the neighbour: a
 * removal before the active ticket moves the index down by one; removing the active ticket keeps
 * the same index, capped at the new last one.
 */
export function afterComplete<TTicket extends { id: string }>(state: TMyTicketsState<TTicket>, ticketId: string): TMyTicketsState<TTicket> {
  const removedIndex = state.tickets.findIndex((ticket) => ticket.id === ticketId);
  if (removedIndex === -1) return state;
  const tickets = state.tickets.filter((ticket) => ticket.id !== ticketId);
  if (tickets.length === 0) return { tickets, activeIndex: 0 };
  const activeIndex = removedIndex < state.activeIndex ? state.activeIndex - 1 : Math.min(state.activeIndex, tickets.length - 1);
  return { tickets, activeIndex };
}

/** after a requeue the same index stays selected, or the last ticket when the index is now past the end. */
export function afterRequeue<TTicket extends { id: string }>(state: TMyTicketsState<TTicket>, ticketId: string): TMyTicketsState<TTicket> {
  const tickets = state.tickets.filter((ticket) => ticket.id !== ticketId);
  if (tickets.length === state.tickets.length) return state;
  return { tickets, activeIndex: Math.max(0, Math.min(state.activeIndex, tickets.length - 1)) };
}

/** a page number kept between 1 and ceil(count / pageSize). */
export function clampPage(page: number, count: number, pageSize: number): number {
  const last = Math.max(1, Math.ceil(count / pageSize));
  return Math.min(Math.max(1, Math.trunc(page)), last);
}
