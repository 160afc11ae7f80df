import { eq } from 'drizzle-orm';
import { boardConfigs, boardPriorities, boardSubtypes, boardTypes, msps, psaTicketingConfigs } from '@switchboard/db';
import type { TAppDeps } from '../apps/server/src/app-deps';
import { upsertTicketCopies, type TTicketCopy } from '../apps/server/src/modules/boards/ticket-copies.repository';
import { simulatorClient } from './simulator-client';
import { QUEUE_JOURNEY } from './scenario';

/**
 * The queue journeys' data (issue #10): the demo MSP's first simulator board configured with a
 * Tier1 subtype, and open tickets that exist in the simulator with their copies stored, as the
 * ticket sync would leave them. Every queue write of a journey therefore lands on a real
 * simulator ticket.
 */
export async function seedQueueJourneys(deps: TAppDeps): Promise<void> {
  const db = deps.database.db;
  const [msp] = await db.select({ id: msps.id }).from(msps).where(eq(msps.customDomain, 'northwind')).limit(1);
  if (!msp) throw new Error('the demo MSP is missing');
  // The demo MSP's PSA is the simulator; it is read and written directly, as the ticket sync would.
  const client = simulatorClient();
  const [board] = (await client.listBoards()).filter((each) => each.isActive);
  if (!board) throw new Error('the simulator has no active board');
  const statuses = await client.listStatuses(board.id);
  const newStatus = statuses.find((status) => status.name === 'New') ?? statuses.find((status) => !status.isClosed);
  const closing = statuses.find((status) => status.isClosed);
  const [type] = await client.listTypes(board.id);
  const [subtype] = await client.listSubtypes(board.id);
  const [priority] = await client.listPriorities();
  let companyId: number | undefined;
  for await (const company of client.streamCompanies()) {
    companyId = company.id;
    break;
  }
  if (!newStatus || !closing || !type || !subtype || !priority || companyId === undefined) throw new Error('the simulator lacks the reference data the queue journeys need');

  await db.insert(psaTicketingConfigs).values({ mspId: msp.id, psaType: 'CONNECTWISE' }).onConflictDoNothing();
  await db
    .insert(boardConfigs)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, boardName: board.name, newStatusId: newStatus.id, newStatusName: newStatus.name, closingStatusId: closing.id, closingStatusName: closing.name })
    .onConflictDoNothing();
  await db.insert(boardPriorities).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, priorityId: priority.id, priorityName: priority.name, priorityScore: 50 }).onConflictDoNothing();
  await db.insert(boardTypes).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, typeName: type.name, position: 0 }).onConflictDoNothing();
  await db
    .insert(boardSubtypes)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, subtypeId: subtype.id, subtypeName: subtype.name, subtypeScore: 10, tier: 'Tier1', slaHours: 8, position: 0 })
    .onConflictDoNothing();

  const copies: TTicketCopy[] = [];
  for (let index = 0; index < QUEUE_JOURNEY.ticketCount; index++) {
    const summary = `${QUEUE_JOURNEY.summaryPrefix} ${index + 1}`;
    const ticket = await client.createTicket({
      idempotencyKey: `e2e-queue-${index}`,
      summary,
      description: `Journey ticket ${index + 1}: the label printer in room ${100 + index} is offline.`,
      boardId: board.id,
      companyId,
      typeId: type.id,
      subtypeId: subtype.id,
      priorityId: priority.id,
    });
    copies.push({
      externalId: ticket.id,
      ticketNumber: ticket.number,
      summary: ticket.summary,
      description: `Journey ticket ${index + 1}: the label printer in room ${100 + index} is offline.`,
      board: { id: board.id, name: board.name },
      type: { id: type.id, name: type.name },
      subtype: { id: subtype.id, name: subtype.name },
      priority: { id: priority.id, name: priority.name },
      status: { id: ticket.statusId, name: ticket.statusName },
      company: { id: companyId, name: 'Journey company' },
      isClosed: false,
      // Older first, so the queue hands them out in creation order.
      createdAt: new Date(Date.now() - (QUEUE_JOURNEY.ticketCount - index) * 60_000),
    });
  }
  await upsertTicketCopies(db, msp.id, 'CONNECTWISE', copies);
}
