import type { TTicketingConfiguration } from '@switchboard/contracts';

export type TChoice = { id: string; name: string };
export type TSubtypeChoice = TChoice & { priorityId: string | null; priority: string | null; tier: string };
export type TTypeChoice = TChoice & { subtypes: TSubtypeChoice[] };
/** One board's categorisation as the edit form offers it, whichever PSA the MSP uses. */
export type TBoardChoices = { boardId: string; boardName: string; types: TTypeChoice[]; priorities: TChoice[] };

/** Every configured board (ConnectWise) or queue (Autotask) of the MSP. */
export function allBoardChoices(configuration: TTicketingConfiguration | undefined): TBoardChoices[] {
  if (!configuration) return [];
  const ids = [
    ...(configuration.connectWiseConfig?.boardDetails.map((detail) => String(detail.boardId)) ?? []),
    ...(configuration.autotaskConfigV2?.ticketQueueDetails.map((detail) => String(detail.queueId)) ?? []),
  ];
  return ids.flatMap((id) => {
    const choices = boardChoices(configuration, id);
    return choices === null ? [] : [choices];
  });
}

/** The configured board (ConnectWise) or queue (Autotask) with this id, or null when it is not configured. */
export function boardChoices(configuration: TTicketingConfiguration | undefined, boardId: string): TBoardChoices | null {
  if (!configuration) return null;
  const board = configuration.connectWiseConfig?.boardDetails.find((detail) => String(detail.boardId) === boardId);
  if (board) {
    return {
      boardId,
      boardName: board.boardName,
      types: board.mspConnectWiseBoardTypes.map((type) => ({
        id: String(type.typeId),
        name: type.typeName,
        subtypes: type.mspConnectWiseBoardSubTypes.map((subtype) => ({
          id: String(subtype.subTypeId),
          name: subtype.subTypeName,
          priorityId: subtype.priorityId === null ? null : String(subtype.priorityId),
          priority: subtype.priority,
          tier: subtype.tier,
        })),
      })),
      priorities: board.priorities.map((priority) => ({ id: String(priority.priorityId), name: priority.priority })),
    };
  }
  const queue = configuration.autotaskConfigV2?.ticketQueueDetails.find((detail) => String(detail.queueId) === boardId);
  if (!queue) return null;
  return {
    boardId,
    boardName: queue.queueName,
    types: queue.issueTypes.map((issue) => ({
      id: String(issue.value),
      name: issue.label,
      subtypes: issue.subIssueTypes.map((sub) => ({
        id: String(sub.value),
        name: sub.label,
        priorityId: sub.priorityValue === null ? null : String(sub.priorityValue),
        priority: sub.priorityLabel,
        tier: sub.tier,
      })),
    })),
    priorities: queue.priorities.map((priority) => ({ id: String(priority.priorityId), name: priority.priority })),
  };
}
