import type { TTicketingConfiguration } from '@switchboard/contracts';

/**
 * The ticket draft of 02 §3 as the ticket form edits it, and the rules of 02 §4 "Dependent fields"
 * over the MSP's own board configuration (ConnectWise boards or Autotask queues, one shape here).
 */

export const IMPACT_LEVELS = ['Low', 'Medium', 'High'] as const;
export type TImpactLevel = (typeof IMPACT_LEVELS)[number];

/** 02 §9 / R-274: severity and impact are Low, Medium, High; the score is the level's rank. */
export const LEVEL_SCORE: Record<TImpactLevel, number> = { Low: 1, Medium: 2, High: 3 };

/** 01 §9 / R-275: duration options in minutes. */
export const DURATION_OPTIONS = [
  { label: '15 Minutes', minutes: 15 },
  { label: '30 Minutes', minutes: 30 },
  { label: '45 Minutes', minutes: 45 },
  { label: '1 Hour', minutes: 60 },
  { label: '1 Hour 30 Minutes', minutes: 90 },
  { label: '2 Hours 30 Minutes', minutes: 150 },
  { label: '3 Hours 30 Minutes', minutes: 210 },
  { label: '4 Hours', minutes: 240 },
] as const;

export type TCatalogueSubcategory = {
  id: number;
  name: string;
  priorityId: number | null;
  priorityLabel: string | null;
  priorityScore: number;
  subTypeScore: number;
  tier: 'Tier1' | 'Tier2' | 'Tier3';
  slaHours: number;
};
export type TCatalogueCategory = { id: number; name: string; subcategories: TCatalogueSubcategory[] };
export type TCatalogueBoard = {
  id: number;
  name: string;
  categories: TCatalogueCategory[];
  priorities: Array<{ id: number; label: string; score: number }>;
  /** Autotask: the queue's ticket type. */
  ticketType: { id: number; label: string } | null;
};
export type TBoardCatalogue = { psaType: 'CONNECTWISE' | 'AUTOTASK' | null; boards: TCatalogueBoard[] };

/** One catalogue over both PSA kinds, from A-011's answer. */
export function boardCatalogueOf(configuration: TTicketingConfiguration): TBoardCatalogue {
  if (configuration.autotaskConfigV2) {
    return {
      psaType: configuration.psaType,
      boards: configuration.autotaskConfigV2.ticketQueueDetails.map((queue) => ({
        id: queue.queueId,
        name: queue.queueName,
        ticketType: queue.ticketTypeId !== null && queue.ticketTypeLabel !== null ? { id: queue.ticketTypeId, label: queue.ticketTypeLabel } : null,
        priorities: queue.priorities.map((priority) => ({ id: priority.priorityId, label: priority.priority, score: priority.priorityScore })),
        categories: queue.issueTypes.map((issueType) => ({
          id: issueType.value,
          name: issueType.label,
          subcategories: issueType.subIssueTypes.map((sub) => ({
            id: sub.value,
            name: sub.label,
            priorityId: sub.priorityValue,
            priorityLabel: sub.priorityLabel,
            priorityScore: sub.priorityScore,
            subTypeScore: sub.subTypeScore,
            tier: sub.tier,
            slaHours: sub.slaDeadlineInHours,
          })),
        })),
      })),
    };
  }
  return {
    psaType: configuration.psaType,
    boards: (configuration.connectWiseConfig?.boardDetails ?? []).map((board) => ({
      id: board.boardId,
      name: board.boardName,
      ticketType: null,
      priorities: board.priorities.map((priority) => ({ id: priority.priorityId, label: priority.priority, score: priority.priorityScore })),
      categories: board.mspConnectWiseBoardTypes.map((type) => ({
        id: type.typeId,
        name: type.typeName,
        subcategories: type.mspConnectWiseBoardSubTypes.map((sub) => ({
          id: sub.subTypeId,
          name: sub.subTypeName,
          priorityId: sub.priorityId,
          priorityLabel: sub.priority,
          priorityScore: sub.priorityScore,
          subTypeScore: sub.subTypeScore,
          tier: sub.tier,
          slaHours: sub.slaDeadLineInHours,
        })),
      })),
    })),
  };
}

