/**
 * What the queue screens show, in the spec's field names (R-291 queue ticket, R-302 timer
 * session). The API hooks map the server's answers onto these, so the screens do not change
 * when an answer gains a field.
 */
export type TNoteCategory = 'Description' | 'Internal' | 'Resolution';
export const NOTE_CATEGORIES: readonly TNoteCategory[] = ['Description', 'Internal', 'Resolution'];

/** A PSA write the outbox has not landed yet (common rules: "pending in the PSA"). */
export type TPendingPsaWrite = { kind: string; status: 'pending' | 'failed' };

export type TQueueTicketView = {
  /** The queue entry (ticket copy) id the queue calls take. */
  id: string;
  /** The PSA's ticket number. */
  ticketId: string;
  title: string;
  description: string | null;
  boardId: string | null;
  boardName: string | null;
  categoryId: string | null;
  categoryName: string | null;
  subCategoryId: string | null;
  subCategoryName: string | null;
  priority: string | null;
  priorityId: string | null;
  impact: string | null;
  severity: string | null;
  tier: string | null;
  status: string | null;
  statusId: string | null;
  companyName: string | null;
  contactName: string | null;
  createdAt: string | null;
  slaDueAt: string | null;
  completed: boolean;
  closed: boolean;
  assigneeName: string | null;
  pendingPsaWrites: TPendingPsaWrite[];
};

export type TWorkSession = { startTime: string; endTime: string | null };
export type TTicketActivity = { sessions: TWorkSession[]; totalWorkMinutes: number; isActive: boolean };

export type TTicketNote = { id: string; text: string; category: TNoteCategory | null; createdBy: string | null; createdAt: string | null; isPending: boolean };

export type TTicketFilters = { board: string; type: string; subtype: string; priority: string };
export const ALL_FILTERS: TTicketFilters = { board: 'all', type: 'all', subtype: 'all', priority: 'all' };
export const FILTER_ALL_LABELS: Record<keyof TTicketFilters, string> = {
  board: 'All Boards',
  type: 'All Types',
  subtype: 'All Subtypes',
  priority: 'All Priorities',
};

/** Queue tier options (R-292; decisions #9: NoTier reads "No Dispatching"). */
export const REQUEUE_TIER_OPTIONS = [
  { value: 'Tier1', label: 'Tier1' },
  { value: 'Tier2', label: 'Tier2' },
  { value: 'Tier3', label: 'Tier3' },
  { value: 'NoTier', label: 'No Dispatching' },
] as const;

export type TTicketMode = 'my' | 'all' | 'knowledge' | 'dashboards';
export const TICKET_MODE_LABELS: Record<TTicketMode, string> = {
  my: 'My Ticket',
  all: 'All Tickets',
  knowledge: 'Knowledge Base',
  dashboards: 'Dashboards',
};

export type TActivityRow = { technicianId: string; technicianName: string; workedMinutes: number; ticketsCompleted: number; slaMet: number; slaMissed: number };
