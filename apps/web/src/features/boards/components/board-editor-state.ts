import { newLocalSubType, newLocalType, type TBoardDetailView, type TEditableBoard, type TEditableSubType, type TEditableType, type TScoredBoard, type TTicketingConfiguration } from '@switchboard/contracts';

/**
 * 01 §4 / R-165: each board has its own save state. `isStale`: another save changed the board since it was read
 * (A-034's 409, decision 012); the editor offers to reload it.
 */
export type TBoardSaveState = { status: 'idle' } | { status: 'saving' } | { status: 'success' } | { status: 'error'; message: string; problems: string[]; isStale?: boolean };

let tempCounter = 0;
/** the temporary id of a locally created type or subtype. */
export function nextTempIndex(): string {
  tempCounter += 1;
  return `tmp-${Date.now().toString(36)}-${tempCounter}`;
}

/** A type or subtype is addressed by its PSA id, or by its temporary id while it is new. */
export const typeKey = (type: Pick<TEditableType, 'typeId' | 'tempIndex'>) => (type.typeId !== null ? `id-${type.typeId}` : `tmp-${type.tempIndex ?? ''}`);
export const subTypeKey = (subType: Pick<TEditableSubType, 'subTypeId' | 'tempIndex'>) => (subType.subTypeId !== null ? `id-${subType.subTypeId}` : `tmp-${subType.tempIndex ?? ''}`);

/** A server board in the editor's shape. */
export function editableFromView(view: TBoardDetailView): TEditableBoard {
  return {
    boardId: view.boardId,
    boardName: view.boardName,
    newCreatingTicketStatus: view.newCreatingTicketStatus,
    newCreatingTicketStatusId: view.newCreatingTicketStatusId,
    closingTicketStatus: view.closingTicketStatus,
    closingTicketStatusId: view.closingTicketStatusId,
    // Sent back with the save, so a save made since by someone else is noticed (decision 012).
    ...(view.version !== undefined ? { version: view.version } : {}),
    priorities: view.priorities,
    mspConnectWiseBoardTypes: view.mspConnectWiseBoardTypes.map((type) => ({
      typeId: type.typeId,
      typeName: type.typeName,
      isNew: false,
      tempIndex: null,
      mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((sub) => ({ ...sub, isNew: false, tempIndex: null })),
    })),
  };
}

/** The saved board from A-034's answer, in either PSA variant. */
export function savedBoardFrom(configuration: TTicketingConfiguration, boardId: number): TEditableBoard | null {
  const fromConnectWise = configuration.connectWiseConfig?.boardDetails.find((board) => board.boardId === boardId);
  if (fromConnectWise) return editableFromView(fromConnectWise);
  const queue = configuration.autotaskConfigV2?.ticketQueueDetails.find((candidate) => candidate.queueId === boardId);
  if (!queue) return null;
  return {
    boardId: queue.queueId,
    boardName: queue.queueName,
    newCreatingTicketStatus: queue.newTicketStatusLabel,
    newCreatingTicketStatusId: queue.newTicketStatusId,
    closingTicketStatus: queue.closingStatusLabel,
    closingTicketStatusId: queue.closingStatusId,
    ...(queue.version !== undefined ? { version: queue.version } : {}),
    priorities: queue.priorities,
    mspConnectWiseBoardTypes: queue.issueTypes.map((issueType) => ({
      typeId: issueType.value,
      typeName: issueType.label,
      isNew: false,
      tempIndex: null,
      mspConnectWiseBoardSubTypes: issueType.subIssueTypes.map((sub) => ({
        subTypeId: sub.value,
        subTypeName: sub.label,
        priorityId: sub.priorityValue,
        priority: sub.priorityLabel,
        priorityScore: sub.priorityScore,
        subTypeScore: sub.subTypeScore,
        tier: sub.tier,
        slaDeadLineInHours: sub.slaDeadlineInHours,
        isNew: false,
        tempIndex: null,
        typeAssociationIds: [issueType.value],
      })),
    })),
  };
}

