import { DEFAULT_LICENCE, SEVERITY_SCORES, isOnboardingCategory, ticketDraftProblems } from '@switchboard/contracts';
import type { TCreateTicketBody, TSeverityLevel, TTicketDraft, TTicketingConfiguration } from '@switchboard/contracts';

/**
 * The ticket draft of 02 §3 as the ticket form edits it, and the rules of 02 §4 "Dependent fields"
 * over the MSP's own board configuration (ConnectWise boards or Autotask queues, one shape here).
 */

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

export type TTicketForm = {
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
  impact: TSeverityLevel;
  severity: TSeverityLevel;
  /** Autotask ticket type of the queue. */
  ticketTypeId: number | null;
  /** ConnectWise item; chosen by the technician, cleared with the board. */
  itemId: number | null;
  durationMinutes: number | null;
  onboarding: TOnboardingFields;
};

export function emptyDraft(person?: { name: string; email: string; phone: string; companyId: string | null; contactId: string | null }): TTicketForm {
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
export function findCategory(catalogue: TBoardCatalogue, draft: Pick<TTicketForm, 'boardId' | 'categoryId'>): TCatalogueCategory | undefined {
  return findBoard(catalogue, draft.boardId)?.categories.find((category) => category.id === draft.categoryId);
}
export function findSubcategory(catalogue: TBoardCatalogue, draft: Pick<TTicketForm, 'boardId' | 'categoryId' | 'subcategoryId'>): TCatalogueSubcategory | undefined {
  return findCategory(catalogue, draft)?.subcategories.find((sub) => sub.id === draft.subcategoryId);
}

/** a new board/queue clears category, subcategory, priority, tier, duration, type and item. */
export function chooseBoard(catalogue: TBoardCatalogue, draft: TTicketForm, boardId: number | null): TTicketForm {
  const board = findBoard(catalogue, boardId);
  return { ...draft, ...CLEARED_BELOW_SUBCATEGORY, boardId: board?.id ?? null, categoryId: null, subcategoryId: null, itemId: null, ticketTypeId: board?.ticketType?.id ?? null };
}

/** a new category clears the subcategory and every field below it. */
export function chooseCategory(draft: TTicketForm, categoryId: number | null): TTicketForm {
  return { ...draft, ...CLEARED_BELOW_SUBCATEGORY, categoryId, subcategoryId: null };
}

/** a subcategory fills priority, tier and SLA duration from the configuration. */
export function chooseSubcategory(catalogue: TBoardCatalogue, draft: TTicketForm, subcategoryId: number | null): TTicketForm {
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
    // The new subcategory's SLA applies: a duration chosen for the old one does not carry over.
    durationMinutes: null,
  };
}

/** A proposal (board, category, subcategory ids) applied through the same rules, so an id the board lacks is dropped, never kept. */
export function applyProposal(catalogue: TBoardCatalogue, draft: TTicketForm, proposal: { boardId: number | null; categoryId: number | null; subcategoryId: number | null }): TTicketForm {
  const withBoard = chooseBoard(catalogue, draft, proposal.boardId);
  const category = findBoard(catalogue, withBoard.boardId)?.categories.find((candidate) => candidate.id === proposal.categoryId);
  const withCategory = chooseCategory(withBoard, category?.id ?? null);
  return category ? chooseSubcategory(catalogue, withCategory, proposal.subcategoryId) : withCategory;
}

/** A guess below this share of the engine's confidence is noise, not a choice worth a button. */
const GUESS_MIN_CONFIDENCE = 0.05;
const GUESS_COUNT = 3;

/**
 * When the engine is not sure, its likeliest candidates that exist on the MSP's boards (at most three, best first), each
 * with the ids `applyProposal` takes and the "Category / Subcategory" label a person reads.
 */
export function bestGuesses(
  catalogue: TBoardCatalogue,
  candidates: readonly { boardId?: number | undefined; typeId: number; subTypeId: number; confidence: number }[],
): { boardId: number; categoryId: number; subcategoryId: number; label: string }[] {
  const guesses: { boardId: number; categoryId: number; subcategoryId: number; label: string }[] = [];
  for (const candidate of candidates) {
    if (guesses.length >= GUESS_COUNT || candidate.confidence < GUESS_MIN_CONFIDENCE) break;
    const boardId = candidate.boardId ?? (catalogue.boards.length === 1 ? catalogue.boards[0]?.id : undefined);
    const category = findBoard(catalogue, boardId ?? null)?.categories.find((found) => found.id === candidate.typeId);
    const subcategory = category?.subcategories.find((found) => found.id === candidate.subTypeId);
    if (boardId === undefined || !category || !subcategory) continue;
    guesses.push({ boardId, categoryId: category.id, subcategoryId: subcategory.id, label: `${category.name} / ${subcategory.name}` });
  }
  return guesses;
}