export type TOnboardingFields = { firstName: string; lastName: string; email: string; ownerEmail: string; phone: string; licence: string };

export type TTicketDraft = {
  title: string;
  description: string;
  name: string;
  email: string;
  phone: string;
  companyId: string | null;
  contactId: string | null;
  boardId: number | null;
  categoryId: number | null;
  subcategoryId: number | null;
  priorityId: number | null;
  priorityLabel: string | null;
  priorityScore: number | null;
  tier: 'Tier1' | 'Tier2' | 'Tier3' | null;
  slaHours: number | null;
  subTypeScore: number | null;
  impact: TImpactLevel;
  severity: TImpactLevel;
  /** Autotask ticket type of the queue. */
  ticketTypeId: number | null;
  /** ConnectWise item; chosen by the technician, cleared with the board. */
  itemId: number | null;
  durationMinutes: number | null;
  onboarding: TOnboardingFields;
};

/** 02 §9: the licence of a new employee defaults to E3. */
export const DEFAULT_LICENCE = 'E3';

export function emptyDraft(person?: { name: string; email: string; phone: string; companyId: string | null; contactId: string | null }): TTicketDraft {
  return {
    title: '',
    description: '',
    name: person?.name ?? '',
    email: person?.email ?? '',
    phone: person?.phone ?? '',
    companyId: person?.companyId ?? null,
    contactId: person?.contactId ?? null,
    boardId: null,
    categoryId: null,
    subcategoryId: null,
    priorityId: null,
    priorityLabel: null,
    priorityScore: null,
    tier: null,
    slaHours: null,
    subTypeScore: null,
    impact: 'Medium',
    severity: 'Medium',
    ticketTypeId: null,
    itemId: null,
    durationMinutes: null,
    onboarding: { firstName: '', lastName: '', email: '', ownerEmail: '', phone: '', licence: DEFAULT_LICENCE },
  };
}

const CLEARED_BELOW_SUBCATEGORY = {
  priorityId: null,
  priorityLabel: null,
  priorityScore: null,
  tier: null,
  slaHours: null,
  subTypeScore: null,
  durationMinutes: null,
} as const;

export function findBoard(catalogue: TBoardCatalogue, boardId: number | null): TCatalogueBoard | undefined {
  return catalogue.boards.find((board) => board.id === boardId);
}
export function findCategory(catalogue: TBoardCatalogue, draft: Pick<TTicketDraft, 'boardId' | 'categoryId'>): TCatalogueCategory | undefined {
  return findBoard(catalogue, draft.boardId)?.categories.find((category) => category.id === draft.categoryId);
}
export function findSubcategory(catalogue: TBoardCatalogue, draft: Pick<TTicketDraft, 'boardId' | 'categoryId' | 'subcategoryId'>): TCatalogueSubcategory | undefined {
  return findCategory(catalogue, draft)?.subcategories.find((sub) => sub.id === draft.subcategoryId);
}

/** a new board/queue clears category, subcategory, priority, tier, duration, type and item. */
export function chooseBoard(catalogue: TBoardCatalogue, draft: TTicketDraft, boardId: number | null): TTicketDraft {
  const board = findBoard(catalogue, boardId);
  return { ...draft, ...CLEARED_BELOW_SUBCATEGORY, boardId: board?.id ?? null, categoryId: null, subcategoryId: null, itemId: null, ticketTypeId: board?.ticketType?.id ?? null };
}

/** a new category clears the subcategory and every field below it. */
export function chooseCategory(draft: TTicketDraft, categoryId: number | null): TTicketDraft {
  return { ...draft, ...CLEARED_BELOW_SUBCATEGORY, categoryId, subcategoryId: null };
}

