import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { msps, users } from './tenancy';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const mspId = () => uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' });

/**
 * Custom AI agents (02 §3, R-241). The built-in default troubleshooting agent is not a row: it has
 * a fixed id (contracts DEFAULT_AGENT_ID) and a conversation with it has `agent_id` null. Editing
 * creates a new row pointing at the old one (`previous_agent_id`, A-092); deleting is soft.
 */
export const agents = pgTable(
  'agents',
  {
    mspId: mspId(),
    id: uuid('id').notNull().defaultRandom(),
    ownerUserId: uuid('owner_user_id').notNull(),
    agentName: text('agent_name').notNull(),
    role: text('role').notNull(),
    description: text('description').notNull(),
    objectives: jsonb('objectives').$type<string[]>().notNull(),
    defaultPrompt: text('default_prompt'),
    examplePrompts: jsonb('example_prompts').$type<string[]>().notNull().default([]),
    previousAgentId: uuid('previous_agent_id'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    foreignKey({ name: 'agents_owner_fk', columns: [t.mspId, t.ownerUserId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    foreignKey({ name: 'agents_previous_fk', columns: [t.mspId, t.previousAgentId], foreignColumns: [t.mspId, t.id] }),
    index('agents_owner_idx').on(t.mspId, t.ownerUserId, t.isDeleted),
  ],
);

/** A user's conversation with an agent (02 §3, R-249); `agent_id` null is the built-in agent. */
export const conversations = pgTable(
  'conversations',
  {
    mspId: mspId(),
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id').notNull(),
    agentId: uuid('agent_id'),
    conversationName: text('conversation_name').notNull(),
    customPrompt: text('custom_prompt'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    foreignKey({ name: 'conversations_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    foreignKey({ name: 'conversations_agent_fk', columns: [t.mspId, t.agentId], foreignColumns: [agents.mspId, agents.id] }),
    index('conversations_user_agent_idx').on(t.mspId, t.userId, t.agentId, t.createdAt),
  ],
);

/** A source an answer cites (article, uploaded document or past resolution). */
export interface TStoredSource {
  kind: 'article' | 'document' | 'resolution';
  id: string;
  title: string;
  reference: string | null;
}
/** An answer button as stored with its message. */
export interface TStoredInteractiveElement {
  id: string;
  kind: 'answer' | 'step' | 'helped' | 'didNotHelp' | 'talkToTechnician' | 'confirm' | 'cancel' | 'prompt';
  label: string;
  value: string | null;
  questionId: string | null;
  sources: TStoredSource[];
}

/** One message of a conversation (02 §3, R-250). */
export const chatMessages = pgTable(
  'chat_messages',
  {
    mspId: mspId(),
    id: uuid('id').notNull().defaultRandom(),
    conversationId: uuid('conversation_id').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    type: text('type', { enum: ['markdown', 'troubleshootButtons'] }).notNull().default('markdown'),
    interactiveElements: jsonb('interactive_elements').$type<TStoredInteractiveElement[]>().notNull().default([]),
    sources: jsonb('sources').$type<TStoredSource[]>().notNull().default([]),
    engine: text('engine', { enum: ['local', 'llm'] }),
    feedback: text('feedback', { enum: ['positive', 'negative'] }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    foreignKey({ name: 'chat_messages_conversation_fk', columns: [t.mspId, t.conversationId], foreignColumns: [conversations.mspId, conversations.id] }).onDelete('cascade'),
    index('chat_messages_conversation_idx').on(t.mspId, t.conversationId, t.createdAt),
  ],
);

/**
 * A ticket this product asked the PSA to create: kept from the confirm on, whatever the
 * PSA does, so it is never lost; `psa_ticket_external_id` is filled when the outbox's create lands
 * (the ticket copy in psa_tickets then carries the rest). Company and contact are the PSA's ids.
 */
export const ticketRequests = pgTable(
  'ticket_requests',
  {
    mspId: mspId(),
    id: uuid('id').notNull().defaultRandom(),
    createdByUserId: uuid('created_by_user_id').notNull(),
    createdByKind: text('created_by_kind', { enum: ['technician', 'client'] }).notNull(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    title: text('title').notNull(),
    companyExternalId: text('company_external_id').notNull(),
    contactExternalId: text('contact_external_id'),
    boardExternalId: text('board_external_id').notNull(),
    /** Every field of the draft as confirmed (contracts TCreateTicketParsed plus the resolved board fields). */
    draft: jsonb('draft').$type<Record<string, unknown>>().notNull(),
    state: text('state', { enum: ['pending', 'done', 'failed'] }).notNull().default('pending'),
    psaTicketExternalId: text('psa_ticket_external_id'),
    psaTicketNumber: text('psa_ticket_number'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    foreignKey({ name: 'ticket_requests_user_fk', columns: [t.mspId, t.createdByUserId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    index('ticket_requests_user_idx').on(t.mspId, t.createdByUserId, t.createdAt),
    index('ticket_requests_company_idx').on(t.mspId, t.companyExternalId, t.createdAt),
  ],
);

/**
 * A ticket being created by chat (02 §4): the questions asked, the answers, the proposed
 * categorisation, the troubleshooting steps, and how often a step did not help. `proposal` and
 * the others are JSON in the contracts' shapes (schemas/assistant.ts).
 */
export const ticketDrafts = pgTable(
  'ticket_drafts',
  {
    mspId: mspId(),
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    stage: text('stage', { enum: ['questions', 'troubleshooting', 'created', 'pending', 'cancelled'] }).notNull(),
    userMessage: text('user_message').notNull(),
    questions: jsonb('questions').$type<unknown[]>().notNull().default([]),
    answers: jsonb('answers').$type<unknown[]>().notNull().default([]),
    proposal: jsonb('proposal').$type<Record<string, unknown>>().notNull(),
    steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
    didNotHelpCount: integer('did_not_help_count').notNull().default(0),
    ticketRequestId: uuid('ticket_request_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    foreignKey({ name: 'ticket_drafts_user_fk', columns: [t.mspId, t.userId], foreignColumns: [users.mspId, users.id] }).onDelete('cascade'),
    foreignKey({ name: 'ticket_drafts_conversation_fk', columns: [t.mspId, t.conversationId], foreignColumns: [conversations.mspId, conversations.id] }).onDelete('cascade'),
    foreignKey({ name: 'ticket_drafts_request_fk', columns: [t.mspId, t.ticketRequestId], foreignColumns: [ticketRequests.mspId, ticketRequests.id] }),
  ],
);

/**
 * The categoriser trained for one MSP and PSA (issue #9): the serialised model, retrained when
 * tickets close. `trained_on` counts the closed tickets it learned from.
 */
export const categoriserModels = pgTable(
  'categoriser_models',
  {
    mspId: mspId(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    model: jsonb('model').$type<unknown>().notNull(),
    trainedOn: integer('trained_on').notNull(),
    /** The newest closed-ticket time the model has seen: tickets closed later are learnt incrementally. */
    trainedUntil: timestamp('trained_until', { withTimezone: true }),
    macroF1: real('macro_f1'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.psaType] })],
);


/**
 * A subcategory's diagnostic questions as the MSP edited them (issue #9), keyed by the PSA's type and subtype ids
 * (not the board rows, which a board save rewrites). No row: the engine asks the seed defaults for the names.
 */
export const diagnosticQuestionLists = pgTable(
  'diagnostic_question_lists',
  {
    mspId: mspId(),
    psaType: text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull(),
    typeId: integer('type_id').notNull(),
    subtypeId: integer('subtype_id').notNull(),
    questions: jsonb('questions').$type<{ id: string; text: string }[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.psaType, t.typeId, t.subtypeId] })],
);
