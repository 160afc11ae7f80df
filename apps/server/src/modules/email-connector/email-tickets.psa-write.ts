import type { TCreatePsaTicket, TPsaTicket } from '@switchboard/psa';
import type { TPsaType } from '@switchboard/contracts';
import { definePsaWrite } from '../psa-outbox/psa-outbox';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { ticketCopyOfCreate } from '../assistant/ticket-create.psa-write';
import { markEmailTicketDone } from './email-connector.repository';

/** What the outbox keeps for a ticket made from an email (JSON): the PSA input and the names its copy shows. */
export interface TEmailTicketPayload {
  psaType: TPsaType;
  /** The email_connector_messages row the ticket is for. */
  emailMessageRowId: string;
  input: Omit<TCreatePsaTicket, 'idempotencyKey'>;
  names: { board: string; type: string | null; subtype: string | null; priority: string | null; company: string | null; contact: string | null };
}

export const EMAIL_TICKET_WRITE = 'email.ticket.create';
export const EMAIL_MESSAGE_TARGET = 'email_message';

/**
 * A ticket from the help-desk mailbox (decision 036) goes through the same durable outbox as a chat's
 * confirmed ticket (decision 013): the outbox row id is the idempotency key the adapters look up before
 * sending again, so a retry never makes a second ticket. Once it lands, the message row records the
 * PSA's ticket and the ticket copy is written so the queue sees it.
 */
definePsaWrite<TEmailTicketPayload, TPsaTicket>(EMAIL_TICKET_WRITE, {
  send: (client, payload, row) => client.createTicket({ ...payload.input, idempotencyKey: row.id }),
  onDone: async (tx, row, ticket) => {
    const payload = row.payload as TEmailTicketPayload;
    const now = new Date();
    await markEmailTicketDone(tx, row.mspId, payload.emailMessageRowId, { externalId: String(ticket.id), number: ticket.number }, now);
    await upsertTicketCopies(tx, row.mspId, payload.psaType, [ticketCopyOfCreate(payload, ticket, now)]);
  },
});
