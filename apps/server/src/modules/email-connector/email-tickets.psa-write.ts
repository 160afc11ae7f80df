import type { PsaClient, TAddPsaNote, TCreatePsaTicket, TPsaTicket } from '@switchboard/psa';
import { EMAIL_MAIL_MESSAGES, PSA_WRITE_MESSAGES, type TPsaType } from '@switchboard/contracts';
import { definePsaWrite, enqueuePsaWrite, failureText, findPsaWriteByKey, type TPsaOutboxRow, type TPsaWriteContext } from '../psa-outbox/psa-outbox';
import { findPsaWrite } from '../psa-outbox/psa-outbox.repository';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { assertStoredForConnectedPsa, ticketCopyOfCreate } from '../assistant/ticket-create.psa-write';
import { AppError } from '../../lib/app-error';
import { noteIdOfResult, psaResendOf } from '../psa-outbox/psa-resend';
import type { TDatabase } from '@switchboard/db';
import { findEmailAttachmentData, findThreadTicketId, markEmailAttachmentDone, markEmailNoteDone, markEmailTicketDone, markEmailTicketRefused } from './email-connector.repository';

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
  describe: (payload) => PSA_WRITE_MESSAGES.summary.emailTicketCreate(payload.input.summary),
  send: (client, payload, row) => {
    assertStoredForConnectedPsa(client, payload.psaType);
    return client.createTicket({ ...payload.input, idempotencyKey: row.id });
  },
  onDone: async (tx, row, ticket) => {
    const payload = row.payload as TEmailTicketPayload;
    const now = new Date();
    await markEmailTicketDone(tx, row.mspId, payload.emailMessageRowId, { externalId: String(ticket.id), number: ticket.number }, now);
    await upsertTicketCopies(tx, row.mspId, payload.psaType, [ticketCopyOfCreate(payload, ticket, now)]);
  },
  // Refused for good (review s29): the mail is not made, saying why, and "Make a ticket…" can file it again; it no longer
  // looks like a ticket on its way, nor like a thread a reply could be a note in. A discarded write leaves it so.
  onFailed: async (tx, row, error, now) => {
    const payload = row.payload as TEmailTicketPayload;
    await markEmailTicketRefused(tx, row.mspId, payload.emailMessageRowId, EMAIL_MAIL_MESSAGES.ticketRefused(failureText(error)), now);
  },
});

/** Which PSA ticket a write about a mail goes to. */
export interface TEmailTicketOfWrite {
  /** The row of the message that made the ticket (the write's target, so the write waits for the ticket): a reply's thread, or a new ticket's own message. */
  threadRowId: string | null;
  /** A reply naming the ticket's number: the PSA's ticket (the write's target is its copy). */
  ticket: { externalId: string; number: string } | null;
}

/** The PSA's ticket of a write about a mail, or null while it is not there (a thread's ticket may have been created just before). */
async function findTicketOfWrite(db: TDatabase, mspId: string, where: TEmailTicketOfWrite): Promise<{ externalId: string; number: string } | null> {
  return where.ticket ?? (where.threadRowId === null ? null : await findThreadTicketId(db, mspId, where.threadRowId));
}

/** The same, read when the write is sent: not there yet is a PSA that is not ready, retried. */
async function ticketOfWrite(db: TDatabase, mspId: string, where: TEmailTicketOfWrite): Promise<{ externalId: string; number: string }> {
  const ticket = await findTicketOfWrite(db, mspId, where);
  if (!ticket) throw new AppError('psa_unavailable', 'The ticket this email belongs to is not in the PSA yet.');
  return ticket;
}

/**
 * A note on the ticket of a write about a mail. The adapters find a note of unknown outcome by its text among the notes
 * created since the write was first tried, and a resend looks first (psaResendOf), so a retry adds none; a second reply
 * with the same words ("Any update?") is a note of its own.
 */
async function addNoteToTicketOfWrite(client: PsaClient, context: TPsaWriteContext, row: TPsaOutboxRow, where: TEmailTicketOfWrite, note: TAddPsaNote): Promise<{ ticket: { externalId: string; number: string }; noteId: number }> {
  const ticket = await ticketOfWrite(context.db, row.mspId, where);
  const resend = await psaResendOf(context.db, row, context.now, noteIdOfResult);
  return { ticket, noteId: (await client.addNote(Number(ticket.externalId), { ...note, resend })).id };
}

