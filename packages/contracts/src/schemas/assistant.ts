import { z } from 'zod';
import { TIERS } from '../constants';
import { MESSAGES } from '../messages';
import { DOCUMENT_DESCRIPTION_MAX, KNOWLEDGE_AUDIENCES, RAG_LIMIT, SEVERITY_LEVELS, TICKET_AREA_MODES } from '../assistant';
import { ZCustomDomain } from './common';

/**
 * Jarvis (issue #9): agents, conversations and chat, tickets by chat, knowledge and documents.
 * Catalogue calls plus
 * the additions listed in docs/api-additions.md (ticket-draft cancel, step feedback, talk to a
 * technician). Field names are the spec's (02 §3, §7); fields the spec does not name are ours and
 * say so.
 */

const ZId = z.uuid();
const ZText = (max: number) => z.string().trim().max(max);
/** PSA ids as the PSA gives them (ConnectWise and Autotask ids are positive integers). */
const ZPsaId = z.coerce.number().int().positive().max(2_147_483_647);
const ZPsaIdText = z.union([z.string().trim().regex(/^\d{1,10}$/), z.number().int().positive().max(2_147_483_647)]).transform(String);
const ZTimestamp = z.string();
const ZPageQuery = { page: z.coerce.number().int().min(1).max(100_000).default(1) };

// ---------------------------------------------------------------------------------------------
// Agents (02 §3, §4; 01 §3, §5; )
// ---------------------------------------------------------------------------------------------

export const ZAgent = z.object({
  id: z.string(),
  agentName: z.string(),
  role: z.string(),
  description: z.string(),
  objectives: z.array(z.string()),
  custom: z.boolean(),
  deleted: z.boolean(),
  defaultPrompt: z.string().nullable(),
  examplePrompts: z.array(z.string()),
  techId: z.string().nullable(),
  userId: z.string().nullable(),
  mspCustomDomain: z.string().nullable(),
  /** Ours: the agent this one was edited from (A-092 creates a new agent from the old). */
  previousAgentId: z.string().nullable(),
  createdAt: ZTimestamp,
});
export type TAgent = z.infer<typeof ZAgent>;
export const ZAgentList = z.object({ agents: z.array(ZAgent) });
export type TAgentList = z.infer<typeof ZAgentList>;
export const ZAgentResponse = z.object({ agent: ZAgent });
export type TAgentResponse = z.infer<typeof ZAgentResponse>;

/** The AI agent form (01 §3) with its spec messages (01 §5, R-244); prompts are ours and optional. */
export const ZAgentForm = z.object({
  agentName: ZText(100).min(1, MESSAGES.agentForm.nameRequired),
  role: ZText(200).min(1, MESSAGES.agentForm.roleRequired),
  description: ZText(2000).min(1, MESSAGES.agentForm.descriptionRequired),
  objectives: z
    .array(ZText(500))
    .max(20)
    .transform((list) => list.filter((objective) => objective !== ''))
    .refine((list) => list.length > 0, MESSAGES.agentForm.objectiveRequired),
  defaultPrompt: ZText(2000).nullish(),
  examplePrompts: z.array(ZText(500)).max(10).optional(),
});
export type TAgentForm = z.input<typeof ZAgentForm>;

