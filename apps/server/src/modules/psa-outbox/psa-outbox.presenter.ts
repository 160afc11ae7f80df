import type { TPsaWrite, TPsaWriteTicket } from '@switchboard/contracts';
import { describePsaWrite } from './psa-outbox';
import { isStoppedByConnectionChange, type TPsaOutboxRow, type TPsaWriteTicketCopy } from './psa-outbox.repository';

/** The PSA's id of a ticket copy (its external id); null when that is not a whole number (never on ConnectWise or Autotask). */
function psaTicketIdOf(externalId: string): number | null {
  return /^\d{1,15}$/.test(externalId) ? Number(externalId) : null;
}

function presentTicket(ticket: TPsaWriteTicketCopy): TPsaWriteTicket {
  return { psaTicketId: psaTicketIdOf(ticket.externalId), ticketNumber: ticket.ticketNumber, summary: ticket.summary };
}

/**
 * A write as the admin's list shows it: what it does in plain words, the ticket it is about, and what the admin may do
 * with it: Send again, except on a write stopped because the PSA connection changed (refused with 409); Discard, on a
 * write the PSA refused for good.
 */
export function presentPsaWrite(row: TPsaOutboxRow, ticket: TPsaWriteTicketCopy | null): TPsaWrite {
  return {
    id: row.id,
    kind: row.kind,
    targetType: row.targetType,
    targetId: row.targetId,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    summary: describePsaWrite(row.kind, row.payload),
    ticket: ticket ? presentTicket(ticket) : null,
    canSendAgain: row.status !== 'done' && !isStoppedByConnectionChange(row),
    canDiscard: row.status === 'failed' && row.discardedAt === null,
  };
}