/** Each source once: an article's passages ("Title — Steps", "Title — Symptoms") are one article to the reader. */
export function basedOn(sources: readonly { title: string; reference: string | null }[]): string[] {
  return [...new Set(sources.map((source) => source.reference ?? source.title.split(' — ')[0] ?? source.title))];
}

/** 02 §4 / R-277: type "training/onboarding" with subtype "new employee onboarding". */
export function isOnboardingDraft(catalogue: TBoardCatalogue, draft: TTicketForm): boolean {
  return isOnboardingCategory(findCategory(catalogue, draft)?.name, findSubcategory(catalogue, draft)?.name);
}

/** Which form field shows each problem the shared check finds (01 §5; ). */
const FIELD_OF_PROBLEM: Record<string, keyof TTicketFormErrors> = {
  title: 'title',
  description: 'description',
  name: 'name',
  emailId: 'email',
  phone: 'phone',
  psaCompanyId: 'company',
  boardId: 'board',
  typeId: 'category',
  subTypeId: 'subcategory',
};

export type TTicketFormErrors = Partial<Record<'title' | 'description' | 'name' | 'email' | 'phone' | 'company' | 'board' | 'category' | 'subcategory', string>>;

/**
 * 02 §5 "Ticket confirmation is validated by the user's role", with the same rules the server
 * applies (ticketDraftProblems): only the technician chooses the company.
 */
export function validateDraft(draft: TTicketForm, userKind: 'technician' | 'client'): TTicketFormErrors {
  const problems = ticketDraftProblems(
    {
      title: draft.title,
      description: draft.description,
      name: draft.name,
      emailId: draft.email,
      phone: draft.phone,
      psaCompanyId: draft.companyId,
      boardId: draft.boardId,
      typeId: draft.categoryId,
      subTypeId: draft.subcategoryId,
    },
    userKind,
  );
  const errors: TTicketFormErrors = {};
  for (const problem of problems) {
    const field = FIELD_OF_PROBLEM[problem.name];
    if (field) errors[field] = problem.reason;
  }
  return errors;
}

/** The server's draft as the editable form: the proposal goes through the dependent-field rules. */
export function formFromDraft(catalogue: TBoardCatalogue, draft: TTicketDraft): TTicketForm {
  const base: TTicketForm = {
    ...emptyDraft({ name: draft.name, email: draft.emailId, phone: draft.phone, companyId: draft.psaCompanyId, contactId: draft.psaContactId }),
    title: draft.title,
    description: draft.description,
    impact: draft.impact,
    severity: draft.severity,
  };
  const { connectWiseDetails: cw, autotaskDetails: at } = draft.categorisation;
  const proposal = cw
    ? { boardId: cw.boardId, categoryId: cw.typeId, subcategoryId: cw.subTypeId }
    : at
      ? { boardId: at.queueId, categoryId: at.issueTypeValue, subcategoryId: at.subIssueTypeValue }
      : // Not sure of the category: an MSP with a single board still has only one board to choose.
        { boardId: catalogue.boards.length === 1 ? (catalogue.boards[0]?.id ?? null) : null, categoryId: null, subcategoryId: null };
  const form = applyProposal(catalogue, base, proposal);
  const onboarding = draft.onboarding;
  return onboarding
    ? { ...form, onboarding: { firstName: onboarding.newFirstName, lastName: onboarding.newLastName, email: onboarding.newEmail, ownerEmail: onboarding.ownerEmail, phone: onboarding.newPhone, licence: onboarding.licence } }
    : form;
}

