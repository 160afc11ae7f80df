import { suggestBoardScores } from '@switchboard/assistant';
import type { TDatabase } from '@switchboard/db';
import {
  MESSAGES,
  SCORE_MAX,
  ZBoardDetailInput,
  boardFromAutotaskQueue,
  boardSaveProblems,
  coerceScore,
  coerceSlaHours,
  isSlaHours,
  normaliseBoard,
  type TBoardProblem,
  type TDefaultBoardSetupBody,
  type TEditableBoard,
  type TEditableSubType,
  type TMergedCategorization,
  type TPsaType,
  type TScoredBoard,
  type TTicketingConfiguration,
} from '@switchboard/contracts';
import type { z } from 'zod';
import type { ZBoardDetailInput as TZBoardDetailInput, ZCreateBoardBody, ZSaveTicketingConfigurationBody } from '@switchboard/contracts';
import type { PsaClient, TPsaStatus } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound, validation } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { findIntegration } from '../integrations/integrations.repository';
import { isIntegrationConfigured } from '../integrations/integrations.presenter';
import { psaNotConfigured, withPsaErrors } from '../integrations/psa-errors';
import { scoreBoard } from './board-scoring';
import { aiScoreRequest, applyAiProposals } from './board-scoring-ai';
import { createLlmEngines } from '../llm-provider/llm-engines';
import { findLlmProvider } from '../llm-provider/llm-provider.repository';
import { boardCategoriesAtPsa, sameName } from './board-categories-at-psa';
import { findBoardTemplate } from './board-templates';
import { boardCapabilities, type TBoardCapabilities } from './boards.policy';
import { mergeCategorization, presentAutotaskQueue, presentStoredBoard, type TPsaBoardData } from './boards.presenter';
import {
  NO_EXTRAS,
  findBoardCreatedHere,
  findBoardSavedAt,
  findLatestConfigPsaType,
  findSyncedCompany,
  findTicketingConfig,
  listClosedTicketHistory,
  listStoredBoards,
  replaceBoard,
  searchSyncedCompanies,
  upsertTicketingConfig,
  type TBoardConfigRow,
  type TBoardExtras,
  type TConfigCommon,
} from './boards.repository';
import { userAuditFields } from '../../lib/audit';

type TSaveBody = z.output<typeof ZSaveTicketingConfigurationBody>;
type TCreateBoardBody = z.output<typeof ZCreateBoardBody>;
type TRealBoard = TEditableBoard & { boardId: number };

type TBoardsDeps = Pick<TAppDeps, 'config' | 'database' | 'audit' | 'now' | 'psaClients'>;

const notAllowedAtPsa = () => new AppError('psa_validation', MESSAGES.boards.autotaskCreateNotAllowed, { flags: { notSupported: true } });
const problemsError = (problems: TBoardProblem[]) => validation(problems[0]?.reason ?? MESSAGES.boards.saveFailed, problems);

/** Ours (the spec words no such case): one PSA record listed twice would store two rows under one key. */
export const REPEATED_ENTRY_MESSAGES = {
  type: 'The same type appears twice on this board. Remove one of them.',
  subType: 'The same subtype appears twice under one type. Remove one of them.',
  priority: 'The same priority appears twice on this board. Remove one of them.',
} as const;

/**
 * A type, a subtype of one type, or a priority listed twice by its PSA id (the names may differ, so the name checks of
 * boardSaveProblems miss it): what the board's primary keys would refuse with a 500, said in plain words on the field.
 */
function repeatedEntryProblems(board: TEditableBoard): TBoardProblem[] {
  const problems: TBoardProblem[] = [];
  // The first of a repeated id is fine; each later one is the problem. A new entry is found by its name, not its id.
  const repeatsOf = (ids: (number | null)[]) => ids.flatMap((id, index) => (id !== null && ids.indexOf(id) !== index ? [index] : []));
  const types = board.mspConnectWiseBoardTypes;
  for (const index of repeatsOf(types.map((type) => (type.isNew ? null : type.typeId)))) problems.push({ name: `mspConnectWiseBoardTypes.${index}.typeId`, reason: REPEATED_ENTRY_MESSAGES.type });
  types.forEach((type, typeIndex) => {
    for (const index of repeatsOf(type.mspConnectWiseBoardSubTypes.map((subType) => (subType.isNew ? null : subType.subTypeId)))) {
      problems.push({ name: `mspConnectWiseBoardTypes.${typeIndex}.mspConnectWiseBoardSubTypes.${index}.subTypeId`, reason: REPEATED_ENTRY_MESSAGES.subType });
    }
  });
  for (const index of repeatsOf(board.priorities.map((priority) => priority.priorityId))) problems.push({ name: `priorities.${index}.priorityId`, reason: REPEATED_ENTRY_MESSAGES.priority });
  return problems;
}

/**
 * A-051's numbers as the board would store them (01 §5 defaults for what is not a number), each problem on its place
 * in the request: checked before any PSA call, so a bad body changes nothing at the PSA.
 */