/** What the outbox keeps for a reply by mail that becomes a note on its thread's ticket. */
export interface TEmailNotePayload extends TEmailTicketOfWrite {
  /** The reply's email_connector_messages row. */
  emailMessageRowId: string;
  text: string;
}

export const EMAIL_NOTE_WRITE = 'email.ticket.note';

/**
 * A reply by mail, added to its ticket as a Description note (customer-facing discussion): on ConnectWise
 * `detailDescriptionFlag`, on Autotask a note all PSA users see. In a mail thread its target is the
 * thread's first message, so the outbox sends it only after that ticket was created, and the ticket's PSA
 * id is read when it is sent; naming a ticket number, its target is that ticket's copy (after the queue's
 * writes about it). A retry after an unknown outcome finds the note by its text among the notes created since (the
 * adapters' lookup, psaResendOf).
 */
definePsaWrite<TEmailNotePayload, { ticketId: number; number: string; noteId: number }>(EMAIL_NOTE_WRITE, {
  describe: () => PSA_WRITE_MESSAGES.summary.emailNote,
  send: async (client, payload, row, context) => {
    const { ticket, noteId } = await addNoteToTicketOfWrite(client, context, row, payload, { text: payload.text, kind: 'description' });
    return { ticketId: Number(ticket.externalId), number: ticket.number, noteId };
  },
  onDone: async (tx, row, result) => {
    const payload = row.payload as TEmailNotePayload;
    await markEmailNoteDone(tx, row.mspId, payload.emailMessageRowId, { externalId: String(result.ticketId), number: result.number }, new Date());
  },
});

/** What the outbox keeps for a file of a mail (the bytes stay in email_connector_attachments until it lands). */
export interface TEmailAttachmentPayload extends TEmailTicketOfWrite {
  /** The email_connector_attachments row. */
  attachmentRowId: string;
  /** The write of the new ticket the file goes to (absent on a reply's file, and on writes stored before review s29). */
  ticketWriteId?: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * An internal note about a file's write, kept for the same target as the file (so it follows it), once per file write and
 * kind of note (`${file write id}:${suffix}`).
 */
async function enqueueFileNote(tx: TDatabase, row: TPsaOutboxRow, kind: string, suffix: 'not-added' | 'added-after-all', note: TEmailAttachmentNotePayload, now: Date): Promise<void> {
  await enqueuePsaWrite(tx, { mspId: row.mspId, kind, idempotencyKey: `${row.id}:${suffix}`, target: { type: row.targetType, id: row.targetId }, payload: note, createdBy: row.createdBy }, now);
}

export const EMAIL_ATTACHMENT_WRITE = 'email.ticket.attachment';

/**
 * A file of a mail, added to the mail's ticket in the PSA (decision 039). Its target is the one of the mail's ticket or
 * note write, so the outbox sends it only after that (writes about one target go in order), and the ticket's PSA id is
 * read when it is sent. A retry after an unknown outcome finds the file by ticket, name and size (the adapters' lookup).
 * Once it landed, the stored bytes are dropped; the row keeps the name and size.
 */
definePsaWrite<TEmailAttachmentPayload, { ticketId: number; attachmentId: number }>(EMAIL_ATTACHMENT_WRITE, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.attachment(payload.fileName),
  send: async (client, payload, row, context) => {
    // The PSA refused that ticket for good: a ticket made again later (Make a ticket…) gets the mail's files with it.
    if (await isTicketRefused(context.db, row.mspId, payload)) throw new AppError('conflict', `The ticket of this email was not made in the PSA, so the file ${payload.fileName} was not added.`);
    const ticket = await ticketOfWrite(context.db, row.mspId, payload);
    const data = await findEmailAttachmentData(context.db, row.mspId, payload.attachmentRowId);
    if (!data) throw new AppError('not_found', `The file ${payload.fileName} is no longer kept, so it cannot be added to the ticket.`);
    const attachment = await client.addAttachment(Number(ticket.externalId), { fileName: payload.fileName, contentType: payload.contentType, data });
    return { ticketId: Number(ticket.externalId), attachmentId: attachment.id };
  },
  onDone: async (tx, row, result, now) => {
    const payload = row.payload as TEmailAttachmentPayload;
    await markEmailAttachmentDone(tx, row.mspId, payload.attachmentRowId, String(result.attachmentId));
    // It was refused for good and noted so on the ticket, then an admin sent it again and it landed: say that too.
    if (!(await findPsaWriteByKey(tx, row.mspId, `${row.id}:not-added`))) return;
    const note: TEmailAttachmentNotePayload = { threadRowId: payload.threadRowId, ticket: payload.ticket, text: attachmentAddedAfterAllText(payload.fileName) };
    await enqueueFileNote(tx, row, EMAIL_ATTACHMENT_ADDED_AFTER_ALL_WRITE, 'added-after-all', note, now);
  },
  // The ticket's text says the file was added; when the PSA refused it for good, an internal note on the ticket says
  // it was not, and why. Not when the ticket itself never reached the PSA: that failure is the one shown.
  onFailed: async (tx, row, error, now) => {
    const payload = row.payload as TEmailAttachmentPayload;
    const ticketOf: TEmailTicketOfWrite = { threadRowId: payload.threadRowId, ticket: payload.ticket };
    if ((await isTicketRefused(tx, row.mspId, payload)) || !(await findTicketOfWrite(tx, row.mspId, ticketOf))) return;
    const note: TEmailAttachmentNotePayload = { ...ticketOf, text: attachmentNotAddedText(payload.fileName, error.detail) };
    await enqueueFileNote(tx, row, EMAIL_ATTACHMENT_NOT_ADDED_WRITE, 'not-added', note, now);
  },
});

