import { MESSAGES } from './messages';
import { isValidEmail, isValidPhone } from './validation';

/**
 * Jarvis (02 §3, §4, §9; 01 §3, §5, §9): the plain constants and rules both sides share. The zod
 * schemas of the calls are in schemas/assistant.ts.
 */

/** R-242: the built-in default troubleshooting agent's fixed id (every MSP sees it; nobody edits it). */
export const DEFAULT_AGENT_ID = '00000000-0000-4000-8000-000000000001';
export const DEFAULT_AGENT_NAME = 'Jarvis Troubleshooter';

/** 02 §9: chats per page, resolution search limit and mode, the 10 best steps, 2 s feedback confirmation. */
export const CHAT_PAGE_SIZE = 30;
export const RAG_LIMIT = 5;
export const RAG_MODE = 'near';
export const TROUBLESHOOTING_STEP_COUNT = 10;
export const PROMPT_SUGGESTION_COUNT = 5;
export const FEEDBACK_CONFIRMATION_MS = 2000;
/** A user who says twice that a step did not help is offered a technician at once (issue #9). */
export const DID_NOT_HELP_LIMIT = 2;

/** 02 §2, §9 ticket area modes. */
export const TICKET_AREA_MODES = ['My Ticket', 'All Tickets', 'Knowledge Base'] as const;
export type TTicketAreaMode = (typeof TICKET_AREA_MODES)[number];

/** R-274: severity and impact options, with the score each carries to the PSA draft (ours: 1–3). */
export const SEVERITY_LEVELS = ['Low', 'Medium', 'High'] as const;
export type TSeverityLevel = (typeof SEVERITY_LEVELS)[number];
export const SEVERITY_SCORES: Record<TSeverityLevel, number> = { Low: 1, Medium: 2, High: 3 };

/** R-275: duration options in minutes. */
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

/** R-268, 02 §9: the onboarding draft's licence defaults to E3. */
export const DEFAULT_LICENCE = 'E3';

/** 02 §4 ticket progress; onboarding tickets track two more steps. */
export const TICKET_PROGRESS_STEPS = ['ticketCreated', 'ticketAssigned', 'ticketClosed'] as const;
export const ONBOARDING_PROGRESS_STEPS = ['userCreatedInActiveDirectory', 'userEmailCreated'] as const;
export type TTicketProgressStep = (typeof TICKET_PROGRESS_STEPS)[number] | (typeof ONBOARDING_PROGRESS_STEPS)[number];

/** R-277: a type of training/onboarding with a subtype of new employee onboarding (names compared loosely). */
export function isOnboardingCategory(typeName: string | null | undefined, subTypeName: string | null | undefined): boolean {
  const squash = (value: string | null | undefined) => (value ?? '').toLowerCase().replace(/[^a-z]/g, '');
  const type = squash(typeName);
  const subType = squash(subTypeName);
  return (type.includes('onboarding') || type.includes('training')) && subType.includes('newemployee') && subType.includes('onboarding');
}

/** R-249: the default conversation name, "Chat - {timestamp}" (UTC, to the minute). */
export function defaultConversationName(at: Date): string {
  const iso = at.toISOString();
  return MESSAGES.assistant.defaultConversationName.replace('{timestamp}', `${iso.slice(0, 10)} ${iso.slice(11, 16)}`);
}

/**
 * What the person answered to the diagnostic questions, one line each as the chat shows it and the
 * conversation keeps it: "Does the printer show offline, an error or a paper jam? Yes". A question no
 * longer known shows its id; a typed answer is kept as typed.
 */
export function answeredQuestionsText(questions: readonly { id: string; question: string }[], answers: readonly { questionId: string; answer: string }[]): string {
  const labelOf = (answer: string) => {
    const word = answer.trim().toLowerCase();
    return word === 'yes' ? 'Yes' : word === 'no' ? 'No' : word === 'unsure' || word === 'not sure' ? 'Not sure' : answer.trim();
  };
  return answers.map(({ questionId, answer }) => `${questions.find((q) => q.id === questionId)?.question ?? questionId} ${labelOf(answer)}`).join('\n');
}

/** A source as an answer cites it (the zod shape is ZSource): what the numbered "Sources:" list names. */
export interface TCitableSource {
  kind: 'article' | 'document' | 'resolution';
  id: string;
  title: string;
  /** The PSA ticket number for a resolution; the file name for a document; null for an article. */
  reference: string | null;
}

/** A model's citation of the n-th passage it was given ([S1], [S2]…), with the space before it. */
const MODEL_CITATION = /([ \t]?)\[S(\d{1,3})\]/g;

