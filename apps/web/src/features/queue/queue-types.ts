import type { TQueueNote, TQueueTicket, TTimerSession } from '@switchboard/contracts';

/** The queue screens show the server's queue tickets, notes and sessions as they come (contracts/schemas/queue.ts). */
export type TQueueTicketView = TQueueTicket;
export type TTicketNote = TQueueNote;
export type TWorkSession = TTimerSession;

export type TNoteCategory = 'Description' | 'Internal' | 'Resolution';
export const NOTE_CATEGORIES: readonly TNoteCategory[] = ['Description', 'Internal', 'Resolution'];
/** A note being written on one ticket, kept while the technician works another. */
export type TNoteDraft = { text: string; category: TNoteCategory };
export const NOTE_KIND_LABELS: Record<TQueueNote['kind'], TNoteCategory> = { description: 'Description', internal: 'Internal', resolution: 'Resolution' };

export type TTicketFilters = { board: string; type: string; subtype: string; priority: string };
export const ALL_FILTERS: TTicketFilters = { board: 'all', type: 'all', subtype: 'all', priority: 'all' };

/** The filters and search as the ticket list calls take them: "all" and an empty search are left out. */
export function ticketFilterQuery(filters: TTicketFilters, search: string) {
  const idOrUndefined = (value: string) => (value === 'all' ? undefined : value);
  return {
    boardId: idOrUndefined(filters.board),
    categoryId: idOrUndefined(filters.type),
    subCategoryId: idOrUndefined(filters.subtype),
    priorityId: idOrUndefined(filters.priority),
    search: search === '' ? undefined : search,
  };
}
export const FILTER_ALL_LABELS: Record<keyof TTicketFilters, string> = {
  board: 'All Boards',
  type: 'All Types',
  subtype: 'All Subtypes',
  priority: 'All Priorities',
};

export type TTicketMode = 'my' | 'all' | 'knowledge' | 'dashboards' | 'dispatch';
export const TICKET_MODE_LABELS: Record<TTicketMode, string> = {
  my: 'My Ticket',
  all: 'All Tickets',
  knowledge: 'Knowledge Base',
  dashboards: 'Dashboards',
  dispatch: 'Dispatch',
};