/** True when the new ticket a file was for was refused by the PSA for good (that ticket will never have it). */
async function isTicketRefused(db: TDatabase, mspId: string, payload: TEmailAttachmentPayload): Promise<boolean> {
  if (payload.ticketWriteId === undefined) return false;
  return (await findPsaWrite(db, mspId, payload.ticketWriteId))?.status === 'failed';
}

/** The internal note on a ticket whose file from the mail the PSA refused for good. */
export function attachmentNotAddedText(fileName: string, reason: string): string {
  return `The file ${fileName} from the email could not be added to this ticket. The PSA answered: ${reason} The file is still in the help-desk mailbox.`;
}

/** The internal note on a ticket whose file, refused for good and noted so, landed after an admin sent it again. */
export function attachmentAddedAfterAllText(fileName: string): string {
  return `The file ${fileName} from the email was added to this ticket after all.`;
}

/** What the outbox keeps for either note about a file. */
export interface TEmailAttachmentNotePayload extends TEmailTicketOfWrite {
  text: string;
}

export const EMAIL_ATTACHMENT_NOT_ADDED_WRITE = 'email.ticket.attachment-not-added';
export const EMAIL_ATTACHMENT_ADDED_AFTER_ALL_WRITE = 'email.ticket.attachment-added-after-all';

/**
 * An internal note (technicians only) about a file of the mail: not added after all, or (after an admin's Send
 * again) added after all. Same target as the file's write, so it goes after the writes about that ticket stored
 * before it; a retry after an unknown outcome finds the note by its text among the notes created since (psaResendOf).
 */
function defineAttachmentNote(kind: string, summary: string): void {
  definePsaWrite<TEmailAttachmentNotePayload, { ticketId: number; noteId: number }>(kind, {
    describe: () => summary,
    send: async (client, payload, row, context) => {
      const { ticket, noteId } = await addNoteToTicketOfWrite(client, context, row, payload, { text: payload.text, kind: 'internal' });
      return { ticketId: Number(ticket.externalId), noteId };
    },
  });
}

defineAttachmentNote(EMAIL_ATTACHMENT_NOT_ADDED_WRITE, PSA_WRITE_MESSAGES.summary.attachmentNotAdded);
defineAttachmentNote(EMAIL_ATTACHMENT_ADDED_AFTER_ALL_WRITE, PSA_WRITE_MESSAGES.summary.attachmentAddedAfterAll);