export function setStatus(board: TEditableBoard, which: 'open' | 'closed', status: { id: number; name: string } | null): TEditableBoard {
  return which === 'open'
    ? { ...board, newCreatingTicketStatusId: status?.id ?? null, newCreatingTicketStatus: status?.name ?? null }
    : { ...board, closingTicketStatusId: status?.id ?? null, closingTicketStatus: status?.name ?? null };
}

/** a new type, local until the board is saved. */
export function addType(board: TEditableBoard, name: string): TEditableBoard {
  return { ...board, mspConnectWiseBoardTypes: [...board.mspConnectWiseBoardTypes, newLocalType(nextTempIndex(), name.trim())] };
}

/** a new subtype under a type, with the 01 §9 defaults. */
export function addSubType(board: TEditableBoard, ofType: string, name: string): TEditableBoard {
  return mapType(board, ofType, (type) => ({ ...type, mspConnectWiseBoardSubTypes: [...type.mspConnectWiseBoardSubTypes, newLocalSubType(nextTempIndex(), name.trim())] }));
}

/** only a subtype that was never saved can be removed. */
export function removeNewSubType(board: TEditableBoard, ofType: string, subType: string): TEditableBoard {
  return mapType(board, ofType, (type) => ({ ...type, mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.filter((sub) => !(sub.isNew && subTypeKey(sub) === subType)) }));
}

/** A new type that was never saved can be removed as well, with its (new) subtypes. */
export function removeNewType(board: TEditableBoard, ofType: string): TEditableBoard {
  return { ...board, mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.filter((type) => !(type.isNew && typeKey(type) === ofType)) };
}

export function updateSubType(board: TEditableBoard, ofType: string, subType: string, patch: Partial<TEditableSubType>): TEditableBoard {
  return mapType(board, ofType, (type) => ({ ...type, mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((sub) => (subTypeKey(sub) === subType ? { ...sub, ...patch } : sub)) }));
}

export function updatePriorityScore(board: TEditableBoard, priorityId: number, priorityScore: number): TEditableBoard {
  return { ...board, priorities: board.priorities.map((priority) => (priority.priorityId === priorityId ? { ...priority, priorityScore } : priority)) };
}

/**
 * A-052's suggested numbers put into the board as it is now (edits made since asking stay): each subtype and priority
 * the suggestion knows, by its id or temporary id, takes the suggested priority, scores, tier and SLA; nothing else changes.
 */
export function applySuggestedNumbers(board: TEditableBoard, scored: TScoredBoard): TEditableBoard {
  const suggestedSubTypes = new Map(scored.board.mspConnectWiseBoardTypes.flatMap((type) => type.mspConnectWiseBoardSubTypes.map((sub) => [`${typeKey(type)}/${subTypeKey(sub)}`, sub] as const)));
  const suggestedPriorities = new Map(scored.board.priorities.map((priority) => [priority.priorityId, priority.priorityScore]));
  return {
    ...board,
    priorities: board.priorities.map((priority) => ({ ...priority, priorityScore: suggestedPriorities.get(priority.priorityId) ?? priority.priorityScore })),
    mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.map((type) => ({
      ...type,
      mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((sub) => {
        const suggested = suggestedSubTypes.get(`${typeKey(type)}/${subTypeKey(sub)}`);
        if (!suggested) return sub;
        const { priorityId, priority, priorityScore, subTypeScore, tier, slaDeadLineInHours } = suggested;
        return { ...sub, priorityId, priority, priorityScore, subTypeScore, tier, slaDeadLineInHours };
      }),
    })),
  };
}

function mapType(board: TEditableBoard, ofType: string, change: (type: TEditableType) => TEditableType): TEditableBoard {
  return { ...board, mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.map((type) => (typeKey(type) === ofType ? change(type) : type)) };
}
