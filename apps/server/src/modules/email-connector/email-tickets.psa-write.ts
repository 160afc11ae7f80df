import type { TCreatePsaTicket, TPsaTicket } from '@switchboard/psa';
import type { TPsaType } from '@switchboard/contracts';
import { definePsaWrite } from '../psa-outbox/psa-outbox';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { ticketCopyOfCreate } from '../assistant/ticket-create.psa-write';
import { AppError } from '../../lib/app-error';
import { findThreadTicketId, markEmailNoteDone, markEmailTicketDone } from './email-connector.repository';

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

/** What the outbox keeps for a reply by mail that becomes a note on its thread's ticket. */
export interface TEmailNotePayload {
  /** The reply's email_connector_messages row. */
  emailMessageRowId: string;
  /** A reply in a mail thread: the row of the message that made the ticket (the write's target, so the note waits for the ticket). */
  threadRowId: string | null;
  /** A reply naming the ticket's number: the PSA's ticket (the write's target is its copy). */
  ticket: { externalId: string; number: string } | null;
  text: string;
}

export const EMAIL_NOTE_WRITE = 'email.ticket.note';

/**
 * A reply by mail, added to its ticket as a Description note (customer-facing discussion): on ConnectWise
 * `detailDescriptionFlag`, on Autotask a note all PSA users see. In a mail thread its target is the
 * thread's first message, so the outbox sends it only after that ticket was created, and the ticket's PSA
 * id is read when it is sent; naming a ticket number, its target is that ticket's copy (after the queue's
 * writes about it). A retry after an unknown outcome finds the note by its text (the adapters' lookup).
 */
definePsaWrite<TEmailNotePayload, { ticketId: number; number: string; noteId: number }>(EMAIL_NOTE_WRITE, {
  send: async (client, payload, row, context) => {
    const ticket = payload.ticket ?? (payload.threadRowId === null ? null : await findThreadTicketId(context.db, row.mspId, payload.threadRowId));
    if (!ticket) throw new AppError('psa_unavailable', 'The ticket this reply belongs to is not in the PSA yet.');
    const note = await client.addNote(Number(ticket.externalId), { text: payload.text, kind: 'description' });
    return { ticketId: Number(ticket.externalId), number: ticket.number, noteId: note.id };
  },
  onDone: async (tx, row, result) => {
    const payload = row.payload as TEmailNotePayload;
    await markEmailNoteDone(tx, row.mspId, payload.emailMessageRowId, { externalId: String(result.ticketId), number: result.number }, new Date());
  },
});
