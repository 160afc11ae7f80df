import { and, eq, isNull } from 'drizzle-orm';
import type { PsaClient, TCreatePsaTicket, TPsaTicket } from '@switchboard/psa';
import { MESSAGES, PSA_WRITE_MESSAGES, type TPsaType } from '@switchboard/contracts';
import { ticketDrafts, ticketRequests } from '@switchboard/db';
import { AppError } from '../../lib/app-error';
import { definePsaWrite } from '../psa-outbox/psa-outbox';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';

/** What the outbox keeps for a ticket create (JSON): the PSA input plus the names the ticket copy shows. */
export interface TTicketCreatePayload {
  psaType: TPsaType;
  requestId: string;
  draftId: string | null;
  input: Omit<TCreatePsaTicket, 'idempotencyKey'>;
  /** Type and subtype are null for a handover filed on the board alone (its proposal no longer fitted the board). */
  names: { board: string; type: string | null; subtype: string | null; priority: string | null; company: string | null; contact: string | null };
}

export const TICKET_CREATE_WRITE = 'ticket.create';
export const TICKET_REQUEST_TARGET = 'ticket_request';

/** The PSA a stored payload names, as an admin knows it (the payload is JSON kept since the write was stored). */
function psaNameOf(psaType: unknown): string {
  return psaType === 'CONNECTWISE' || psaType === 'AUTOTASK' ? MESSAGES.psa.psaName[psaType] : 'another PSA';
}

/** The ticket copy of a ticket the PSA has just created from `payload.input`, so the queue and lists see it at once (also the email connector's, decision 036). */
export function ticketCopyOfCreate(
  payload: { input: Omit<TCreatePsaTicket, 'idempotencyKey'>; names: { board: string; type: string | null; subtype: string | null; priority: string | null; company: string | null; contact: string | null } },
  ticket: TPsaTicket,
  now: Date,
): TTicketCopy {
  const input = payload.input;
  return {
    externalId: ticket.id,
    ticketNumber: ticket.number,
    summary: input.summary,
    description: input.description,
    board: { id: input.boardId, name: payload.names.board },
    type: { id: input.typeId ?? null, name: payload.names.type },
    subtype: { id: input.subtypeId ?? null, name: payload.names.subtype },
    priority: { id: ticket.priorityId ?? input.priorityId ?? null, name: payload.names.priority },
    status: { id: ticket.statusId, name: ticket.statusName },
    company: { id: input.companyId, name: payload.names.company },
    contact: { id: input.contactId ?? null, name: payload.names.contact },
    isClosed: ticket.isClosed,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A ticket stored for one PSA names its board, company and type by that PSA's ids, which mean other records in another:
 * refused for good, never sent (the contact create does the same, companies.psa-writes.ts).
 */
export function assertStoredForConnectedPsa(client: PsaClient, storedFor: unknown): void {
  const connected = client.psaType === 'connectwise' ? 'CONNECTWISE' : 'AUTOTASK';
  if (connected !== storedFor) throw new AppError('psa_validation', MESSAGES.psa.otherPsa(MESSAGES.psa.psaName[connected], psaNameOf(storedFor)));
}

/**
 * The ticket create through the durable outbox: the outbox row id is the idempotency key
 * (the adapters look it up before sending again, so a retry never duplicates); the row itself is stored once per
 * draft (its key is the draft's), so two requests confirming one draft cannot make two. Once it lands, the
 * request records the PSA's id and the ticket copy is written so the queue and lists see it.
 */
definePsaWrite<TTicketCreatePayload, TPsaTicket>(TICKET_CREATE_WRITE, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.ticketCreate(payload.input.summary),
  send: (client, payload, row) => {
    assertStoredForConnectedPsa(client, payload.psaType);
    return client.createTicket({ ...payload.input, idempotencyKey: row.id });
  },
  onDone: async (tx, row, ticket) => {
    const payload = row.payload as TTicketCreatePayload;
    const now = new Date();
    await tx
      .update(ticketRequests)
      .set({ state: 'done', psaTicketExternalId: String(ticket.id), psaTicketNumber: ticket.number, updatedAt: now })
      .where(and(eq(ticketRequests.mspId, row.mspId), eq(ticketRequests.id, payload.requestId)));
    if (payload.draftId) {
      await tx.update(ticketDrafts).set({ stage: 'created', updatedAt: now }).where(and(eq(ticketDrafts.mspId, row.mspId), eq(ticketDrafts.id, payload.draftId)));
    }
    await upsertTicketCopies(tx, row.mspId, payload.psaType, [ticketCopyOfCreate(payload, ticket, now)]);
  },
  // Refused for good, on any try (review s29 #1): the request reads as refused, not as on its way, also once an admin
  // discards the write. Send again makes the write pending, which the lists show first; its landing sets 'done'.
  onFailed: async (tx, row, _error, now) => {
    const payload = row.payload as TTicketCreatePayload;
    await tx
      .update(ticketRequests)
      .set({ state: 'failed', updatedAt: now })
      .where(and(eq(ticketRequests.mspId, row.mspId), eq(ticketRequests.id, payload.requestId), isNull(ticketRequests.psaTicketExternalId)));
  },
});
