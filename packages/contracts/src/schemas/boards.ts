import { z } from 'zod';
import { TIERS } from '../constants';
import { ZCustomDomain } from './common';

/**
 * Board / PSA ticketing configuration (01 §3, R-369–R-374). The editor works on one board at a
 * time in the ConnectWise field names (`boardDetails`); Autotask's `autotaskConfigV2` carries the
 * same content under its own names and is converted by board-config.ts.
 */

export const ZTier = z.enum(TIERS);
export type TTier = z.infer<typeof ZTier>;

const ZPsaId = z.coerce.number().int().positive().max(2_147_483_647);
const ZName = z.string().trim().max(100);
/** Scores and SLA arrive as the editor typed them: non-numeric values are defaulted by the service (01 §5). */
const ZLooseNumber = z.union([z.number(), z.string().max(20), z.null()]).optional();
const ZTempIndex = z.string().trim().min(1).max(64);
/**
 * Ours (decision 012, docs/api-additions.md): the stored board's version as gave it (null: not stored
 * yet). A-034 refuses (409) a board whose version is no longer the stored one; left out, the save is not checked.
 */
const ZBoardVersionInput = z.string().trim().min(1).max(64).nullable().optional();
/** The stored board's version (its last save), null while the board is not stored. */
const ZBoardVersionView = z.string().nullable().optional();

export const ZBoardSubType = z.object({
  subTypeId: ZPsaId.nullable(),
  subTypeName: ZName,
  priorityId: ZPsaId.nullable().default(null),
  priority: z.string().trim().max(100).nullable().default(null),
  priorityScore: ZLooseNumber,
  subTypeScore: ZLooseNumber,
  tier: ZTier.default('Tier1'),
  slaDeadLineInHours: ZLooseNumber,
  isNew: z.boolean().default(false),
  tempIndex: ZTempIndex.nullable().optional(),
  typeAssociationIds: z.array(ZPsaId).max(200).default([]),
});
export type TBoardSubTypeInput = z.input<typeof ZBoardSubType>;

export const ZBoardType = z.object({
  typeId: ZPsaId.nullable(),
  typeName: ZName,
  isNew: z.boolean().default(false),
  tempIndex: ZTempIndex.nullable().optional(),
  mspConnectWiseBoardSubTypes: z.array(ZBoardSubType).max(500).default([]),
});

export const ZBoardPriority = z.object({
  priorityId: ZPsaId,
  priority: z.string().trim().max(100),
  priorityScore: ZLooseNumber,
});

export const ZBoardDetailInput = z.object({
  boardId: ZPsaId.nullable(),
  boardName: z.string().trim().max(100).default(''),
  newCreatingTicketStatus: z.string().trim().max(100).nullable().default(null),
  newCreatingTicketStatusId: ZPsaId.nullable().default(null),
  closingTicketStatus: z.string().trim().max(100).nullable().default(null),
  closingTicketStatusId: ZPsaId.nullable().default(null),
  mspConnectWiseBoardTypes: z.array(ZBoardType).max(300).default([]),
  priorities: z.array(ZBoardPriority).max(50).default([]),
  version: ZBoardVersionInput,
});
export type TBoardDetailInput = z.input<typeof ZBoardDetailInput>;
export type TBoardDetailParsed = z.output<typeof ZBoardDetailInput>;

const ZBoardSync = z.object({ boardId: ZPsaId, boardName: z.string().trim().max(100) });

/** The settings shared by both variants. */
const ZConfigCommon = {
  defaultCompanyId: ZPsaId.nullable().optional(),
  defaultCompanyName: z.string().trim().max(200).nullable().optional(),
  boardTicketSync: z.array(ZBoardSync).max(200).optional(),
  syncClientsTypeId: ZPsaId.nullable().optional(),
};

export const ZConnectWiseConfigInput = z.object({ boardDetails: z.array(ZBoardDetailInput).max(50).default([]), ...ZConfigCommon });

