import { eq } from 'drizzle-orm';
import { boardConfigs, boardPriorities, boardSubtypes, boardTypes, msps, psaTicketingConfigs, users } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TAppDeps } from '../apps/server/src/app-deps';
import { hashPassword } from '../apps/server/src/lib/crypto';
import { upsertTicketCopies, type TTicketCopy } from '../apps/server/src/modules/boards/ticket-copies.repository';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { simulatorClient } from './simulator-client';
import { E2E_PASSWORD, QUEUE_JOURNEY, SLA_JOURNEY } from './scenario';

/**
 * The queue journeys' data (issue #10): the demo MSP's first simulator board configured with a
 * Tier1 subtype, and open tickets that exist in the simulator with their copies stored, as the
 * ticket sync would leave them. Every queue write of a journey therefore lands on a real
 * simulator ticket.
 */
export async function seedQueueJourneys(deps: TAppDeps, simulator: TPsaSimulator): Promise<void> {
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
  const subtypes = await client.listSubtypes(board.id);
  const [subtype] = subtypes;
  // The SLA journey's subtype: another one of the same type (the demo seed configured them all; it is made Tier3 with an 8-hour SLA below).
  const slaSubtype = subtypes.find((candidate) => candidate.id !== subtype?.id && candidate.typeIds.includes(type?.id ?? -1));
  const [priority] = await client.listPriorities();
  let companyId: number | undefined;
  for await (const company of client.streamCompanies()) {
    companyId = company.id;
    break;
  }
  if (!newStatus || !closing || !type || !subtype || !slaSubtype || !priority || companyId === undefined) throw new Error('the simulator lacks the reference data the queue journeys need');

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

  await db
    .insert(boardSubtypes)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, subtypeId: slaSubtype.id, subtypeName: slaSubtype.name, subtypeScore: 10, tier: 'Tier3', slaHours: SLA_JOURNEY.slaHours, position: 1 })
    .onConflictDoUpdate({
      target: [boardSubtypes.mspId, boardSubtypes.psaType, boardSubtypes.boardId, boardSubtypes.typeId, boardSubtypes.subtypeId],
      set: { tier: 'Tier3', slaHours: SLA_JOURNEY.slaHours },
    });

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
  // The SLA journey's tickets: opened hours ago in the PSA itself (the demo's reconcile rereads new tickets, so
  // a copy alone backdated would be put right again), and so in their copies.
  for (const [index, slaTicket] of [SLA_JOURNEY.overdue, SLA_JOURNEY.halfway, ...SLA_JOURNEY.fresh].entries()) {
    const description = `${slaTicket.summary}: reported by the finance team.`;
    const ticket = await client.createTicket({
      idempotencyKey: `e2e-sla-${index}`,
      summary: slaTicket.summary,
      description,
      boardId: board.id,
      companyId,
      typeId: type.id,
      subtypeId: slaSubtype.id,
      priorityId: priority.id,
    });
    const openedAt = Date.now() - slaTicket.openedHoursAgo * 3_600_000;
    if (!simulator.backdateTicket(ticket.id, openedAt)) throw new Error(`the simulator has no ticket ${ticket.id}`);
    copies.push({
      externalId: ticket.id,
      ticketNumber: ticket.number,
      summary: ticket.summary,
      description,
      board: { id: board.id, name: board.name },
      type: { id: type.id, name: type.name },
      subtype: { id: slaSubtype.id, name: slaSubtype.name },
      priority: { id: priority.id, name: priority.name },
      status: { id: ticket.statusId, name: ticket.statusName },
      company: { id: companyId, name: 'Journey company' },
      isClosed: false,
      createdAt: new Date(openedAt),
    });
  }
  await upsertTicketCopies(db, msp.id, 'CONNECTWISE', copies);

  // The SLA journey's technician (Tier3, no PSA member: their claims make no PSA write).
  const roles = await ensureBuiltInRoles(db, msp.id);
  const person = SLA_JOURNEY.technician;
  await db
    .insert(users)
    .values({ mspId: msp.id, kind: 'technician', roleId: roles.Technician, firstName: person.firstName, lastName: person.lastName, email: person.email, phone: '2065550142', tierLevel: person.tierLevel, passwordHash: await hashPassword(E2E_PASSWORD) })
    .onConflictDoNothing();
}
