import { BOARD_DEFAULTS, type TAutotaskQueueView, type TBoardDetailView, type TBoardPriorityView, type TBoardTypeView, type TPsaType } from '@switchboard/contracts';
import type { TPsaPriority, TPsaStatus, TPsaSubtype, TPsaTicketType } from '@switchboard/psa';
import type { TBoardExtras, TStoredBoard } from './boards.repository';

/** A stored board's version (decision 012): the time of its last save, as A-034 expects it back. */
export const boardVersionOf = (stored: TStoredBoard | undefined): string | null => stored?.board.updatedAt.toISOString() ?? null;

/** A stored board in the spec's ConnectWise field names (01 §3). */
export function presentStoredBoard(stored: TStoredBoard): TBoardDetailView {
  return {
    boardId: stored.board.boardId,
    boardName: stored.board.boardName,
    newCreatingTicketStatus: stored.board.newStatusName,
    newCreatingTicketStatusId: stored.board.newStatusId,
    closingTicketStatus: stored.board.closingStatusName,
    closingTicketStatusId: stored.board.closingStatusId,
    version: boardVersionOf(stored),
    priorities: stored.priorities.map((row) => ({ priorityId: row.priorityId, priority: row.priorityName, priorityScore: row.priorityScore })),
    mspConnectWiseBoardTypes: stored.types.map((type) => ({
      typeId: type.typeId,
      typeName: type.typeName,
      isNew: false,
      mspConnectWiseBoardSubTypes: stored.subtypes
        .filter((row) => row.typeId === type.typeId)
        .map((row) => ({
          subTypeId: row.subtypeId,
          subTypeName: row.subtypeName,
          priorityId: row.priorityId,
          priority: row.priorityName,
          priorityScore: row.priorityScore,
          subTypeScore: row.subtypeScore,
          tier: row.tier,
          slaDeadLineInHours: row.slaHours,
          isNew: false,
          typeAssociationIds: row.typeAssociationIds,
        })),
    })),
  };
}

/** The same board in Autotask's `autotaskConfigV2` names: queue, issue types, sub-issue types, status labels. */
export function presentAutotaskQueue(board: TBoardDetailView, extras: TBoardExtras): TAutotaskQueueView {
  return {
    queueId: board.boardId,
    queueName: board.boardName,
    newTicketStatusLabel: board.newCreatingTicketStatus,
    newTicketStatusId: board.newCreatingTicketStatusId,
    closingStatusLabel: board.closingTicketStatus,
    closingStatusId: board.closingTicketStatusId,
    version: board.version ?? null,
    ...extras,
    priorities: board.priorities,
    issueTypes: board.mspConnectWiseBoardTypes.map((type) => ({
      value: type.typeId,
      label: type.typeName,
      subIssueTypes: type.mspConnectWiseBoardSubTypes.map((sub) => ({
        value: sub.subTypeId,
        label: sub.subTypeName,
        priorityValue: sub.priorityId,
        priorityLabel: sub.priority,
        priorityScore: sub.priorityScore,
        subTypeScore: sub.subTypeScore,
        tier: sub.tier,
        slaDeadlineInHours: sub.slaDeadLineInHours,
      })),
    })),
  };
}

export interface TPsaBoardData {
  boardId: number;
  boardName: string;
  types: TPsaTicketType[];
  subtypes: TPsaSubtype[];
  priorities: TPsaPriority[];
  statuses: TPsaStatus[];
}

/**
 * every active type of the board with its associated active subtypes as the PSA has them
 * now, carrying the stored scores, tiers and SLA where the MSP set them and the 01 §5 defaults
 * elsewhere. Stored entries the PSA no longer has are left out.
 */
export function mergeCategorization(psa: TPsaBoardData, stored: TStoredBoard | undefined, psaType: TPsaType): TBoardDetailView {
  const storedTypePosition = new Map(stored?.types.map((row) => [row.typeId, row.position]) ?? []);
  const types = psa.types
    .filter((type) => type.isActive)
    .sort((a, b) => (storedTypePosition.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (storedTypePosition.get(b.id) ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
  const mergedTypes: TBoardTypeView[] = types.map((type) => {
    const storedSubtypes = new Map(stored?.subtypes.filter((row) => row.typeId === type.id).map((row) => [row.subtypeId, row]) ?? []);
    const subtypes = psa.subtypes
      .filter((subtype) => subtype.isActive && subtype.typeIds.includes(type.id))
      .sort((a, b) => (storedSubtypes.get(a.id)?.position ?? Number.MAX_SAFE_INTEGER) - (storedSubtypes.get(b.id)?.position ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
    return {
      typeId: type.id,
      typeName: type.name,
      isNew: false,
      mspConnectWiseBoardSubTypes: subtypes.map((subtype) => {
        const row = storedSubtypes.get(subtype.id);
        const priority = row?.priorityId === null || row?.priorityId === undefined ? undefined : psa.priorities.find((candidate) => candidate.id === row.priorityId);
        return {
          subTypeId: subtype.id,
          subTypeName: subtype.name,
          priorityId: priority?.id ?? null,
          priority: priority?.name ?? null,
          priorityScore: row?.priorityScore ?? BOARD_DEFAULTS.priorityScore,
          subTypeScore: row?.subtypeScore ?? BOARD_DEFAULTS.subTypeScore,
          tier: row?.tier ?? BOARD_DEFAULTS.tier,
          slaDeadLineInHours: row?.slaHours ?? BOARD_DEFAULTS.slaHours[psaType],
          isNew: false,
          typeAssociationIds: subtype.typeIds,
        };
      }),
    };
  });
  const storedPriorityScores = new Map(stored?.priorities.map((row) => [row.priorityId, row.priorityScore]) ?? []);
  const priorities: TBoardPriorityView[] = [...psa.priorities]
    .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
    .map((priority) => ({ priorityId: priority.id, priority: priority.name, priorityScore: storedPriorityScores.get(priority.id) ?? BOARD_DEFAULTS.priorityScore }));

  const activeStatuses = psa.statuses.filter((status) => status.isActive);
  const statusById = (id: number | null | undefined) => (id === null || id === undefined ? undefined : activeStatuses.find((status) => status.id === id));
  // An unconfigured board starts from the PSA's own default open status and its first closed one, so it can be saved as is.
  const open = stored ? statusById(stored.board.newStatusId) : (activeStatuses.find((status) => status.isDefault && !status.isClosed) ?? activeStatuses.find((status) => !status.isClosed));
  const closed = stored ? statusById(stored.board.closingStatusId) : [...activeStatuses].sort((a, b) => a.sortOrder - b.sortOrder).find((status) => status.isClosed);
  return {
    boardId: psa.boardId,
    boardName: psa.boardName,
    newCreatingTicketStatus: open?.name ?? null,
    newCreatingTicketStatusId: open?.id ?? null,
    closingTicketStatus: closed?.name ?? null,
    closingTicketStatusId: closed?.id ?? null,
    mspConnectWiseBoardTypes: mergedTypes,
    priorities,
    version: boardVersionOf(stored),
  };
}