/** Autotask: a queue plays the board, issue types the types, sub-issue types the subtypes (picklists; decisions #17). */
export const ZAutotaskSubIssueType = z.object({
  value: ZPsaId.nullable(),
  label: ZName,
  isNew: z.boolean().default(false),
  priorityValue: ZPsaId.nullable().default(null),
  priorityLabel: z.string().trim().max(100).nullable().default(null),
  priorityScore: ZLooseNumber,
  subTypeScore: ZLooseNumber,
  tier: ZTier.default('Tier1'),
  slaDeadlineInHours: ZLooseNumber,
});
export const ZAutotaskIssueType = z.object({
  value: ZPsaId.nullable(),
  label: ZName,
  isNew: z.boolean().default(false),
  subIssueTypes: z.array(ZAutotaskSubIssueType).max(500).default([]),
});
export const ZAutotaskQueueConfig = z.object({
  queueId: ZPsaId.nullable(),
  queueName: z.string().trim().max(100).default(''),
  newTicketStatusLabel: z.string().trim().max(100).nullable().default(null),
  newTicketStatusId: ZPsaId.nullable().default(null),
  closingStatusLabel: z.string().trim().max(100).nullable().default(null),
  closingStatusId: ZPsaId.nullable().default(null),
  ticketTypeId: ZPsaId.nullable().default(null),
  ticketTypeLabel: z.string().trim().max(100).nullable().default(null),
  ticketCategoryValue: ZPsaId.nullable().default(null),
  ticketCategoryLabel: z.string().trim().max(100).nullable().default(null),
  sourceValue: ZPsaId.nullable().default(null),
  sourceLabel: z.string().trim().max(100).nullable().default(null),
  issueTypes: z.array(ZAutotaskIssueType).max(300).default([]),
  priorities: z.array(ZBoardPriority).max(50).default([]),
  version: ZBoardVersionInput,
});
export type TAutotaskQueueConfigInput = z.input<typeof ZAutotaskQueueConfig>;
export const ZAutotaskConfigInput = z.object({ ticketQueueDetails: z.array(ZAutotaskQueueConfig).max(50).default([]), ...ZConfigCommon });

/** A-034 body: `connectWiseConfig` for ConnectWise, `autotaskConfigV2` for Autotask (the MSP's PSA decides). */
export const ZSaveTicketingConfigurationBody = z.object({
  mspCustomDomain: ZCustomDomain.optional(),
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']).optional(),
  connectWiseConfig: ZConnectWiseConfigInput.optional(),
  autotaskConfigV2: ZAutotaskConfigInput.optional(),
});
export type TSaveTicketingConfigurationBody = z.input<typeof ZSaveTicketingConfigurationBody>;

// ----- What the server returns: every number resolved, every id real. -----

export const ZBoardSubTypeView = z.object({
  subTypeId: z.number().int(),
  subTypeName: z.string(),
  priorityId: z.number().int().nullable(),
  priority: z.string().nullable(),
  priorityScore: z.number(),
  subTypeScore: z.number(),
  tier: ZTier,
  slaDeadLineInHours: z.number(),
  isNew: z.literal(false),
  typeAssociationIds: z.array(z.number().int()),
});
export type TBoardSubTypeView = z.infer<typeof ZBoardSubTypeView>;

export const ZBoardTypeView = z.object({
  typeId: z.number().int(),
  typeName: z.string(),
  isNew: z.literal(false),
  mspConnectWiseBoardSubTypes: z.array(ZBoardSubTypeView),
});
export type TBoardTypeView = z.infer<typeof ZBoardTypeView>;

export const ZBoardPriorityView = z.object({ priorityId: z.number().int(), priority: z.string(), priorityScore: z.number() });
export type TBoardPriorityView = z.infer<typeof ZBoardPriorityView>;

export const ZBoardDetailView = z.object({
  boardId: z.number().int(),
  boardName: z.string(),
  newCreatingTicketStatus: z.string().nullable(),
  newCreatingTicketStatusId: z.number().int().nullable(),
  closingTicketStatus: z.string().nullable(),
  closingTicketStatusId: z.number().int().nullable(),
  mspConnectWiseBoardTypes: z.array(ZBoardTypeView),
  priorities: z.array(ZBoardPriorityView),
  version: ZBoardVersionView,
});
export type TBoardDetailView = z.infer<typeof ZBoardDetailView>;

export const ZAutotaskQueueView = z.object({
  queueId: z.number().int(),
  queueName: z.string(),
  newTicketStatusLabel: z.string().nullable(),
  newTicketStatusId: z.number().int().nullable(),
  closingStatusLabel: z.string().nullable(),
  closingStatusId: z.number().int().nullable(),
  ticketTypeId: z.number().int().nullable(),
  ticketTypeLabel: z.string().nullable(),
  ticketCategoryValue: z.number().int().nullable(),
  ticketCategoryLabel: z.string().nullable(),
  sourceValue: z.number().int().nullable(),
  sourceLabel: z.string().nullable(),
  issueTypes: z.array(
    z.object({
      value: z.number().int(),
      label: z.string(),
      subIssueTypes: z.array(
        z.object({
          value: z.number().int(),
          label: z.string(),
          priorityValue: z.number().int().nullable(),
          priorityLabel: z.string().nullable(),
          priorityScore: z.number(),
          subTypeScore: z.number(),
          tier: ZTier,
          slaDeadlineInHours: z.number(),
        }),
      ),
    }),
  ),
  priorities: z.array(ZBoardPriorityView),
  version: ZBoardVersionView,
});
export type TAutotaskQueueView = z.infer<typeof ZAutotaskQueueView>;