/**
 * A model's [S3]-style citations (S1 being the first passage it was given, `passages[0]`) numbered [1], [2]… by the
 * source behind them, in the order first cited: passages of one article share its number, and `cited` lists each
 * source once, as its first cited passage names it. An [Sn] naming no passage (the model made it up) is left out with
 * the space before it. The server numbers the stored answer with it and the screen the words as they stream, so the
 * two agree (review s28).
 */
export function numberCitationsBySource<TSourceOf extends TCitableSource>(text: string, passages: readonly TSourceOf[]): { text: string; cited: TSourceOf[] } {
  const cited: TSourceOf[] = [];
  const numbered = text.replace(MODEL_CITATION, (_whole, space: string, n: string) => {
    const passage = passages[Number(n) - 1];
    if (!passage) return '';
    let index = cited.findIndex((source) => source.kind === passage.kind && source.id === passage.id);
    if (index < 0) {
      cited.push(passage);
      index = cited.length - 1;
    }
    return `${space}[${index + 1}]`;
  });
  return { text: numbered, cited };
}

/** The numbered list of cited sources under an answer: "Sources:" then "[1] Knowledge article: …", one a line. */
export function sourcesListText(cited: readonly TCitableSource[]): string {
  const labelOf = (source: TCitableSource) =>
    source.kind === 'article' ? 'Knowledge article' : source.kind === 'resolution' ? `Past resolution${source.reference ? ` (ticket ${source.reference})` : ''}` : 'Document';
  return `\nSources:\n${cited.map((source, index) => `[${index + 1}] ${labelOf(source)}: ${source.title}`).join('\n')}\n`;
}

/** Uploaded documents (R-239): PDF, Word, Markdown and text, at most 10 MB. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_EXTENSIONS = ['pdf', 'docx', 'md', 'markdown', 'txt'] as const;
export const DOCUMENT_DESCRIPTION_MAX = 1000;
/**
 * Who may read a knowledge article or document (decision 034): everyone (technicians and the client
 * users of the companies it is shared with) or the MSP's technicians only. An upload by a technician is
 * for technicians unless they say otherwise; a client user's upload is for everyone at their company.
 */
export const KNOWLEDGE_AUDIENCES = ['technicians', 'everyone'] as const;
export type TKnowledgeAudience = (typeof KNOWLEDGE_AUDIENCES)[number];
export const KNOWLEDGE_AUDIENCE_LABELS: Record<TKnowledgeAudience, string> = { technicians: 'Technicians only', everyone: 'Technicians and client users' };

/** The fields of a ticket draft the confirmation checks (01 §5 ticket form). */
export interface TTicketDraftCheck {
  title?: string | null;
  description?: string | null;
  name?: string | null;
  emailId?: string | null;
  phone?: string | null;
  psaCompanyId?: string | number | null;
  boardId?: number | null;
  typeId?: number | null;
  subTypeId?: number | null;
}

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';

/**
 * R-272, R-273: what stops a ticket confirmation, in the form's order; empty when it may be sent.
 * "Company selection is required" only for technicians (clients create for their own company).
 * The phone is optional, but when given it must have 9 or 10 digits.
 */
export function ticketDraftProblems(draft: TTicketDraftCheck, userKind: 'technician' | 'client'): { name: string; reason: string }[] {
  const problems: { name: string; reason: string }[] = [];
  const m = MESSAGES.ticketForm;
  if (blank(draft.title)) problems.push({ name: 'title', reason: m.titleRequired });
  if (blank(draft.description)) problems.push({ name: 'description', reason: m.descriptionRequired });
  if (blank(draft.name)) problems.push({ name: 'name', reason: m.nameRequired });
  if (!isValidEmail((draft.emailId ?? '').trim())) problems.push({ name: 'emailId', reason: m.emailRequired });
  if (!blank(draft.phone) && !isValidPhone(draft.phone ?? '')) problems.push({ name: 'phone', reason: m.phoneInvalid });
  if (userKind === 'technician' && (draft.psaCompanyId === null || draft.psaCompanyId === undefined || String(draft.psaCompanyId).trim() === '')) {
    problems.push({ name: 'psaCompanyId', reason: m.companyRequired });
  }
  if (draft.boardId === null || draft.boardId === undefined) problems.push({ name: 'boardId', reason: m.boardRequired });
  if (draft.typeId === null || draft.typeId === undefined) problems.push({ name: 'typeId', reason: m.categoryRequired });
  if (draft.subTypeId === null || draft.subTypeId === undefined) problems.push({ name: 'subTypeId', reason: m.subCategoryRequired });
  return problems;
}

/**
 * The problem+json flag on a tickets-by-chat answer whose draft has ended (created or cancelled elsewhere: 409,
 * or gone: 404): the chat ends its flow rather than keep sending the draft's id.
 */
export const TICKET_DRAFT_ENDED_FLAG = 'ticketDraftEnded';
