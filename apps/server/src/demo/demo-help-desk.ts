import type { loadDemoData } from '@switchboard/psa-sim';
import type { PsaClient, TPsaBoard } from '@switchboard/psa';

// The demo's Help Desk board in the simulator and its categories, looked up the one way the demo
// seed and the demo's open tickets both need.

type TDemoData = ReturnType<typeof loadDemoData>;

/** The simulator's board named by the demo board template, or null when the PSA has none. */
export async function findDemoHelpDesk(client: PsaClient, data: TDemoData): Promise<TPsaBoard | null> {
  return (await client.listBoards()).find((board) => board.name === data.boardTemplate.boardName) ?? null;
}

/** The board's categories, priorities and statuses, and the ids of a demo ticket's type and subtype by name. */
export async function demoHelpDeskCategories(client: PsaClient, helpDesk: TPsaBoard) {
  const [types, subtypes, priorities, statuses] = await Promise.all([client.listTypes(helpDesk.id), client.listSubtypes(helpDesk.id), client.listPriorities(), client.listStatuses(helpDesk.id)]);
  const typeIdByName = new Map(types.map((type) => [type.name, type.id]));
  const categoryOf = (ticket: { type: string; subType: string }) => {
    const typeId = typeIdByName.get(ticket.type) ?? null;
    const subtype = subtypes.find((candidate) => candidate.name === ticket.subType && (typeId === null || candidate.typeIds.includes(typeId)));
    return { typeId, subtypeId: subtype?.id ?? null };
  };
  return { types, subtypes, priorities, statuses, categoryOf };
}
