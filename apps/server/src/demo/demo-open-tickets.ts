import { loadDemoData } from '@switchboard/psa-sim';
import type { TAppDeps } from '../app-deps';
import { demoHelpDeskCategories, findDemoHelpDesk } from './demo-help-desk';

/** How many open tickets the demo's Help Desk board starts with: enough for a few technicians to press "next". */
export const DEMO_OPEN_TICKET_COUNT = 15;

/**
 * Gives the demo's queue something to hand out (issue #10): when the simulator's Help Desk board has
 * no open ticket (a simulator fresh from the seed: its demo history is all closed; later starts keep its data),
 * the most recent problems of the demo history are raised again as new open tickets, each with its
 * own company, category, subcategory and priority. They are created through the PSA client like any
 * other ticket, so the ticket sync copies them and the queue ranks them. Idempotent per simulator run.
 */
export async function ensureDemoOpenTickets(deps: Pick<TAppDeps, 'psaClients' | 'now'>, mspId: string): Promise<number> {
  const data = loadDemoData();
  const client = await deps.psaClients.forMsp(mspId);
  const helpDesk = await findDemoHelpDesk(client, data);
  if (!helpDesk) return 0;
  // Any open ticket on the board: this simulator run has been given its open tickets already.
  for await (const _open of client.streamTickets({ boardIds: [helpDesk.id], openOnly: true })) return 0;
  const { priorities, categoryOf } = await demoHelpDeskCategories(client, helpDesk);
  const recent = [...data.historicalTickets].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, DEMO_OPEN_TICKET_COUNT);
  let created = 0;
  for (const ticket of recent.reverse()) {
    const { typeId, subtypeId } = categoryOf(ticket);
    const priority = priorities.find((candidate) => candidate.name === ticket.priority);
    await client.createTicket({
      idempotencyKey: `demo-open-${ticket.id}`,
      summary: ticket.summary,
      description: ticket.description,
      boardId: helpDesk.id,
      companyId: ticket.companyId,
      typeId,
      subtypeId,
      priorityId: priority?.id ?? null,
    });
    created += 1;
  }
  return created;
}