const ZConfigCommonView = {
  defaultCompanyId: z.number().int().nullable(),
  defaultCompanyName: z.string().nullable(),
  boardTicketSync: z.array(z.object({ boardId: z.number().int(), boardName: z.string() })),
  syncClientsTypeId: z.number().int().nullable(),
};

/** A-011 response (and A-034's): exactly one variant is present, the MSP's PSA's. */
export const ZTicketingConfiguration = z.object({
  mspCustomDomain: z.string(),
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']).nullable(),
  isConfigured: z.boolean(),
  connectWiseConfig: z.object({ boardDetails: z.array(ZBoardDetailView), ...ZConfigCommonView }).optional(),
  autotaskConfigV2: z.object({ ticketQueueDetails: z.array(ZAutotaskQueueView), ...ZConfigCommonView }).optional(),
});
export type TTicketingConfiguration = z.infer<typeof ZTicketingConfiguration>;

/** a board's categorisation merged from the PSA and the stored configuration. */
export const ZMergedCategorization = ZBoardDetailView.extend({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']),
  isConfigured: z.boolean(),
  statuses: z.array(z.object({ id: z.number().int(), name: z.string(), isClosed: z.boolean() })),
  /** What the PSA lets the editor do (decisions #17: Autotask maps, never creates). */
  canCreate: z.object({ types: z.boolean(), subTypes: z.boolean(), statuses: z.boolean(), boards: z.boolean() }),
});
export type TMergedCategorization = z.infer<typeof ZMergedCategorization>;

export const ZMergedCategorizationQuery = z.object({
  mspCustomDomain: ZCustomDomain,
  boardId: ZPsaId,
  boardName: z.string().trim().max(100).optional(),
});

export const ZCreateStatusQuery = z.object({
  mspCustomDomain: ZCustomDomain,
  boardId: ZPsaId,
  statusName: z.string().trim().max(50).default(''),
  /** Ours (docs/api-additions.md): whether the new status closes tickets; the spec does not say. */
  isClosed: z.enum(['true', 'false']).optional(),
});
export const ZCreateCategoryQuery = z.object({ mspCustomDomain: ZCustomDomain, boardId: ZPsaId, categoryName: z.string().trim().max(50).default('') });
export const ZCreateSubCategoryQuery = z.object({
  mspCustomDomain: ZCustomDomain,
  boardId: ZPsaId,
  categoryId: ZPsaId,
  subCategoryName: z.string().trim().max(50).default(''),
});

export const ZCreatedStatus = z.object({ statusId: z.number().int(), statusName: z.string(), isClosed: z.boolean(), boardId: z.number().int(), isExisting: z.boolean() });
export const ZCreatedCategory = z.object({ typeId: z.number().int(), typeName: z.string(), boardId: z.number().int(), isExisting: z.boolean() });
export const ZCreatedSubCategory = z.object({
  subTypeId: z.number().int(),
  subTypeName: z.string(),
  typeAssociationIds: z.array(z.number().int()),
  boardId: z.number().int(),
  isExisting: z.boolean(),
});

const ZNamedRef = z.object({ id: ZPsaId.nullable().optional(), name: z.string().trim().max(100).optional() });
/** A-050 body: {name, location, department}; `title` is accepted for `name` (01 §3 calls it title). */
export const ZCreateBoardBody = z.object({
  mspCustomDomain: ZCustomDomain.optional(),
  name: z.string().trim().max(100).optional(),
  title: z.string().trim().max(100).optional(),
  location: ZNamedRef.nullable().optional(),
  department: ZNamedRef.nullable().optional(),
});
/** A-050's answer; `isExisting`: the board an earlier call of this MSP created and that is not set up yet (a retry), not a new one. */
export const ZCreatedBoard = z.object({
  boardId: z.number().int(),
  boardName: z.string(),
  department: z.object({ id: z.number().int(), name: z.string() }),
  location: z.object({ id: z.number().int(), name: z.string() }),
  isExisting: z.boolean(),
});

/** The board template and what A-051 applies: categorisations with sub-categorisations and priorities. */
export const ZBoardTemplateSubType = z.object({
  subTypeName: z.string().trim().min(1).max(50),
  priority: z.string().trim().max(100).optional(),
  tier: ZTier.default('Tier1'),
  slaDeadLineInHours: ZLooseNumber,
  subTypeScore: ZLooseNumber,
});
export const ZBoardTemplate = z.object({
  boardName: z.string(),
  statuses: z.array(z.object({ name: z.string(), isNewTicketStatus: z.boolean().optional(), isClosingStatus: z.boolean().optional() })),
  priorities: z.array(z.object({ name: z.string(), priorityScore: z.number() })),
  types: z.array(z.object({ typeName: z.string(), subTypes: z.array(ZBoardTemplateSubType) })),
});
export type TBoardTemplate = z.infer<typeof ZBoardTemplate>;
export const ZBoardTemplateView = ZBoardTemplate.extend({ templateId: z.string(), about: z.string() });

