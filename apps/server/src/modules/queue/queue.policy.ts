import { MESSAGES } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import { AppError, conflict, notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { findTechnician, type TTechnicianRow } from './queue-claims.repository';
import { findTicketById, type TQueueTicketRow } from './queue-tickets.repository';
import { tierRank } from './queue.scoring';

/** Who may read another technician's timers and activities (the dashboards): people managers and admins. */
export function mayReadOtherTechnicians(actor: TActor): boolean {
  return actor.permissions.technicianUserManagement || actor.permissions.adminPortal;
}

/**
 * The technician a queue call acts for. Work calls act only on the caller's own queue (the spec
 * sends techId; a different one is refused, 403); reads of another technician of the same MSP
 * need mayReadOtherTechnicians; an id that is not a technician of this MSP is 404. `find` reads the
 * technician (the queue's hottest calls pass a coalesced read).
 */
export async function resolveTechnician(
  db: TDatabase,
  actor: TActor,
  techId: string,
  purpose: 'work' | 'read',
  find: (mspId: string, techId: string) => Promise<TTechnicianRow | undefined> = (mspId, id) => findTechnician(db, mspId, id),
): Promise<TTechnicianRow> {
  // Existence in the caller's MSP first: an id of another tenant is 404 whatever the purpose (DESIGN §4).
  const technician = await find(actor.mspId, techId);
  if (!technician) throw notFound(MESSAGES.queue.technicianNotFound);
  if (techId !== actor.userId && (purpose === 'work' || !mayReadOtherTechnicians(actor))) throw new AppError('forbidden', MESSAGES.queue.ownQueueOnly);
  return technician;
}

/** The technician's tier rank for "next": NoTier (or none) is never given tickets (decisions #9). */
export function workingTierRank(technician: TTechnicianRow): number {
  if (technician.tierLevel === null || technician.tierLevel === 'NoTier') throw conflict(MESSAGES.queue.noTier);
  return tierRank(technician.tierLevel);
}

/** A closed or completed ticket is refused, whoever asks (409). */
export function assertNotFinished(ticket: TQueueTicketRow): void {
  if (ticket.state === 'closed') throw conflict(MESSAGES.queue.ticketClosed);
  if (ticket.state === 'completed') throw conflict(MESSAGES.queue.alreadyCompleted);
}

/** The queue ticket of this MSP, locked for the transaction, when it can still be given to someone (404 / 409 otherwise). */
export async function lockOpenQueueTicket(tx: TDatabase, mspId: string, queueTicketId: string): Promise<TQueueTicketRow> {
  const ticket = await findTicketById(tx, mspId, queueTicketId, true);
  if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
  assertNotFinished(ticket);
  return ticket;
}

/** The ticket is the technician's to work (claimed or in progress by them), else a plain refusal. */
export function assertWorkingOn(ticket: TQueueTicketRow, techId: string): void {
  assertNotFinished(ticket);
  if (ticket.assignedTechId !== techId || (ticket.state !== 'claimed' && ticket.state !== 'working')) {
    if (ticket.assignedTechId !== null && ticket.assignedTechId !== techId && (ticket.state === 'claimed' || ticket.state === 'working')) throw conflict(MESSAGES.queue.heldByOther);
    throw conflict(MESSAGES.queue.notYourTicket);
  }
}
