import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { msps } from './tenancy';

const psaType = () => text('psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }).notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The MSP's PSA ticketing configuration (01 §3, A-011/A-034): the settings that are not per board.
 * Boards are keyed by the PSA's own ids (ConnectWise board / Autotask queue) under the PSA type,
 * so a switch of PSA never mixes two PSAs' ids.
 */
export const psaTicketingConfigs = pgTable(
  'psa_ticketing_configs',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    psaType: psaType(),
    defaultCompanyId: integer('default_company_id'),
    defaultCompanyName: text('default_company_name'),
    boardTicketSync: jsonb('board_ticket_sync').$type<{ boardId: number; boardName: string }[]>().notNull().default([]),
    syncClientsTypeId: integer('sync_clients_type_id'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.mspId, t.psaType] })],
);

/** One configured board (ConnectWise board or Autotask queue) with its open and closed status. */
export const boardConfigs = pgTable(
  'board_configs',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    psaType: psaType(),
    boardId: integer('board_id').notNull(),
    boardName: text('board_name').notNull(),
    newStatusId: integer('new_status_id'),
    newStatusName: text('new_status_name'),
    closingStatusId: integer('closing_status_id'),
    closingStatusName: text('closing_status_name'),
    /** Autotask only: the ticket type, category and source new tickets get. */
    ticketTypeId: integer('ticket_type_id'),
    ticketTypeLabel: text('ticket_type_label'),
    ticketCategoryValue: integer('ticket_category_value'),
    ticketCategoryLabel: text('ticket_category_label'),
    sourceValue: integer('source_value'),
    sourceLabel: text('source_label'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.psaType, t.boardId] }),
    foreignKey({ columns: [t.mspId, t.psaType], foreignColumns: [psaTicketingConfigs.mspId, psaTicketingConfigs.psaType], name: 'board_configs_config_fk' }).onDelete('cascade'),
  ],
);

/** A board's priorities with their queue scores. */
export const boardPriorities = pgTable(
  'board_priorities',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    psaType: psaType(),
    boardId: integer('board_id').notNull(),
    priorityId: integer('priority_id').notNull(),
    priorityName: text('priority_name').notNull(),
    priorityScore: integer('priority_score').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.psaType, t.boardId, t.priorityId] }),
    foreignKey({ columns: [t.mspId, t.psaType, t.boardId], foreignColumns: [boardConfigs.mspId, boardConfigs.psaType, boardConfigs.boardId], name: 'board_priorities_board_fk' }).onDelete('cascade'),
  ],
);

/** A board's types (ConnectWise types, Autotask issue types), in the editor's order. */
export const boardTypes = pgTable(
  'board_types',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    psaType: psaType(),
    boardId: integer('board_id').notNull(),
    typeId: integer('type_id').notNull(),
    typeName: text('type_name').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.psaType, t.boardId, t.typeId] }),
    foreignKey({ columns: [t.mspId, t.psaType, t.boardId], foreignColumns: [boardConfigs.mspId, boardConfigs.psaType, boardConfigs.boardId], name: 'board_types_board_fk' }).onDelete('cascade'),
  ],
);

/**
 * A subtype under one type (ConnectWise subtypes, Autotask sub-issue types) with what the queue
 * needs: priority and its score, subtype score, dispatch tier and SLA hours (01 §3).
 */