export const ZCreateAgentQuery = z.object({ mspCustomDomain: ZCustomDomain });
export const ZEditAgentQuery = z.object({ mspCustomDomain: ZCustomDomain, agentId: ZId });
export const ZSoftDeleteAgentQuery = z.object({ agentId: ZId });
export const ZSoftDeleteAgentResponse = z.object({ agentId: z.string(), deleted: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// Conversations and messages (02 §3; )
// ---------------------------------------------------------------------------------------------

export const ZConversation = z.object({
  id: z.string(),
  userId: z.string(),
  agentID: z.string(),
  conversationName: z.string(),
  customPrompt: z.string().nullable(),
  timeStamp: ZTimestamp,
  deleted: z.boolean(),
});
export type TConversation = z.infer<typeof ZConversation>;

/** `id` and `timeStamp` may be proposed by the client; the server fills what is missing. */
export const ZAddConversationBody = z.object({
  id: ZId.optional(),
  /** Must be the caller's own id when given (conversations belong to their user). */
  userId: ZId.optional(),
  agentID: ZId,
  conversationName: ZText(200).optional(),
  customPrompt: ZText(4000).nullish(),
  timeStamp: z.string().trim().max(40).optional(),
  deleted: z.boolean().optional(),
});
export type TAddConversationBody = z.input<typeof ZAddConversationBody>;
export const ZConversationResponse = z.object({ conversation: ZConversation });

/**
 * the caller's own conversations with one agent, 30 per page, newest first; `order` is ours (asc: oldest
 * first, for the list's "Oldest", which sorting one page of the newest could not give).
 */
export const ZConversationsByAgentQuery = z.object({ agentId: ZId, userId: ZId.optional(), ...ZPageQuery, order: z.enum(['asc', 'desc']).default('desc') });
export const ZConversationPage = z.object({
  conversations: z.array(ZConversation),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TConversationPage = z.infer<typeof ZConversationPage>;

export const ZDeleteConversationQuery = z.object({ conversationId: ZId });
export const ZDeleteConversationResponse = z.object({ conversationId: z.string(), deleted: z.literal(true) });

/** Where an answer came from: a knowledge article, an uploaded document or a past ticket's resolution. */
export const SOURCE_KINDS = ['article', 'document', 'resolution'] as const;
export const ZSource = z.object({
  kind: z.enum(SOURCE_KINDS),
  id: z.string(),
  title: z.string(),
  /** The PSA ticket number for a resolution; the file name for a document; null for an article. */
  reference: z.string().nullable(),
});
export type TSource = z.infer<typeof ZSource>;

/**
 * An answer button. `kind` says what pressing it does: `answer` sends `value` as
 * the answer to question `questionId`; `step` is a troubleshooting step with `helped` / `didNotHelp`
 * follow-ups; `talkToTechnician`, `confirm` and `cancel` drive the ticket flow.
 */
export const INTERACTIVE_KINDS = ['answer', 'step', 'helped', 'didNotHelp', 'talkToTechnician', 'confirm', 'cancel', 'prompt'] as const;
export const ZInteractiveElement = z.object({
  id: z.string(),
  kind: z.enum(INTERACTIVE_KINDS),
  label: z.string(),
  value: z.string().nullable(),
  questionId: z.string().nullable(),
  sources: z.array(ZSource),
});
export type TInteractiveElement = z.infer<typeof ZInteractiveElement>;

export const MESSAGE_TYPES = ['markdown', 'troubleshootButtons'] as const;
export const FEEDBACK_VALUES = ['positive', 'negative'] as const;
export const ENGINE_KINDS = ['local', 'llm'] as const;
export type TEngineKind = (typeof ENGINE_KINDS)[number];

/** a stored chat message (markdown content is rendered sanitized by the web). */
export const ZChatMessage = z.object({
  id: z.string(),
  conversationId: z.string(),
  content: z.string(),
  role: z.enum(['user', 'assistant']),
  timeStamp: ZTimestamp,
  /** The spec's `elements`: the interactive elements as first shown (kept for fidelity). */
  elements: z.array(ZInteractiveElement),
  type: z.enum(MESSAGE_TYPES),
  interactiveElements: z.array(ZInteractiveElement),
  feedback: z.enum(FEEDBACK_VALUES).nullable(),
  /** Ours: which engine answered and what it used. Null on user messages. */
  engine: z.enum(ENGINE_KINDS).nullable(),
  sources: z.array(ZSource),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

/** one conversation's messages, oldest first, 30 per page counted from the newest. */
export const ZGetMessagesQuery = z.object({ conversationId: ZId, ...ZPageQuery });
export const ZMessagePage = z.object({
  messages: z.array(ZChatMessage),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TMessagePage = z.infer<typeof ZMessagePage>;

/** A-098 (a state-changing GET, decisions #2). */
export const ZUpdateFeedbackQuery = z.object({ messageId: ZId, feedback: z.enum(FEEDBACK_VALUES) });
export const ZUpdateFeedbackResponse = z.object({ messageId: z.string(), feedback: z.enum(FEEDBACK_VALUES), message: z.string() });

// ---------------------------------------------------------------------------------------------
// Chat: A-096 jarvisQandA (both uses), A-097 gpt/message
// ---------------------------------------------------------------------------------------------

/** The answer inside A-096's `content` (JSON text): explanation and interactiveElements (R-253). */
export const ZJarvisAnswer = z.object({
  explanation: z.string(),
  interactiveElements: z.array(ZInteractiveElement),
  type: z.enum(MESSAGE_TYPES),
  engine: z.enum(ENGINE_KINDS),
  sources: z.array(ZSource),
  /** Ours: said plainly when no LLM answered (issue #9). */
  notice: z.string().nullable(),
});
export type TJarvisAnswer = z.infer<typeof ZJarvisAnswer>;

/**
 * A-096, one route with two shapes (its catalogue ambiguity): the chat use sends {text,
 * conversationId, technicianId, useRAG} and is told apart by its conversationId; the queue
 * troubleshoot use sends {text}, with `ticketId` (ours) naming the queue ticket for
 * context. `selectedAnswers` (ours) carries pressed answer buttons, so a chat message needs text
 * or answers; a troubleshoot question needs text.
 */
export const ZJarvisQandABody = z
  .object({
    text: ZText(8000).default(''),
    conversationId: ZId.optional(),
    technicianId: ZId.nullish(),
    useRAG: z.boolean().default(true),
    selectedAnswers: z.array(ZText(500)).max(20).default([]),
    ticketId: ZPsaIdText.optional(),
  })
  .superRefine((body, context) => {
    if (body.text !== '') return;
    if (body.conversationId === undefined) context.addIssue({ code: 'custom', message: MESSAGES.assistant.troubleshootQuestionRequired, path: ['text'] });
    else if (body.selectedAnswers.length === 0) context.addIssue({ code: 'custom', message: MESSAGES.assistant.chatTextRequired, path: ['text'] });
  });
export type TJarvisQandABody = z.input<typeof ZJarvisQandABody>;

export const ZJarvisChatResponse = z.object({
  /** JSON text of ZJarvisAnswer (the spec's shape). */
  content: z.string(),
  /** The answer as markdown (what the assistant "said"). */
  aiContent: z.string(),
  messages: z.object({ id: z.string() }),
  /** Ours: the parsed answer and the stored user message, so clients need not parse `content`. */
  answer: ZJarvisAnswer,
  userMessage: ZChatMessage,
  assistantMessage: ZChatMessage,
});
export type TJarvisChatResponse = z.infer<typeof ZJarvisChatResponse>;

const ZChoices = z.array(z.object({ index: z.number().int(), message: z.object({ role: z.literal('assistant'), content: z.string() }) }));
export const ZJarvisTroubleshootResponse = z.object({
  id: z.string(),
  choices: ZChoices,
  engine: z.enum(ENGINE_KINDS),
  sources: z.array(ZSource),
  notice: z.string().nullable(),
});
export type TJarvisTroubleshootResponse = z.infer<typeof ZJarvisTroubleshootResponse>;
export const ZJarvisQandAResponse = z.union([ZJarvisChatResponse, ZJarvisTroubleshootResponse]);

/**
 * Streamed answers (A-096 with `Accept: text/event-stream`): `delta` events carry text as it is
 * produced, then one `done` event carries the whole JSON response; `error` carries a problem.
 * Before a model's first words, `sources` says which source each of its [Sn] citations points at
 * (`passages[n - 1]`; passages of one article share its kind and id), so the screen numbers them
 * while they stream as the stored answer will (`numberCitationsBySource`; review s28).
 */
export const ZChatStreamSources = z.object({ event: z.literal('sources'), passages: z.array(ZSource) });
export type TChatStreamSources = z.infer<typeof ZChatStreamSources>;
export const ZChatStreamEvent = z.discriminatedUnion('event', [
  ZChatStreamSources,
  z.object({ event: z.literal('delta'), text: z.string() }),
  z.object({ event: z.literal('done'), response: ZJarvisQandAResponse }),
  z.object({ event: z.literal('error'), code: z.string(), detail: z.string() }),
]);
export type TChatStreamEvent = z.infer<typeof ZChatStreamEvent>;

/** a free prompt; the prompt generator sends its request for the top 5 prompts. */
export const ZGptMessageBody = z.object({ message: ZText(8000).min(1, MESSAGES.assistant.promptInputRequired) });
export const ZGptMessageResponse = z.object({
  id: z.string(),
  choices: ZChoices,
  engine: z.enum(ENGINE_KINDS),
  /** Ours: the prompts parsed out of the answer (up to 5) when the message asked for prompts. */
  prompts: z.array(z.string()),
  notice: z.string().nullable(),
});
export type TGptMessageResponse = z.infer<typeof ZGptMessageResponse>;

// ---------------------------------------------------------------------------------------------
// Tickets by chat (02 §3, §4; ): and the draft additions
// ---------------------------------------------------------------------------------------------

export const ZSeverity = z.enum(SEVERITY_LEVELS);
export const ZTicketTier = z.enum(TIERS);

/** R-269 ConnectWise details. */
export const ZConnectWiseDetails = z.object({
  boardId: ZPsaId.nullable(),
  boardName: ZText(100).default(''),
  typeId: ZPsaId.nullable(),
  typeName: ZText(100).default(''),
  subTypeId: ZPsaId.nullable(),
  subTypeName: ZText(100).default(''),
  priority: ZText(100).nullable().default(null),
  priorityId: ZPsaId.nullable().default(null),
  priorityScore: z.number().min(0).max(100).nullable().default(null),
  tier: ZTicketTier.nullable().default(null),
  subTypeScore: z.number().min(0).max(100).nullable().default(null),
  itemId: ZPsaId.nullable().default(null),
  itemName: ZText(100).nullable().default(null),
});
export type TConnectWiseDetails = z.output<typeof ZConnectWiseDetails>;

/** R-270 Autotask details. */
export const ZAutotaskDetails = z.object({
  queueId: ZPsaId.nullable(),
  queueName: ZText(100).default(''),
  issueTypeValue: ZPsaId.nullable(),
  issueTypeLabel: ZText(100).default(''),
  subIssueTypeValue: ZPsaId.nullable(),
  subIssueTypeLabel: ZText(100).default(''),
  priorityValue: ZPsaId.nullable().default(null),
  priorityLabel: ZText(100).nullable().default(null),
  priorityScore: z.number().min(0).max(100).nullable().default(null),
  ticketTypeValue: ZPsaId.nullable().default(null),
  ticketTypeLabel: ZText(100).nullable().default(null),
  tier: ZTicketTier.nullable().default(null),
  subTypeScore: z.number().min(0).max(100).nullable().default(null),
});
export type TAutotaskDetails = z.output<typeof ZAutotaskDetails>;

/** onboarding sub-fields (licence defaults to E3). */
export const ZOnboardingFields = z.object({
  newFirstName: ZText(100).default(''),
  newLastName: ZText(100).default(''),
  newEmail: ZText(254).default(''),
  ownerEmail: ZText(254).default(''),
  newPhone: ZText(40).default(''),
  licence: ZText(40).default('E3'),
});
export type TOnboardingFields = z.output<typeof ZOnboardingFields>;

/** A diagnostic question with its answer buttons (options may be empty: free text). */
export const ZDiagnosticQuestion = z.object({ id: z.string(), question: z.string(), options: z.array(z.string()) });
export type TDiagnosticQuestion = z.infer<typeof ZDiagnosticQuestion>;

/** A proposed category with its calibrated confidence (0–1). */
export const ZCategoryCandidate = z.object({
  /** The board (ConnectWise) or queue (Autotask) the candidate is on; absent in drafts stored before it was sent. */
  boardId: z.number().int().optional(),
  typeId: z.number().int(),
  typeName: z.string(),
  subTypeId: z.number().int(),
  subTypeName: z.string(),
  confidence: z.number(),
});

/**
 * The proposed categorisation: the MSP's own board, type and subtype with priority, tier
 * and SLA from the board configuration, or nothing when the engine abstains below its confidence
 * gate (then the questions decide). Every proposal names its engine, confidence and sources.
 */
export const ZProposedCategorisation = z.object({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']),
  engine: z.enum(ENGINE_KINDS),
  confidence: z.number(),
  abstained: z.boolean(),
  slaHours: z.number().nullable(),
  connectWiseDetails: ZConnectWiseDetails.nullable(),
  autotaskDetails: ZAutotaskDetails.nullable(),
  alternatives: z.array(ZCategoryCandidate),
  sources: z.array(ZSource),
});
export type TProposedCategorisation = z.infer<typeof ZProposedCategorisation>;

export const ZTroubleshootingStep = z.object({ id: z.string(), text: z.string(), sources: z.array(ZSource) });
export type TTroubleshootingStep = z.infer<typeof ZTroubleshootingStep>;

export const DRAFT_STAGES = ['questions', 'troubleshooting', 'created', 'pending', 'cancelled'] as const;
export type TDraftStage = (typeof DRAFT_STAGES)[number];

/** The ticket draft the chat builds (02 §3 Ticket draft), as the server proposes it. */
export const ZTicketDraft = z.object({
  id: z.string(),
  conversationId: z.string(),
  stage: z.enum(DRAFT_STAGES),
  /** the ticket area mode the screen switches to. */
  mode: z.enum(TICKET_AREA_MODES),
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']),
  title: z.string(),
  description: z.string(),
  name: z.string(),
  emailId: z.string(),
  phone: z.string(),
  psaCompanyId: z.string().nullable(),
  psaContactId: z.string().nullable(),
  impact: ZSeverity,
  impactScore: z.number(),
  severity: ZSeverity,
  severityScore: z.number(),
  categorisation: ZProposedCategorisation,
  isOnboarding: z.boolean(),
  onboarding: ZOnboardingFields.nullable(),
  questions: z.array(ZDiagnosticQuestion),
  steps: z.array(ZTroubleshootingStep),
  didNotHelpCount: z.number().int(),
  /** True once the user said twice that a step did not help: offer the technician at once. */
  offerTechnician: z.boolean(),
  /** The assistant message of this round (questions or troubleshooting buttons). */
  message: ZChatMessage,
});
export type TTicketDraft = z.infer<typeof ZTicketDraft>;

/**
 * the first message (`userMessage`) starts a draft; the second round sends `ticketDraftId`
 * with `answers` (ours) and gets the troubleshooting steps. `techId` or `userId` names the caller.
 */
export const ZDiagnosticQandABody = z.object({
  userMessage: ZText(8000).default(''),
  mspCustomDomain: ZCustomDomain,
  techId: ZId.nullish(),
  userId: ZId.nullish(),
  /** Ours: the conversation the chat happens in (a new one is made when absent). */
  conversationId: ZId.optional(),
  ticketDraftId: ZId.optional(),
  answers: z.array(z.object({ questionId: ZText(100).min(1), answer: ZText(1000) })).max(20).default([]),
});
export type TDiagnosticQandABody = z.input<typeof ZDiagnosticQandABody>;
export const ZDiagnosticQandAResponse = z.object({ ticketDraft: ZTicketDraft });
export type TDiagnosticQandAResponse = z.infer<typeof ZDiagnosticQandAResponse>;

/** A-109 query. */
export const ZCreateTicketQuery = z.object({ mspCustomDomain: ZCustomDomain });

/**
 * A-109 body: every field of the ticket draft (02 §3, 02 §7). Strings are only bounded here; the
 * server checks them by the caller's role with the spec's messages (ticketDraftProblems).
 */
export const ZCreateTicketBody = z.object({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']).optional(),
  ticketDraftId: ZId.optional(),
  title: ZText(200).default(''),
  description: ZText(8000).default(''),
  name: ZText(200).default(''),
  emailId: ZText(254).default(''),
  phone: ZText(40).default(''),
  impact: ZSeverity.default('Low'),
  impactScore: z.number().min(0).max(100).optional(),
  severity: ZSeverity.default('Low'),
  severityScore: z.number().min(0).max(100).optional(),
  /** The conversation so far; the server attaches the stored one when `ticketDraftId` is given. */
  conversation: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: ZText(8000), timeStamp: z.string().max(40).optional() }))
    .max(200)
    .default([]),
  userId: ZId.nullish(),
  techId: ZId.nullish(),
  psaCompanyId: ZPsaIdText.nullish(),
  psaContactId: ZPsaIdText.nullish(),
  durationHours: z.number().min(0).max(8760).nullish(),
  connectWiseDetails: ZConnectWiseDetails.nullish(),
  autotaskDetails: ZAutotaskDetails.nullish(),
  onboarding: ZOnboardingFields.nullish(),
});
export type TCreateTicketBody = z.input<typeof ZCreateTicketBody>;
export type TCreateTicketParsed = z.output<typeof ZCreateTicketBody>;

/** Ours: whether the ticket has reached the PSA through the outbox. */
export const PSA_WRITE_STATES = ['done', 'pending', 'failed'] as const;
export const ZTicketCreateState = z.enum(PSA_WRITE_STATES);

/** A-109 response: `ticketId` is the PSA's id, null while the create is pending in the PSA. */
export const ZCreateTicketResponse = z.object({
  ticketId: z.number().int().nullable(),
  ticketNumber: z.string().nullable(),
  /** Our id of the request (stable while the PSA create is pending). */
  requestId: z.string(),
  psaWriteState: ZTicketCreateState,
  /** The summary message shown after confirm. */
  summary: z.string(),
  /** the mode the screen goes to. */
  mode: z.literal('All Tickets'),
});
export type TCreateTicketResponse = z.infer<typeof ZCreateTicketResponse>;

/** Additions: cancel the draft, step feedback, and "Talk to a technician". */
export const ZTicketDraftQuery = z.object({ mspCustomDomain: ZCustomDomain, ticketDraftId: ZId });
export const ZCancelTicketDraftResponse = z.object({ message: z.literal(MESSAGES.ticketCreationCancelled), mode: z.literal('All Tickets') });
/** The caller's own open draft of the last day (questions or troubleshooting), to carry on after a reload; null when none. */
export const ZOpenTicketDraftQuery = z.object({ mspCustomDomain: ZCustomDomain });
export const ZOpenTicketDraftResponse = z.object({ ticketDraft: ZTicketDraft.nullable() });
export type TOpenTicketDraftResponse = z.infer<typeof ZOpenTicketDraftResponse>;
export const ZStepFeedbackBody = z.object({ stepId: ZText(100).min(1), helped: z.boolean() });
export const ZStepFeedbackResponse = z.object({ didNotHelpCount: z.number().int(), offerTechnician: z.boolean(), message: ZChatMessage });
/** "Talk to a technician": creates the ticket with what was said so far (contact fields may be given by a technician). */
export const ZTalkToTechnicianBody = z.object({
  psaCompanyId: ZPsaIdText.nullish(),
  psaContactId: ZPsaIdText.nullish(),
});

// ---------------------------------------------------------------------------------------------
// Support tickets and ticket progress
// ---------------------------------------------------------------------------------------------

export const ZTicketProgress = z.object({
  ticketCreated: z.enum(['pending', 'done']),
  ticketAssigned: z.enum(['pending', 'done']),
  ticketClosed: z.enum(['pending', 'done']),
  userCreatedInActiveDirectory: z.enum(['pending', 'done']).optional(),
  userEmailCreated: z.enum(['pending', 'done']).optional(),
});
export type TTicketProgress = z.infer<typeof ZTicketProgress>;

/** A ticket as the client's and technician's lists show it: a PSA ticket copy, or a request still pending in the PSA. */
export const ZSupportTicket = z.object({
  /** Our id: the ticket copy's, or the request's while it is pending. */
  id: z.string(),
  ticketId: z.number().int().nullable(),
  ticketNumber: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  boardId: z.number().int().nullable(),
  boardName: z.string().nullable(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  subCategoryId: z.number().int().nullable(),
  subCategoryName: z.string().nullable(),
  priority: z.string().nullable(),
  priorityId: z.number().int().nullable(),
  status: z.string().nullable(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  contactId: z.string().nullable(),
  contactName: z.string().nullable(),
  ownerName: z.string().nullable(),
  isClosed: z.boolean(),
  createdAt: z.string().nullable(),
  psaWriteState: ZTicketCreateState,
  progress: ZTicketProgress,
});
export type TSupportTicket = z.infer<typeof ZSupportTicket>;
export const ZSupportTicketPage = z.object({ tickets: z.array(ZSupportTicket), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
export type TSupportTicketPage = z.infer<typeof ZSupportTicketPage>;

export const ZTicketsByMspQuery = z.object({ mspCustomDomain: ZCustomDomain, ...ZPageQuery });
/** The client's "All Tickets" sort (R-285: Newest by default); ours: Oldest (the technicians' queue order means nothing here). */
export const CLIENT_TICKET_SORTS = ['newest', 'oldest'] as const;
export type TClientTicketSort = (typeof CLIENT_TICKET_SORTS)[number];
/**
 * A-018 with the filters of 02 §3 (R-285–R-287), ours as on the technicians' All Tickets (A-015, same names): board, type
 * (category), subtype and priority by PSA id, words of the title or the ticket number, and the sort.
 */
export const ZTicketsByClientUserQuery = z.object({
  clientsUserId: ZId,
  ...ZPageQuery,
  boardId: ZPsaId.optional(),
  categoryId: ZPsaId.optional(),
  subCategoryId: ZPsaId.optional(),
  priorityId: ZPsaId.optional(),
  search: ZText(200).optional(),
  sort: z.enum(CLIENT_TICKET_SORTS).default('newest'),
});
export type TTicketsByClientUserQuery = z.input<typeof ZTicketsByClientUserQuery>;
export type TClientTicketFilter = Omit<z.output<typeof ZTicketsByClientUserQuery>, 'clientsUserId' | 'page'>;
/** The client company's row id (the session's `clientsAutopilotDbid`, 01 §3). */
export const ZTicketsByCompanyQuery = z.object({ clientsAutopilotDbid: ZId, ...ZPageQuery });

export const ZPsaTicketQuery = z.object({ mspCustomDomain: ZCustomDomain, ticketId: ZPsaId });
export const ZSupportTicketResponse = z.object({ ticket: ZSupportTicket });
export const ZTicketStatusResponse = z.object({
  ticketId: z.number().int(),
  statusId: z.number().int().nullable(),
  status: z.string().nullable(),
  isClosed: z.boolean(),
  progress: ZTicketProgress,
});
export type TTicketStatusResponse = z.infer<typeof ZTicketStatusResponse>;

// ---------------------------------------------------------------------------------------------
// Knowledge and documents
// ---------------------------------------------------------------------------------------------

/** A tool/application (02 §3): an uploaded file with a description. */
export const ZApplication = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  description: z.string(),
  mspCustomDomain: z.string(),
  /** Ours: how many searchable passages the text gave. */
  chunkCount: z.number().int(),
  uploadedBy: z.string().nullable(),
  createdAt: ZTimestamp,
  /** Ours: whether the caller may delete it (a client user only their company's, not the shared ones). */
  canDelete: z.boolean(),
  /** Ours (decision 034): who may read it. */
  audience: z.enum(KNOWLEDGE_AUDIENCES),
});
export type TApplication = z.infer<typeof ZApplication>;
export const ZApplicationList = z.object({ applications: z.array(ZApplication) });
export type TApplicationList = z.infer<typeof ZApplicationList>;
export const ZApplicationResponse = z.object({ application: ZApplication });
/** `{id}` is the MSP's custom domain or its id (the catalogue leaves it open); it must be the session's. */
export const ZApplicationsOfMspParams = z.object({ id: z.string().trim().min(1).max(63) });
/** Ours (the catalogue has no call for it): one uploaded document of the MSP named in the path, to download or delete. */
export const ZApplicationParams = z.object({ mspCustomDomain: ZCustomDomain, applicationId: ZId });
export const ZDeleteApplicationResponse = z.object({ deleted: z.literal(true), application: ZApplication });
export type TDeleteApplicationResponse = z.infer<typeof ZDeleteApplicationResponse>;

/** Ours (docs/api-additions.md): a knowledge-base article the caller may read, as a list shows it (its category names when it has them). */
export const ZKnowledgeArticleSummary = z.object({ id: z.string(), title: z.string(), typeName: z.string().nullable(), subTypeName: z.string().nullable() });
export type TKnowledgeArticleSummary = z.infer<typeof ZKnowledgeArticleSummary>;
export const ZKnowledgeArticleList = z.object({ articles: z.array(ZKnowledgeArticleSummary) });
export type TKnowledgeArticleList = z.infer<typeof ZKnowledgeArticleList>;
/** Ours: one article to read, its text as markdown (rendered sanitized), e.g. a source Jarvis or a search cited. */
export const ZKnowledgeArticle = ZKnowledgeArticleSummary.extend({ body: z.string(), createdAt: ZTimestamp });
export type TKnowledgeArticle = z.infer<typeof ZKnowledgeArticle>;
export const ZKnowledgeArticleParams = z.object({ mspCustomDomain: ZCustomDomain, articleId: ZId });
export const ZKnowledgeArticlesParams = z.object({ mspCustomDomain: ZCustomDomain });
const ZKnowledgeAudience = z.enum(KNOWLEDGE_AUDIENCES, { error: 'Choose who can read the document: technicians only, or technicians and client users.' });
/** Ours (decision 034): who may read an uploaded document, changed after upload by a technician. */
export const ZApplicationReadersBody = z.object({ audience: ZKnowledgeAudience });
/** A-065 multipart text fields (the file is the `file` part). */
export const ZUploadApplicationFields = z.object({
  mspCustomDomain: ZCustomDomain.optional(),
  description: ZText(DOCUMENT_DESCRIPTION_MAX).default(''),
  /** Ours (decision 034): who may read it; a technician's upload defaults to technicians only, a client user's is for everyone at their company. */
  audience: ZKnowledgeAudience.optional(),
});

/** {query, mspCustomDomain, limit 5, mode near}; `ticketId` is echoed back. */
export const ZRagSearchBody = z.object({
  query: ZText(2000).min(1),
  mspCustomDomain: ZCustomDomain,
  limit: z.number().int().min(1).max(20).default(RAG_LIMIT),
  mode: z.enum(['near', 'exact']).default('near'),
  ticketId: ZPsaIdText.nullish(),
  /** Addition (issue #10): `resolutions` searches past ticket resolutions only (the queue's "similar past resolutions"). */
  sources: z.enum(['all', 'resolutions']).default('all'),
});
export type TRagSearchBody = z.input<typeof ZRagSearchBody>;
export const ZRagResult = ZSource.extend({ snippet: z.string(), score: z.number() });
export type TRagResult = z.infer<typeof ZRagResult>;
/** ticketId, query, results. */
export const ZRagSearchResponse = z.object({ ticketId: z.string().nullable(), query: z.string(), results: z.array(ZRagResult) });
export type TRagSearchResponse = z.infer<typeof ZRagSearchResponse>;

/** `id` is a document (application) id; left out or null (R-338 always sends it), the question goes to all the knowledge the caller may read. */
export const ZDocumentChatBody = z.object({
  id: ZId.nullish(),
  documentMessage: ZText(4000).min(1, MESSAGES.documents.messageRequired),
});
export const ZDocumentChatResponse = z.object({ documentMessage: z.string(), engine: z.enum(ENGINE_KINDS), sources: z.array(ZRagResult), notice: z.string().nullable() });
export type TDocumentChatResponse = z.infer<typeof ZDocumentChatResponse>;

/** Limits of a subcategory's diagnostic question list (issue #9). */
export const DIAGNOSTIC_QUESTION_MAX_CHARS = 200;
export const DIAGNOSTIC_QUESTIONS_PER_SUBTYPE = 10;

/** Ours (docs/api-additions.md): which subcategory's diagnostic questions. */
export const ZDiagnosticQuestionsQuery = z.object({ typeId: ZPsaId, subTypeId: ZPsaId });
export const ZEditableDiagnosticQuestion = z.object({
  /** Kept when a question is edited, so answers already given still count; new questions leave it out. */
  id: z.string().trim().min(1).max(100).optional(),
  text: z
    .string()
    .trim()
    .min(1, MESSAGES.diagnosticQuestions.questionRequired)
    .max(DIAGNOSTIC_QUESTION_MAX_CHARS, MESSAGES.diagnosticQuestions.questionTooLong),
});
export const ZSaveDiagnosticQuestionsBody = z.object({
  typeId: ZPsaId,
  subTypeId: ZPsaId,
  questions: z.array(ZEditableDiagnosticQuestion).max(DIAGNOSTIC_QUESTIONS_PER_SUBTYPE, MESSAGES.diagnosticQuestions.tooMany),
});
export type TSaveDiagnosticQuestionsBody = z.input<typeof ZSaveDiagnosticQuestionsBody>;
/** The list the engine asks from: the MSP's own, or the seed defaults for these names (`isDefault`) until it is saved. */
export const ZDiagnosticQuestionList = z.object({
  typeId: z.number().int(),
  subTypeId: z.number().int(),
  typeName: z.string(),
  subTypeName: z.string(),
  isDefault: z.boolean(),
  questions: z.array(z.object({ id: z.string(), text: z.string() })),
});
export type TDiagnosticQuestionList = z.infer<typeof ZDiagnosticQuestionList>;
