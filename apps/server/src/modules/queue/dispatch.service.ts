import { MESSAGES, type TDispatchBoard, type TQueueTicket } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import type { TQueueMaintenance } from './queue.maintenance';
import { lockOpenQueueTicket } from './queue.policy';
import { findTechnician, hasLiveSession } from './queue-claims.repository';
import { insertQueueEvent } from './queue-events.repository';
import { findTicketById, updateQueueTicket } from './queue-tickets.repository';
import { listAssignedOpenTickets, listDispatchTechnicians, listUnassignedBySla } from './dispatch.repository';
import { tierRank } from './queue.scoring';
import type { TQueueService } from './queue.service';
import { completeOpenTimersInTx } from './timers.service';

/** How many unassigned tickets the board shows (the rest are counted, and in All Tickets). */
export const DISPATCH_UNASSIGNED_LIMIT = 50;

/**
 * The dispatcher's board (issue #10, decision 018): who has what, the unassigned queue by SLA
 * risk, and assignment from it. Assigning is a claim like any other (the PSA gets the owner and
 * "Assigned" through the outbox), or, for a technician who is signed out while the MSP releases
 * the claims of those who sign out, a reservation for them; unassigning is a release.
 */
export function createDispatchService(deps: TAppDeps, maintenance: TQueueMaintenance, queue: TQueueService) {
  const db = deps.database.db;

  /** Every technician's claimed, running and reserved tickets (a deactivated one's while they hold any), and the unassigned queue. */
  async function board(actor: TActor): Promise<TDispatchBoard> {
    await maintenance.maintain(actor.mspId);
    const [technicians, assigned, unassigned] = [await listDispatchTechnicians(db, actor.mspId), await listAssignedOpenTickets(db, actor.mspId), await listUnassignedBySla(db, actor.mspId, DISPATCH_UNASSIGNED_LIMIT)];
    const presented = await queue.present(actor.mspId, [...assigned, ...unassigned.rows]);
    const byTech = new Map<string, TQueueTicket[]>();
    for (const ticket of presented.slice(0, assigned.length)) {
      if (ticket.assignedTechId === null) continue;
      byTech.set(ticket.assignedTechId, [...(byTech.get(ticket.assignedTechId) ?? []), ticket]);
    }
    return {
      technicians: technicians.map((technician) => {
        const tickets = byTech.get(technician.id) ?? [];
        return {
          id: technician.id,
          name: `${technician.firstName} ${technician.lastName}`.trim(),
          email: technician.email,
          tierLevel: technician.tierLevel,
          isActive: technician.isActive,
          claimedCount: tickets.filter((ticket) => ticket.state === 'claimed').length,
          workingCount: tickets.filter((ticket) => ticket.state === 'working').length,
          runningTicketId: technician.runningTicketId,
          tickets,
        };
      }),
      unassigned: presented.slice(assigned.length),
      unassignedTotal: unassigned.total,
    };
  }

  /**
   * Gives a queued ticket to a technician of the MSP, whatever its tier or hold (the dispatcher decides). A technician
   * who is signed out, where the MSP releases the claims of those who sign out, gets it reserved (queued, theirs alone,
   * stored as a requeue with assignedFlag stores it): a claim would go back to the queue at the upkeep's next pass,
   * and the reservation is claimed by their next "next" (e.g. tomorrow morning). The PSA is told either way.
   */
  async function assign(actor: TActor, queueTicketId: string, techId: string): Promise<TQueueTicket> {
    const technician = await findTechnician(db, actor.mspId, techId);
    if (!technician) throw notFound(MESSAGES.queue.technicianNotFound);
    if (!technician.isActive) throw conflict(MESSAGES.queue.dispatch.inactiveTechnician);
    if (technician.tierLevel === null || technician.tierLevel === 'NoTier') throw conflict(MESSAGES.queue.dispatch.noTierTechnician);
    const technicianRank = tierRank(technician.tierLevel);
    const { releaseOnSignOut } = await maintenance.settingsOf(actor.mspId);
    const writeId = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await lockOpenQueueTicket(tx, actor.mspId, queueTicketId);
      if (ticket.state !== 'queued') throw conflict(MESSAGES.queue.dispatch.notQueued);
      const isReservation = releaseOnSignOut && !(await hasLiveSession(tx, actor.mspId, technician.id, now));
      if (isReservation) {
        // "Next" claims only tickets of the technician's tier or lower (queue_claim_batch): a reservation above it would never reach them.
        if (tierRank(ticket.tier) > technicianRank) throw conflict(MESSAGES.queue.dispatch.reservationAboveTier);
        await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'queued', assignedTechId: technician.id, claimedAt: null, isReserved: true, holdUntil: null }, now);
        await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'requeued', now, { assignedBy: actor.userId, assignedFlag: true });
      } else {
        await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'claimed', assignedTechId: technician.id, claimedAt: now, isReserved: false, holdUntil: null }, now);
        await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'claimed', now, { assignedBy: actor.userId });
      }
      return queue.enqueueAssign(tx, actor, technician, ticket);
    });
    if (writeId !== null) maintenance.deliverLater(actor.mspId, [writeId]);
    return queue.presentOne(actor.mspId, queueTicketId);
  }

  /**
   * Takes a claimed (not started), in-progress or reserved ticket back to the open queue (the reservation and any hold
   * cleared); the technician's timer on it is completed and its time entry sent, as the ticket leaves their list and
   * nobody else can finish it.
   */
  async function unassign(actor: TActor, queueTicketId: string): Promise<TQueueTicket> {
    const writeIds = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await findTicketById(tx, actor.mspId, queueTicketId, true);
      if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
      const isHeld = ticket.state === 'claimed' || ticket.state === 'working' || (ticket.state === 'queued' && ticket.isReserved);
      if (ticket.assignedTechId === null || !isHeld) throw conflict(MESSAGES.queue.dispatch.notAssigned);
      const timeEntryWriteIds = await completeOpenTimersInTx(tx, ticket, { techId: ticket.assignedTechId, notes: null, now, createdBy: actor.userId });
      // A hold set by the technician's requeue ("assigned" with hold hours) kept the ticket for them; the dispatcher took it
      // back to give it out, so it is open to anyone at once rather than to nobody until the hold ends.
      await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'queued', assignedTechId: null, claimedAt: null, isReserved: false, holdUntil: null }, now);
      await insertQueueEvent(tx, actor.mspId, ticket.id, ticket.assignedTechId, 'released', now, { unassignedBy: actor.userId });
      const unassignWriteId = await queue.enqueueUnassign(tx, actor, ticket);
      return unassignWriteId === null ? timeEntryWriteIds : [...timeEntryWriteIds, unassignWriteId];
    });
    maintenance.deliverLater(actor.mspId, writeIds);
    return queue.presentOne(actor.mspId, queueTicketId);
  }

  return { board, assign, unassign };
}