export const boardSubtypes = pgTable(
  'board_subtypes',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    psaType: psaType(),
    boardId: integer('board_id').notNull(),
    typeId: integer('type_id').notNull(),
    subtypeId: integer('subtype_id').notNull(),
    subtypeName: text('subtype_name').notNull(),
    priorityId: integer('priority_id'),
    priorityName: text('priority_name'),
    priorityScore: integer('priority_score').notNull().default(0),
    subtypeScore: integer('subtype_score').notNull().default(0),
    tier: text('tier', { enum: ['Tier1', 'Tier2', 'Tier3'] }).notNull().default('Tier1'),
    slaHours: integer('sla_hours').notNull().default(1),
    typeAssociationIds: jsonb('type_association_ids').$type<number[]>().notNull().default([]),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.psaType, t.boardId, t.typeId, t.subtypeId] }),
    foreignKey({
      columns: [t.mspId, t.psaType, t.boardId, t.typeId],
      foreignColumns: [boardTypes.mspId, boardTypes.psaType, boardTypes.boardId, boardTypes.typeId],
      name: 'board_subtypes_type_fk',
    }).onDelete('cascade'),
  ],
);

/**
 * Synchronized copies of PSA tickets, keyed by (msp_id, psa_type, external_id) (issue #7). The
 * batch sync and the webhooks fill it; the queue, Jarvis and board scoring read it. References to
 * other PSA records are the PSA's ids as text, with the name the PSA gave at sync time.
 */
export const psaTickets = pgTable(
  'psa_tickets',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    psaType: psaType(),
    externalId: text('external_id').notNull(),
    ticketNumber: text('ticket_number'),
    summary: text('summary').notNull(),
    description: text('description'),
    boardExternalId: text('board_external_id'),
    boardName: text('board_name'),
    typeExternalId: text('type_external_id'),
    typeName: text('type_name'),
    subtypeExternalId: text('subtype_external_id'),
    subtypeName: text('subtype_name'),
    itemExternalId: text('item_external_id'),
    itemName: text('item_name'),
    priorityExternalId: text('priority_external_id'),
    priorityName: text('priority_name'),
    statusExternalId: text('status_external_id'),
    statusName: text('status_name'),
    companyExternalId: text('company_external_id'),
    companyName: text('company_name'),
    contactExternalId: text('contact_external_id'),
    contactName: text('contact_name'),
    ownerExternalId: text('owner_external_id'),
    ownerName: text('owner_name'),
    isClosed: boolean('is_closed').notNull().default(false),
    resolution: text('resolution'),
    timeSpentMinutes: integer('time_spent_minutes'),
    psaCreatedAt: timestamp('psa_created_at', { withTimezone: true }),
    psaUpdatedAt: timestamp('psa_updated_at', { withTimezone: true }),
    psaClosedAt: timestamp('psa_closed_at', { withTimezone: true }),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the ticket's notes were last read for its description and resolution (ConnectWise keeps both in notes, not
     * on the ticket row). Null: not read since the copy was written or changed, so the notes reader reads them.
     */
    notesReadAt: timestamp('notes_read_at', { withTimezone: true }),
    /**
     * When the MSP's stored categoriser learnt this closed copy (issue #9): null while it has not, so each closed copy
     * is learnt once, whatever order the copies arrive in. A ConnectWise copy waits for its notes (its description).
     */
    categoriserLearntAt: timestamp('categoriser_learnt_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    // The ConnectWise copies whose notes are still to be read: open ones (being worked) first, then the latest closed.
    index('psa_tickets_notes_pending_idx').on(t.mspId, t.isClosed, t.psaClosedAt.desc()).where(sql`${t.psaType} = 'CONNECTWISE' and ${t.notesReadAt} is null`),
    uniqueIndex('psa_tickets_ext_uq').on(t.mspId, t.psaType, t.externalId),
    index('psa_tickets_board_idx').on(t.mspId, t.psaType, t.boardExternalId, t.isClosed),
    // The queue upkeep's incremental pass reads only the copies synchronized since its last run.
    index('psa_tickets_synced_idx').on(t.mspId, t.syncedAt),
    // The closed, categorised copies the categoriser has still to learn (a small range per MSP, emptied by each learning pass).
    index('psa_tickets_unlearnt_idx').on(t.mspId, t.psaType).where(sql`${t.isClosed} and ${t.categoriserLearntAt} is null and ${t.typeName} is not null and ${t.subtypeName} is not null`),
  ],
);
