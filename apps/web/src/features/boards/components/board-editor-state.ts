import { newLocalSubType, newLocalType, type TBoardDetailView, type TEditableBoard, type TEditableSubType, type TEditableType, type TTicketingConfiguration } from '@switchboard/contracts';

/** 01 §4 / R-165: each board has its own save state. */
export type TBoardSaveState = { status: 'idle' } | { status: 'saving' } | { status: 'success' } | { status: 'error'; message: string; problems: string[] };

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

function mapType(board: TEditableBoard, ofType: string, change: (type: TEditableType) => TEditableType): TEditableBoard {
  return { ...board, mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.map((type) => (typeKey(type) === ofType ? change(type) : type)) };
}