function setupBodyProblems(body: TDefaultBoardSetupBody, psaType: TPsaType): TBoardProblem[] {
  const isScore = (value: number) => Number.isInteger(value) && value >= 0 && value <= SCORE_MAX;
  const problems: TBoardProblem[] = [];
  body.priorities.forEach((priority, index) => {
    if (!isScore(coerceScore(priority.priorityScore))) problems.push({ name: `priorities.${index}.priorityScore`, reason: MESSAGES.boards.scoreRange });
  });
  body.types.forEach((type, typeIndex) =>
    type.subTypes.forEach((subType, subIndex) => {
      const path = `types.${typeIndex}.subTypes.${subIndex}`;
      if (!isScore(coerceScore(subType.subTypeScore))) problems.push({ name: `${path}.subTypeScore`, reason: MESSAGES.boards.scoreRange });
      if (!isSlaHours(coerceSlaHours(subType.slaDeadLineInHours, psaType))) problems.push({ name: `${path}.slaDeadLineInHours`, reason: MESSAGES.boards.slaRange });
    }),
  );
  return problems;
}

const extrasOf = (row: TBoardConfigRow): TBoardExtras => ({
  ticketTypeId: row.ticketTypeId,
  ticketTypeLabel: row.ticketTypeLabel,
  ticketCategoryValue: row.ticketCategoryValue,
  ticketCategoryLabel: row.ticketCategoryLabel,
  sourceValue: row.sourceValue,
  sourceLabel: row.sourceLabel,
});