export const ZDefaultBoardSetupQuery = z.object({ mspCustomDomain: ZCustomDomain, boardId: ZPsaId });
export const ZDefaultBoardSetupBody = z.object({
  statuses: z.array(z.object({ name: z.string().trim().min(1).max(50), isNewTicketStatus: z.boolean().optional(), isClosingStatus: z.boolean().optional() })).max(50).default([]),
  priorities: z.array(z.object({ name: z.string().trim().min(1).max(100), priorityScore: ZLooseNumber })).max(50).default([]),
  types: z.array(z.object({ typeName: z.string().trim().min(1).max(50), subTypes: z.array(ZBoardTemplateSubType).max(200) })).min(1).max(200),
});
export type TDefaultBoardSetupBody = z.output<typeof ZDefaultBoardSetupBody>;
export const ZDefaultBoardSetupResult = z.object({
  board: ZBoardDetailView,
  created: z.object({ statuses: z.number().int(), types: z.number().int(), subTypes: z.number().int() }),
  /** Autotask (decisions #17): template entries with no existing picklist value of that name. */
  unmatched: z.array(z.string()),
});

/**
 * where a suggested number came from. `history`: the MSP's closed tickets; `psa`: the PSA's own
 * priority order; `llm`: the MSP's AI model, for what history could not support (decision 024);
 * `default`: 01 §5 (too little history and no model, or the model did not answer).
 */
export const SCORE_SOURCES = ['history', 'psa', 'llm', 'default'] as const;
export const ZScoreSuggestion = z.object({ value: z.number(), source: z.enum(SCORE_SOURCES), explanation: z.string() });
export type TScoreSuggestion = z.infer<typeof ZScoreSuggestion>;
export const ZSubTypeSuggestion = z.object({
  typeId: z.number().int().nullable(),
  typeName: z.string(),
  subTypeId: z.number().int().nullable(),
  subTypeName: z.string(),
  ticketCount: z.number().int(),
  priorityScore: ZScoreSuggestion,
  subTypeScore: ZScoreSuggestion,
  slaDeadLineInHours: ZScoreSuggestion,
  tier: z.object({ value: ZTier, source: z.enum(SCORE_SOURCES), explanation: z.string() }),
  suggestedPriority: z.object({ priorityId: z.number().int(), priority: z.string() }).nullable(),
});
export type TSubTypeSuggestion = z.infer<typeof ZSubTypeSuggestion>;
const ZEditableSubType = ZBoardSubTypeView.extend({ subTypeId: z.number().int().nullable(), isNew: z.boolean(), tempIndex: z.string().nullable() });
const ZEditableType = z.object({ typeId: z.number().int().nullable(), typeName: z.string(), isNew: z.boolean(), tempIndex: z.string().nullable(), mspConnectWiseBoardSubTypes: z.array(ZEditableSubType) });
/** A board as the editor holds it: numbers resolved, new entries still with temporary ids. */
export const ZEditableBoard = ZBoardDetailView.extend({ boardId: z.number().int().nullable(), mspConnectWiseBoardTypes: z.array(ZEditableType) });
export const ZScoringBody = z.object({ mspCustomDomain: ZCustomDomain.optional(), board: ZBoardDetailInput });
export const ZScoredBoard = z.object({
  board: ZEditableBoard,
  suggestions: z.array(ZSubTypeSuggestion),
  prioritySuggestions: z.array(z.object({ priorityId: z.number().int(), priority: z.string(), priorityScore: ZScoreSuggestion })),
  history: z.object({ ticketCount: z.number().int(), from: z.string().nullable(), to: z.string().nullable() }),
  method: z.literal('ticket-history'),
  /**
   * The MSP's AI model (decision 024), null when it has none. `asked`: subtypes history could not
   * support that went to the model; `applied`: those that took its numbers; `fallbackReason`: why
   * none did (timeout, error, an answer that failed validation), in plain words.
   */
  ai: z
    .object({
      provider: z.enum(['openai', 'anthropic']),
      model: z.string(),
      asked: z.number().int(),
      applied: z.number().int(),
      fallbackReason: z.string().nullable(),
    })
    .nullable(),
});
export type TScoredBoard = z.infer<typeof ZScoredBoard>;

export const ZDefaultCompanyOptions = z.object({ companies: z.array(z.object({ id: z.number().int(), name: z.string() })) });