/** A-109's body from the form: every field of the ticket draft (02 §3), ConnectWise or Autotask details. */
export function createTicketBody(
  catalogue: TBoardCatalogue,
  form: TTicketForm,
  context: { ticketDraftId: string | null; userKind: 'technician' | 'client'; userId: string },
): TCreateTicketBody {
  const board = findBoard(catalogue, form.boardId);
  const category = findCategory(catalogue, form);
  const sub = findSubcategory(catalogue, form);
  const isAutotask = catalogue.psaType === 'AUTOTASK';
  const isOnboarding = isOnboardingDraft(catalogue, form);
  return {
    psaType: catalogue.psaType ?? undefined,
    ticketDraftId: context.ticketDraftId ?? undefined,
    title: form.title,
    description: form.description,
    name: form.name,
    emailId: form.email,
    phone: form.phone,
    impact: form.impact,
    impactScore: SEVERITY_SCORES[form.impact],
    severity: form.severity,
    severityScore: SEVERITY_SCORES[form.severity],
    ...(context.userKind === 'technician' ? { techId: context.userId, psaCompanyId: form.companyId, psaContactId: form.contactId } : { userId: context.userId }),
    durationHours: form.durationMinutes !== null ? form.durationMinutes / 60 : form.slaHours,
    ...(isAutotask
      ? {
          autotaskDetails: {
            queueId: board?.id ?? null,
            queueName: board?.name ?? '',
            issueTypeValue: category?.id ?? null,
            issueTypeLabel: category?.name ?? '',
            subIssueTypeValue: sub?.id ?? null,
            subIssueTypeLabel: sub?.name ?? '',
            priorityValue: form.priorityId,
            priorityLabel: form.priorityLabel,
            priorityScore: form.priorityScore,
            ticketTypeValue: board?.ticketType?.id ?? null,
            ticketTypeLabel: board?.ticketType?.label ?? null,
            tier: form.tier,
            subTypeScore: form.subTypeScore,
          },
        }
      : {
          connectWiseDetails: {
            boardId: board?.id ?? null,
            boardName: board?.name ?? '',
            typeId: category?.id ?? null,
            typeName: category?.name ?? '',
            subTypeId: sub?.id ?? null,
            subTypeName: sub?.name ?? '',
            priority: form.priorityLabel,
            priorityId: form.priorityId,
            priorityScore: form.priorityScore,
            tier: form.tier,
            subTypeScore: form.subTypeScore,
            itemId: null,
            itemName: null,
          },
        }),
    onboarding: isOnboarding
      ? { newFirstName: form.onboarding.firstName, newLastName: form.onboarding.lastName, newEmail: form.onboarding.email, ownerEmail: form.onboarding.ownerEmail, newPhone: form.onboarding.phone, licence: form.onboarding.licence }
      : null,
  };
}

const PERSON_FIELDS = ['title', 'description', 'name', 'email', 'phone', 'impact', 'severity', 'durationMinutes'] as const;
const CATEGORY_FIELDS = ['boardId', 'categoryId', 'subcategoryId'] as const;

/**
 * A later A-108 round's draft over the form the person has been editing: what they changed since the
 * previous round's draft was shown (`previous`, as `formFromDraft` drew it) stays; the rest follows
 * `next`. A board, category or subcategory the person picked (a guess, or by hand) keeps what it
 * filled; the new proposal's applies only when they picked none.
 */
export function keepEditsOverDraft(catalogue: TBoardCatalogue, previous: TTicketDraft, current: TTicketForm, next: TTicketDraft): TTicketForm {
  const shown = formFromDraft(catalogue, previous);
  const proposed = formFromDraft(catalogue, next);
  const hasPickedCategory = CATEGORY_FIELDS.some((field) => current[field] !== shown[field]);
  const merged: TTicketForm = hasPickedCategory
    ? { ...proposed, ...pick(current, [...CATEGORY_FIELDS, 'priorityId', 'priorityLabel', 'priorityScore', 'tier', 'slaHours', 'subTypeScore', 'ticketTypeId', 'itemId', 'durationMinutes']) }
    : proposed;
  for (const field of PERSON_FIELDS) if (current[field] !== shown[field]) Object.assign(merged, { [field]: current[field] });
  // The company and contact go together: a technician's choice (or a cleared one) stays as a pair.
  if (current.companyId !== shown.companyId || current.contactId !== shown.contactId) Object.assign(merged, { companyId: current.companyId, contactId: current.contactId });
  const onboarding = { ...merged.onboarding };
  for (const field of Object.keys(onboarding) as (keyof TOnboardingFields)[]) if (current.onboarding[field] !== shown.onboarding[field]) onboarding[field] = current.onboarding[field];
  return { ...merged, onboarding };
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, source[key]])) as Pick<T, K>;
}