/** a subcategory fills priority, tier and SLA duration from the configuration. */
export function chooseSubcategory(catalogue: TBoardCatalogue, draft: TTicketDraft, subcategoryId: number | null): TTicketDraft {
  const sub = findSubcategory(catalogue, { ...draft, subcategoryId });
  if (!sub) return { ...draft, ...CLEARED_BELOW_SUBCATEGORY, subcategoryId: null };
  return {
    ...draft,
    subcategoryId: sub.id,
    priorityId: sub.priorityId,
    priorityLabel: sub.priorityLabel,
    priorityScore: sub.priorityScore,
    tier: sub.tier,
    slaHours: sub.slaHours,
    subTypeScore: sub.subTypeScore,
  };
}

/** A proposal (board, category, subcategory ids) applied through the same rules, so an id the board lacks is dropped, never kept. */
export function applyProposal(catalogue: TBoardCatalogue, draft: TTicketDraft, proposal: { boardId: number | null; categoryId: number | null; subcategoryId: number | null }): TTicketDraft {
  const withBoard = chooseBoard(catalogue, draft, proposal.boardId);
  const category = findBoard(catalogue, withBoard.boardId)?.categories.find((candidate) => candidate.id === proposal.categoryId);
  const withCategory = chooseCategory(withBoard, category?.id ?? null);
  return category ? chooseSubcategory(catalogue, withCategory, proposal.subcategoryId) : withCategory;
}

/** 02 §4 / R-277: type "training/onboarding" with subtype "new employee onboarding" (names compared loosely). */
export function isOnboardingDraft(catalogue: TBoardCatalogue, draft: TTicketDraft): boolean {
  const category = findCategory(catalogue, draft);
  const sub = findSubcategory(catalogue, draft);
  if (!category || !sub) return false;
  const plain = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
  return /training|onboarding/.test(plain(category.name)) && plain(sub.name).includes('newemployeeonboarding');
}

/** 01 §5 ticket form messages. */
export const TICKET_FORM_MESSAGES = {
  title: 'Ticket Title is required',
  description: 'Description is required',
  name: 'Valid Name is required',
  email: 'Valid Email is required',
  phone: 'Phone number must be 9 or 10 digits',
  company: 'Company selection is required',
  board: 'Board selection is required',
  category: 'Category selection is required',
  subcategory: 'SubCategory selection is required',
} as const;

export type TTicketFormErrors = Partial<Record<keyof typeof TICKET_FORM_MESSAGES, string>>;

const EMAIL_PATTERN = /^[\w-]+(\.[\w-]+)*@([\w-]+\.)+[a-zA-Z]{2,7}$/;

/**
 * 02 §5 "Ticket confirmation is validated by the user's role": both roles need every field of the
 * ticket form; only the technician chooses the company. A client's contact is themselves.
 */
export function validateDraft(draft: TTicketDraft, userKind: 'technician' | 'client'): TTicketFormErrors {
  const errors: TTicketFormErrors = {};
  if (draft.title.trim() === '') errors.title = TICKET_FORM_MESSAGES.title;
  if (draft.description.trim() === '') errors.description = TICKET_FORM_MESSAGES.description;
  if (draft.name.trim() === '') errors.name = TICKET_FORM_MESSAGES.name;
  if (!EMAIL_PATTERN.test(draft.email.trim())) errors.email = TICKET_FORM_MESSAGES.email;
  const digits = draft.phone.replace(/\D/g, '').length;
  if (digits !== 9 && digits !== 10) errors.phone = TICKET_FORM_MESSAGES.phone;
  if (userKind === 'technician' && (draft.companyId === null || draft.contactId === null)) errors.company = TICKET_FORM_MESSAGES.company;
  if (draft.boardId === null) errors.board = TICKET_FORM_MESSAGES.board;
  if (draft.categoryId === null) errors.category = TICKET_FORM_MESSAGES.category;
  if (draft.subcategoryId === null) errors.subcategory = TICKET_FORM_MESSAGES.subcategory;
  return errors;
}