/** Board screen, board editor and board setup (A-011, A-023, A-030, A-034, A-047…A-052). */
export function createBoardsService(deps: TBoardsDeps) {
  const db = deps.database.db;
  const engines = createLlmEngines(deps);

  const audit = (txOrDb: TDatabase, actor: TActor, action: string, target: string, details: Record<string, unknown>) =>
    deps.audit.record(txOrDb, { ...userAuditFields(actor), action, target, outcome: 'success', details });

  /** The connected PSA's type; 409 psa_not_configured when the MSP has not saved its keys. */
  async function connectedPsaType(mspId: string): Promise<TPsaType> {
    const integration = await findIntegration(db, mspId);
    if (!integration || !isIntegrationConfigured(integration)) throw psaNotConfigured();
    return integration.psaType;
  }

  async function connected(mspId: string): Promise<{ psaType: TPsaType; client: PsaClient }> {
    const psaType = await connectedPsaType(mspId);
    return { psaType, client: await deps.psaClients.forMsp(mspId) };
  }

  /** One board's reference data at the PSA; 404 when the PSA has no such board (queue). */
  async function readPsaBoard(client: PsaClient, psaType: TPsaType, boardId: number): Promise<TPsaBoardData> {
    // ConnectWise keeps types, subtypes and statuses per board; Autotask has one global picklist each.
    const scope = psaType === 'CONNECTWISE' ? boardId : null;
    // The board first: asking ConnectWise for an unknown board's types would only say "not found".
    const board = (await withPsaErrors(() => client.listBoards())).find((candidate) => candidate.id === boardId);
    if (!board) throw new AppError('psa_not_found', MESSAGES.boards.boardUnknown);
    const [types, subtypes, priorities, statuses] = await withPsaErrors(() =>
      Promise.all([client.listTypes(scope), client.listSubtypes(scope), client.listPriorities(), client.listStatuses(scope)]),
    );
    return { boardId, boardName: board.name, types, subtypes, priorities, statuses };
  }

  /** the stored configuration in the MSP's PSA variant. */
  async function getConfiguration(actor: Pick<TActor, 'mspId' | 'mspCustomDomain'>): Promise<TTicketingConfiguration> {
    const integration = await findIntegration(db, actor.mspId);
    const psaType = integration?.psaType ?? (await findLatestConfigPsaType(db, actor.mspId)) ?? null;
    // 01 §1: the first PSA kind is the default when nothing says otherwise.
    const effective: TPsaType = psaType ?? 'CONNECTWISE';
    const [config, stored] = await Promise.all([findTicketingConfig(db, actor.mspId, effective), listStoredBoards(db, actor.mspId, effective)]);
    const common = {
      defaultCompanyId: config?.defaultCompanyId ?? null,
      defaultCompanyName: config?.defaultCompanyName ?? null,
      boardTicketSync: config?.boardTicketSync ?? [],
      syncClientsTypeId: config?.syncClientsTypeId ?? null,
    };
    const base = { mspCustomDomain: actor.mspCustomDomain, psaType, isConfigured: stored.length > 0 };
    if (effective === 'CONNECTWISE') return { ...base, connectWiseConfig: { boardDetails: stored.map(presentStoredBoard), ...common } };
    return { ...base, autotaskConfigV2: { ticketQueueDetails: stored.map((entry) => presentAutotaskQueue(presentStoredBoard(entry), extrasOf(entry.board))), ...common } };
  }

  /** The boards of an A-034 body in the editor's shape, with Autotask's extra queue settings. */
  function boardsOfBody(body: TSaveBody, psaType: TPsaType): { boards: { board: TEditableBoard; extras: TBoardExtras; path: string }[]; common: TConfigCommon } {
    const wrongVariant = psaType === 'CONNECTWISE' ? body.autotaskConfigV2 : body.connectWiseConfig;
    const variant = psaType === 'CONNECTWISE' ? body.connectWiseConfig : body.autotaskConfigV2;
    if ((body.psaType !== undefined && body.psaType !== psaType) || (variant === undefined && wrongVariant !== undefined)) {
      throw validation(MESSAGES.boards.wrongPsaVariant, [{ name: 'psaType', reason: MESSAGES.boards.wrongPsaVariant }]);
    }
    const common: TConfigCommon = {
      defaultCompanyId: variant?.defaultCompanyId,
      defaultCompanyName: variant?.defaultCompanyName,
      boardTicketSync: variant?.boardTicketSync,
      syncClientsTypeId: variant?.syncClientsTypeId,
    };
    if (body.connectWiseConfig && psaType === 'CONNECTWISE') {
      return { common, boards: body.connectWiseConfig.boardDetails.map((board, index) => ({ board: normaliseBoard(board, psaType), extras: NO_EXTRAS, path: `connectWiseConfig.boardDetails.${index}` })) };
    }
    const queues = body.autotaskConfigV2?.ticketQueueDetails ?? [];
    return {
      common,
      boards: queues.map((queue, index) => ({
        board: normaliseBoard(parseBoard(boardFromAutotaskQueue(queue)), psaType),
        extras: {
          ticketTypeId: queue.ticketTypeId,
          ticketTypeLabel: queue.ticketTypeLabel,
          ticketCategoryValue: queue.ticketCategoryValue,
          ticketCategoryLabel: queue.ticketCategoryLabel,
          sourceValue: queue.sourceValue,
          sourceLabel: queue.sourceLabel,
        },
        path: `autotaskConfigV2.ticketQueueDetails.${index}`,
      })),
    };
  }

  /**
   * Checks every reference of a board against the PSA, then creates its new types and subtypes
   * there (ConnectWise; an existing one of the same name is reused, so a retried save creates no
   * duplicate, and made active and associated with its type so A-030 shows it) and returns the
   * board with only real ids and the PSA's names.
   */
  async function resolveAtPsa(
    client: PsaClient,
    psaType: TPsaType,
    board: TRealBoard,
    path: string,
  ): Promise<{ board: TRealBoard; created: { types: number; subTypes: number }; updated: { types: number; subTypes: number } }> {
    const psa = await readPsaBoard(client, psaType, board.boardId);
    // An inactive status is not offered by A-030 and new tickets cannot take it: refused like an unknown one.
    const open = psa.statuses.find((status) => status.id === board.newCreatingTicketStatusId && status.isActive);
    const closed = psa.statuses.find((status) => status.id === board.closingTicketStatusId && status.isActive);
    if (!open) throw validation(MESSAGES.boards.openStatusUnknown, [{ name: `${path}.newCreatingTicketStatusId`, reason: MESSAGES.boards.openStatusUnknown }]);
    if (!closed) throw validation(MESSAGES.boards.closedStatusUnknown, [{ name: `${path}.closingTicketStatusId`, reason: MESSAGES.boards.closedStatusUnknown }]);
    const priorityOf = (id: number | null, at: string) => {
      if (id === null) return null;
      const priority = psa.priorities.find((candidate) => candidate.id === id);
      if (!priority) throw validation(MESSAGES.boards.priorityUnknown, [{ name: at, reason: MESSAGES.boards.priorityUnknown }]);
      return priority;
    };
    // Every existing reference is checked before anything is created, so a bad save changes nothing at the PSA.
    board.mspConnectWiseBoardTypes.forEach((type, typeIndex) => {
      const typePath = `${path}.mspConnectWiseBoardTypes.${typeIndex}`;
      // An inactive type (a switched-off ConnectWise type, an inactive Autotask issue type) is not offered by A-030:
      // stored, the queue and Jarvis would go on using it (decision 012), so it is refused like an unknown one.
      if (!type.isNew && !psa.types.some((candidate) => candidate.id === type.typeId && candidate.isActive)) throw validation(MESSAGES.boards.typeUnknown, [{ name: `${typePath}.typeId`, reason: MESSAGES.boards.typeUnknown }]);
      type.mspConnectWiseBoardSubTypes.forEach((subType, subIndex) => {
        const subPath = `${typePath}.mspConnectWiseBoardSubTypes.${subIndex}`;
        // An existing subtype must still be active and associated with this type at the PSA (A-030 lists it only then),
        // or the board would store it where tickets cannot use it.
        const isUsableHere = (candidate: (typeof psa.subtypes)[number]) => candidate.id === subType.subTypeId && candidate.isActive && !type.isNew && type.typeId !== null && candidate.typeIds.includes(type.typeId);
        if (!subType.isNew && !psa.subtypes.some(isUsableHere)) {
          throw validation(MESSAGES.boards.subTypeUnknown, [{ name: `${subPath}.subTypeId`, reason: MESSAGES.boards.subTypeUnknown }]);
        }
        priorityOf(subType.priorityId, `${subPath}.priorityId`);
      });
    });
    board.priorities.forEach((priority, index) => priorityOf(priority.priorityId, `${path}.priorities.${index}.priorityId`));

    const can = boardCapabilities(psaType);
    const categories = boardCategoriesAtPsa(client, board.boardId, can, psa);

    const types: TEditableBoard['mspConnectWiseBoardTypes'] = [];
    for (const [typeIndex, type] of board.mspConnectWiseBoardTypes.entries()) {
      const typePath = `${path}.mspConnectWiseBoardTypes.${typeIndex}`;
      const typeAtPsa = type.isNew || type.typeId === null ? await categories.typeNamed(type.typeName.trim(), `${typePath}.typeName`) : categories.typeById(type.typeId);
      // Unreachable: every existing type id was checked above.
      if (!typeAtPsa) throw validation(MESSAGES.boards.typeUnknown, [{ name: `${typePath}.typeId`, reason: MESSAGES.boards.typeUnknown }]);
      const subTypes: TEditableSubType[] = [];
      for (const [subIndex, subType] of type.mspConnectWiseBoardSubTypes.entries()) {
        let subTypeId = subType.subTypeId;
        let subTypeName = subType.subTypeName.trim();
        if (subType.isNew || subTypeId === null) {
          const subtype = await categories.subtypeNamed(subTypeName, typeAtPsa, `${typePath}.mspConnectWiseBoardSubTypes.${subIndex}.subTypeName`);
          subTypeId = subtype.id;
          subTypeName = subtype.name;
        } else {
          subTypeName = categories.subtypeById(subTypeId)?.name ?? subTypeName;
        }
        const priority = priorityOf(subType.priorityId, '');
        subTypes.push({ ...subType, subTypeId, subTypeName, priorityId: priority?.id ?? null, priority: priority?.name ?? null, isNew: false, tempIndex: null });
      }
      types.push({ typeId: typeAtPsa.id, typeName: typeAtPsa.name, isNew: false, tempIndex: null, mspConnectWiseBoardSubTypes: subTypes });
    }
    // Associations as the PSA holds them after every change above (a later type may have added itself to a subtype).
    const withAssociations = types.map((type) => ({
      ...type,
      mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((subType) => ({ ...subType, typeAssociationIds: categories.subtypeById(subType.subTypeId)?.typeIds ?? subType.typeAssociationIds })),
    }));
    return {
      created: categories.created,
      updated: categories.updated,
      board: {
        ...board,
        boardName: psa.boardName,
        newCreatingTicketStatus: open.name,
        newCreatingTicketStatusId: open.id,
        closingTicketStatus: closed.name,
        closingTicketStatusId: closed.id,
        mspConnectWiseBoardTypes: withAssociations,
        priorities: board.priorities.map((priority) => ({ ...priority, priority: priorityOf(priority.priorityId, '')?.name ?? priority.priority })),
      },
    };
  }

  /** saves the configuration; new types and subtypes are created at the PSA first and come back real. */
  async function saveConfiguration(actor: TActor, body: TSaveBody): Promise<TTicketingConfiguration> {
    const psaType = await connectedPsaType(actor.mspId);
    const { boards, common } = boardsOfBody(body, psaType);
    const problems = boards.flatMap(({ board, path }) => [...boardSaveProblems(board, psaType), ...repeatedEntryProblems(board)].map((problem) => ({ name: `${path}.${problem.name}`, reason: problem.reason })));
    if (problems.length > 0) throw problemsError(problems);
    const seen = new Set<number>();
    for (const { board, path } of boards) {
      if (board.boardId !== null && seen.has(board.boardId)) throw validation(MESSAGES.boards.duplicateBoard, [{ name: `${path}.boardId`, reason: MESSAGES.boards.duplicateBoard }]);
      if (board.boardId !== null) seen.add(board.boardId);
    }
    if (common.defaultCompanyId !== undefined && common.defaultCompanyId !== null) {
      const company = await findSyncedCompany(db, actor.mspId, psaType, common.defaultCompanyId);
      if (!company) throw validation(MESSAGES.boards.companyUnknown, [{ name: 'defaultCompanyId', reason: MESSAGES.boards.companyUnknown }]);
      common.defaultCompanyName = company.name;
    } else if (common.defaultCompanyId === null) {
      common.defaultCompanyName = null;
    }

    // Before the PSA is touched, so a stale save creates nothing there either; checked again under lock below.
    await assertBoardsUnchanged(db, actor.mspId, psaType, boards, false);

    // PSA calls happen before the transaction: no network inside one (STYLE).
    const resolved: { board: TRealBoard; extras: TBoardExtras }[] = [];
    const created = { types: 0, subTypes: 0 };
    const updated = { types: 0, subTypes: 0 };
    if (boards.length > 0) {
      const client = await deps.psaClients.forMsp(actor.mspId);
      for (const { board, extras, path } of boards) {
        if (board.boardId === null) continue;
        const result = await resolveAtPsa(client, psaType, { ...board, boardId: board.boardId }, path);
        // A new type or subtype may turn out to be one listed beside it under another name (its PSA name).
        const repeats = repeatedEntryProblems(result.board).map((problem) => ({ name: `${path}.${problem.name}`, reason: problem.reason }));
        if (repeats.length > 0) throw problemsError(repeats);
        resolved.push({ board: result.board, extras });
        created.types += result.created.types;
        created.subTypes += result.created.subTypes;
        updated.types += result.updated.types;
        updated.subTypes += result.updated.subTypes;
      }
    }
    const now = deps.now();
    await db.transaction(async (tx) => {
      const savedAt = await assertBoardsUnchanged(tx, actor.mspId, psaType, boards, true);
      await upsertTicketingConfig(tx, actor.mspId, psaType, common, now);
      for (const { board, extras } of resolved) {
        // The version must change with every save, even two within one millisecond.
        const previous = savedAt.get(board.boardId) ?? null;
        await replaceBoard(tx, actor.mspId, psaType, board, extras, previous !== null && previous >= now ? new Date(previous.getTime() + 1) : now);
      }
      await audit(tx, actor, 'board.configuration.save', psaType, {
        boards: resolved.map(({ board }) => ({ boardId: board.boardId, types: board.mspConnectWiseBoardTypes.length })),
        created,
        updated,
        ...(common.defaultCompanyId !== undefined ? { defaultCompanyId: common.defaultCompanyId } : {}),
      });
    });
    return getConfiguration(actor);
  }

  /**
   * Decision 044: a board sent with the version gave it is refused (409) when another save has changed
   * the stored board since (or stored it, for version null); a board sent without a version is not checked (older
   * clients). Answers when each board was last saved.
   */
  async function assertBoardsUnchanged(txOrDb: TDatabase, mspId: string, psaType: TPsaType, boards: { board: TEditableBoard }[], isLocked: boolean): Promise<Map<number, Date | null>> {
    const savedAt = new Map<number, Date | null>();
    for (const { board } of boards) {
      if (board.boardId === null) continue;
      const at = await findBoardSavedAt(txOrDb, mspId, psaType, board.boardId, isLocked);
      savedAt.set(board.boardId, at);
      if (board.version === undefined) continue;
      const sent = board.version === null ? null : Date.parse(board.version);
      if (sent !== (at?.getTime() ?? null)) throw conflict(MESSAGES.boards.staleSave);
    }
    return savedAt;
  }

  /** the board as the PSA has it now, with the stored scores, tiers and SLA merged in. */
  async function getMergedCategorization(actor: TActor, boardId: number): Promise<TMergedCategorization> {
    const { psaType, client } = await connected(actor.mspId);
    const psa = await readPsaBoard(client, psaType, boardId);
    const [stored] = await listStoredBoards(db, actor.mspId, psaType, [boardId]);
    return {
      ...mergeCategorization(psa, stored, psaType),
      psaType,
      isConfigured: stored !== undefined,
      statuses: psa.statuses.filter((status) => status.isActive).map((status) => ({ id: status.id, name: status.name, isClosed: status.isClosed })),
      canCreate: boardCapabilities(psaType),
    };
  }

  async function assertMayCreate(mspId: string, what: 'statuses' | 'types' | 'subTypes' | 'boards'): Promise<{ client: PsaClient; can: TBoardCapabilities }> {
    const { psaType, client } = await connected(mspId);
    const can = boardCapabilities(psaType);
    if (!can[what]) throw notAllowedAtPsa();
    return { client, can };
  }

  /**
   * a status on a ConnectWise board. One of that name is reused only when it is active and closes tickets as
   * asked; an inactive one or one of the other kind is a 400 that names it (the PSA refuses a second of the name).
   */
  async function createStatus(actor: TActor, input: { boardId: number; statusName: string; isClosed: boolean }) {
    if (input.statusName === '') throw validation(MESSAGES.boards.statusNameRequired, [{ name: 'statusName', reason: MESSAGES.boards.statusNameRequired }]);
    const { client } = await assertMayCreate(actor.mspId, 'statuses');
    const statuses = await withPsaErrors(() => client.listStatuses(input.boardId));
    const existing: TPsaStatus | undefined = statuses.find((status) => sameName(status.name, input.statusName));
    if (existing && !existing.isActive) {
      const reason = MESSAGES.boards.statusNameInactive(existing.name);
      throw validation(reason, [{ name: 'statusName', reason }]);
    }
    if (existing && existing.isClosed !== input.isClosed) {
      const reason = MESSAGES.boards.statusNameOtherKind(existing.name, existing.isClosed);
      throw validation(reason, [{ name: 'statusName', reason }]);
    }
    const status = existing ?? (await withPsaErrors(() => client.createStatus(input.boardId, { name: input.statusName, isClosed: input.isClosed })));
    if (!existing) await audit(db, actor, 'board.status.create', String(input.boardId), { statusId: status.id, name: status.name, isClosed: status.isClosed });
    return { statusId: status.id, statusName: status.name, isClosed: status.isClosed, boardId: input.boardId, isExisting: existing !== undefined };
  }

  /** a type (category) on a ConnectWise board (reused when one of that name exists). */
  async function createCategory(actor: TActor, input: { boardId: number; categoryName: string }) {
    if (input.categoryName === '') throw validation(MESSAGES.boards.categoryNameRequired, [{ name: 'categoryName', reason: MESSAGES.boards.categoryNameRequired }]);
    const { client } = await assertMayCreate(actor.mspId, 'types');
    const types = await withPsaErrors(() => client.listTypes(input.boardId));
    const existing = types.find((type) => sameName(type.name, input.categoryName));
    const type = existing ?? (await withPsaErrors(() => client.createType(input.boardId, { name: input.categoryName })));
    if (!existing) await audit(db, actor, 'board.type.create', String(input.boardId), { typeId: type.id, name: type.name });
    return { typeId: type.id, typeName: type.name, boardId: input.boardId, isExisting: existing !== undefined };
  }

  /**
   * a subtype (subcategory) under a type of a ConnectWise board. One of that name already on the board (under
   * this type or another, or inactive) is answered as existing, associated with this type and active at the PSA:
   * ConnectWise refuses a second subtype of a name on one board.
   */
  async function createSubCategory(actor: TActor, input: { boardId: number; categoryId: number; subCategoryName: string }) {
    if (input.subCategoryName === '') throw validation(MESSAGES.boards.subCategoryNameRequired, [{ name: 'subCategoryName', reason: MESSAGES.boards.subCategoryNameRequired }]);
    const { client, can } = await assertMayCreate(actor.mspId, 'subTypes');
    const [types, subtypes] = await withPsaErrors(() => Promise.all([client.listTypes(input.boardId), client.listSubtypes(input.boardId)]));
    const type = types.find((candidate) => candidate.id === input.categoryId);
    if (!type) throw new AppError('psa_not_found', MESSAGES.boards.typeUnknown);
    const categories = boardCategoriesAtPsa(client, input.boardId, can, { types, subtypes });
    const subtype = await categories.subtypeNamed(input.subCategoryName, type, 'subCategoryName');
    const isExisting = categories.created.subTypes === 0;
    if (!isExisting) await audit(db, actor, 'board.subtype.create', String(input.boardId), { subTypeId: subtype.id, name: subtype.name, typeId: input.categoryId });
    else if (categories.updated.subTypes > 0) await audit(db, actor, 'board.subtype.link', String(input.boardId), { subTypeId: subtype.id, subTypeName: subtype.name, typeId: input.categoryId, typeIds: subtype.typeIds });
    return { subTypeId: subtype.id, subTypeName: subtype.name, typeAssociationIds: subtype.typeIds, boardId: input.boardId, isExisting };
  }

  /** a custom board at the PSA (title, department, location; 01 §3, §5); a name the PSA has is refused, but for a retry (below). */
  async function createBoard(actor: TActor, body: TCreateBoardBody) {
    const name = (body.name ?? body.title ?? '').trim();
    if (name === '') throw validation(MESSAGES.boards.boardTitleRequired, [{ name: 'name', reason: MESSAGES.boards.boardTitleRequired }]);
    const departmentId = body.department?.id ?? null;
    const locationId = body.location?.id ?? null;
    if (departmentId === null) throw validation(MESSAGES.boards.departmentRequired, [{ name: 'department', reason: MESSAGES.boards.departmentRequired }]);
    if (locationId === null) throw validation(MESSAGES.boards.locationRequired, [{ name: 'location', reason: MESSAGES.boards.locationRequired }]);
    const { client } = await assertMayCreate(actor.mspId, 'boards');
    const [boards, departments, locations] = await withPsaErrors(() => Promise.all([client.listBoards(), client.listDepartments(), client.listLocations()]));
    const department = departments.find((candidate) => candidate.id === departmentId);
    const location = locations.find((candidate) => candidate.id === locationId);
    if (!department) throw validation(MESSAGES.boards.departmentUnknown, [{ name: 'department', reason: MESSAGES.boards.departmentUnknown }]);
    if (!location) throw validation(MESSAGES.boards.locationUnknown, [{ name: 'location', reason: MESSAGES.boards.locationUnknown }]);
    const named = boards.find((board) => sameName(board.name, name));
    if (named) {
      if (!(await isUnsetBoardCreatedHere(actor.mspId, named.id, { departmentId, locationId }))) throw conflict(MESSAGES.boards.boardNameTaken);
      return { boardId: named.id, boardName: named.name, department, location, isExisting: true };
    }
    const board = await withPsaErrors(() => client.createBoard({ name, departmentId, locationId }));
    await audit(db, actor, 'board.create', String(board.id), { name: board.name, departmentId, locationId });
    return { boardId: board.id, boardName: board.name, department, location, isExisting: false };
  }

  /**
   * Whether a board of the asked name is the one an earlier A-050 of this MSP created with the same department and
   * location and that was never set up here (A-051 or a save would have stored it): the same request sent again after
   * its template step failed, or after its answer was lost. Answering that board lets the retry fill it instead of
   * leaving it empty beside a second board; any other board of the name stays refused.
   */
  async function isUnsetBoardCreatedHere(mspId: string, boardId: number, asked: { departmentId: number; locationId: number }): Promise<boolean> {
    const createdHere = await findBoardCreatedHere(db, mspId, boardId);
    if (!createdHere || createdHere.departmentId !== asked.departmentId || createdHere.locationId !== asked.locationId) return false;
    const psaType = await connectedPsaType(mspId);
    return (await listStoredBoards(db, mspId, psaType, [boardId])).length === 0;
  }

  /** a board template by its name. */
  function getTemplate(templateId: string) {
    const template = findBoardTemplate(templateId);
    if (!template) throw notFound(MESSAGES.boards.templateNotFound);
    return template;
  }

  /**
   * applies categorisations (e.g. the A-023 template) to a board: statuses, types and
   * subtypes are found by name or created (ConnectWise), or only found (Autotask, decisions #17,
   * the rest reported as unmatched); priorities map by name, else by position in the PSA's order.
   */
  async function applyDefaultSetup(actor: TActor, boardId: number, body: TDefaultBoardSetupBody) {
    const { psaType, client } = await connected(actor.mspId);
    const bodyProblems = setupBodyProblems(body, psaType);
    if (bodyProblems.length > 0) throw problemsError(bodyProblems);
    const can = boardCapabilities(psaType);
    const psa = await readPsaBoard(client, psaType, boardId);
    let createdStatuses = 0;
    const unmatched: string[] = [];

    const statuses = [...psa.statuses];
    let open: TPsaStatus | undefined;
    let closed: TPsaStatus | undefined;
    for (const wanted of body.statuses) {
      let status = statuses.find((candidate) => sameName(candidate.name, wanted.name));
      if (!status && can.statuses) {
        status = await withPsaErrors(() => client.createStatus(boardId, { name: wanted.name, isClosed: wanted.isClosingStatus === true }));
        statuses.push(status);
        createdStatuses += 1;
      }
      if (!status) unmatched.push(`Status: ${wanted.name}`);
      if (wanted.isNewTicketStatus === true && status) open = status;
      if (wanted.isClosingStatus === true && status) closed = status;
    }
    open ??= statuses.find((status) => status.isDefault && !status.isClosed) ?? statuses.find((status) => !status.isClosed);
    closed ??= statuses.find((status) => status.isClosed);

    const psaPriorities = [...psa.priorities].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
    const priorityFor = (name: string | undefined, index?: number) => {
      if (name === undefined) return undefined;
      const byName = psaPriorities.find((candidate) => sameName(candidate.name, name));
      if (byName) return byName;
      const position = index ?? body.priorities.findIndex((priority) => sameName(priority.name, name));
      return position >= 0 ? psaPriorities[position] : undefined;
    };
    const priorityScores = new Map<number, number>();
    body.priorities.forEach((priority, index) => {
      const psaPriority = priorityFor(priority.name, index);
      if (psaPriority) priorityScores.set(psaPriority.id, coerceScore(priority.priorityScore));
      else unmatched.push(`Priority: ${priority.name}`);
    });

    // ConnectWise: found by name (reactivated, or a subtype of the board linked to this type), else created.
    // Autotask (decisions #17): only found, by name and under the type; the rest is reported unmatched.
    const categories = boardCategoriesAtPsa(client, boardId, can, psa);
    const boardTypes: TEditableBoard['mspConnectWiseBoardTypes'] = [];
    for (const [typeIndex, wantedType] of body.types.entries()) {
      const typePath = `types.${typeIndex}`;
      const type = can.types ? await categories.typeNamed(wantedType.typeName, `${typePath}.typeName`) : psa.types.find((candidate) => sameName(candidate.name, wantedType.typeName));
      if (!type) {
        unmatched.push(`Type: ${wantedType.typeName}`);
        continue;
      }
      const subTypes: TEditableSubType[] = [];
      for (const [subIndex, wantedSub] of wantedType.subTypes.entries()) {
        const subtype = can.subTypes
          ? await categories.subtypeNamed(wantedSub.subTypeName, type, `${typePath}.subTypes.${subIndex}.subTypeName`)
          : psa.subtypes.find((candidate) => sameName(candidate.name, wantedSub.subTypeName) && candidate.typeIds.includes(type.id));
        if (!subtype) {
          unmatched.push(`Subtype: ${wantedType.typeName} / ${wantedSub.subTypeName}`);
          continue;
        }
        const priority = priorityFor(wantedSub.priority);
        subTypes.push({
          subTypeId: subtype.id,
          subTypeName: subtype.name,
          priorityId: priority?.id ?? null,
          priority: priority?.name ?? null,
          priorityScore: priority ? (priorityScores.get(priority.id) ?? 0) : 0,
          subTypeScore: coerceScore(wantedSub.subTypeScore),
          tier: wantedSub.tier,
          slaDeadLineInHours: coerceSlaHours(wantedSub.slaDeadLineInHours, psaType),
          isNew: false,
          tempIndex: null,
          typeAssociationIds: subtype.typeIds,
        });
      }
      boardTypes.push({ typeId: type.id, typeName: type.name, isNew: false, tempIndex: null, mspConnectWiseBoardSubTypes: subTypes });
    }
    // Associations as the PSA holds them after every call above (a later type may have linked itself to a subtype).
    const withAssociations = boardTypes.map((type) => ({
      ...type,
      mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((subType) => ({ ...subType, typeAssociationIds: categories.subtypeById(subType.subTypeId)?.typeIds ?? subType.typeAssociationIds })),
    }));
    const created = { statuses: createdStatuses, ...categories.created };
    const board: TRealBoard = {
      boardId,
      boardName: psa.boardName,
      newCreatingTicketStatus: open?.name ?? null,
      newCreatingTicketStatusId: open?.id ?? null,
      closingTicketStatus: closed?.name ?? null,
      closingTicketStatusId: closed?.id ?? null,
      mspConnectWiseBoardTypes: withAssociations,
      priorities: psaPriorities.map((priority) => ({ priorityId: priority.id, priority: priority.name, priorityScore: priorityScores.get(priority.id) ?? 0 })),
    };
    const problems = boardSaveProblems(board, psaType);
    if (problems.length > 0) throw problemsError(problems);
    const now = deps.now();
    await db.transaction(async (tx) => {
      await upsertTicketingConfig(tx, actor.mspId, psaType, {}, now);
      await replaceBoard(tx, actor.mspId, psaType, board, NO_EXTRAS, now);
      await audit(tx, actor, 'board.default-setup', String(boardId), { created, updated: categories.updated, unmatched: unmatched.length });
    });
    const [stored] = await listStoredBoards(db, actor.mspId, psaType, [boardId]);
    if (!stored) throw notFound();
    return { board: presentStoredBoard(stored), created, unmatched };
  }

  /** scores suggested from the MSP's own closed tickets of this board, each with its source. */
  async function scoreFromHistory(actor: TActor, input: z.output<typeof TZBoardDetailInput>): Promise<TScoredBoard> {
    const { psaType, client } = await connected(actor.mspId);
    const board = normaliseBoard(input, psaType);
    if (board.boardId === null) throw validation(MESSAGES.boards.noBoardSelected, [{ name: 'board.boardId', reason: MESSAGES.boards.noBoardSelected }]);
    const [priorities, history] = await Promise.all([withPsaErrors(() => client.listPriorities()), listClosedTicketHistory(db, actor.mspId, psaType, board.boardId)]);
    const scored = scoreBoard(board, history, priorities, psaType);
    return withAiSuggestions(actor, board.boardId, scored, priorities);
  }

  /**
   * Decision 024: the MSP's AI model, when it has one, proposes the numbers history could not support;
   * on a timeout, an error or an answer that fails validation the history and default numbers stand
   * and `ai.fallbackReason` says why. Every proposal asked for is audited (engine, model).
   */
  async function withAiSuggestions(actor: TActor, boardId: number, scored: TScoredBoard, priorities: Parameters<typeof scoreBoard>[2]): Promise<TScoredBoard> {
    const row = await findLlmProvider(db, actor.mspId);
    if (!row) return scored;
    const ai = { provider: row.provider, model: row.model };
    let connection: ReturnType<typeof engines.connectionOf>;
    try {
      connection = engines.connectionOf(row);
    } catch {
      // A key sealed with a previous ENCRYPTION_KEY (decision 023): history and defaults only, and the screen says why.
      return { ...scored, ai: { ...ai, asked: 0, applied: 0, fallbackReason: 'The saved API key of the AI model cannot be read any more. Enter it again in "AI model for Jarvis".' } };
    }
    const request = aiScoreRequest(scored, scored.board.boardName ?? '');
    if (request.wanted.length === 0) return { ...scored, ai: { ...ai, asked: 0, applied: 0, fallbackReason: null } };
    const answer = await suggestBoardScores(connection, request);
    const merged = answer.proposals ? applyAiProposals(scored, answer.proposals, row.model, priorities) : { scored, applied: 0 };
    const wantedCategory = new Map(request.wanted.map((entry) => [entry.key, entry.category]));
    await audit(db, actor, 'board.ai_proposal', String(boardId), {
      engine: answer.proposals ? 'llm' : 'history',
      provider: row.provider,
      model: row.model,
      fallbackReason: answer.fallbackReason,
      asked: request.wanted.length,
      applied: merged.applied,
      proposals: (answer.proposals ?? []).map((proposal) => ({ category: wantedCategory.get(proposal.key), priorityScore: proposal.priorityScore, subTypeScore: proposal.subTypeScore, slaHours: proposal.slaHours, tier: proposal.tier })),
    });
    return { ...merged.scored, ai: { ...ai, asked: request.wanted.length, applied: merged.applied, fallbackReason: answer.fallbackReason } };
  }

  /** The default-company choices: the MSP's synchronized PSA companies (ours, docs/api-additions.md). */
  async function listDefaultCompanyOptions(actor: TActor, search: string) {
    const psaType = await connectedPsaType(actor.mspId);
    return { companies: await searchSyncedCompanies(db, actor.mspId, psaType, search, 50) };
  }

  return { listDefaultCompanyOptions, getConfiguration, saveConfiguration, getMergedCategorization, createStatus, createCategory, createSubCategory, createBoard, getTemplate, applyDefaultSetup, scoreFromHistory };
}

function parseBoard(input: unknown): z.output<typeof ZBoardDetailInput> {
  return ZBoardDetailInput.parse(input);
}
