import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import EmailReplyParser from 'email-reply-parser';
import type { ParsedMail } from 'mailparser';
import type { ImapFlow } from 'imapflow';
import { psaContacts, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { EMAIL_MAIL_MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { decryptSecret, sha256 } from '../../lib/crypto';
import { cutText, wellFormed } from '../../lib/text';
import { attemptPsaWrite, enqueuePsaWrite, findPsaWriteByKey } from '../psa-outbox/psa-outbox';
import { discardFailedPsaWrite } from '../psa-outbox/psa-outbox.repository';
import { findSyncedCompany, findTicketingConfig } from '../boards/boards.repository';
import { categoriserStoreFor, loadMspBoard, type TMspBoard } from '../assistant/mspboard';
import { resolveCandidate, type TResolvedCategory } from '../assistant/ticket-draft';
import { openMailbox } from './mailbox';
import { readMessage, type TReadMail } from './mail-reading';
import { chunksOf, firstUidToRead, UIDS_PER_FETCH } from './reading-start';
import {
  claimEmailMessage,
  dropChosenFiling,
  findChosenFiling,
  findChosenFilingMessageIds,
  findEmailConnector,
  findFilingRecords,
  findOpenTicketByNumber,
  findSkippedMessages,
  findThreadTicket,
  recordMailboxCheck,
  recordReadingStart,
  type TChosenFiling,
  type TEmailConnectorRow,
  type TNewEmailMessage,
  type TNumberedTicket,
  type TThreadTicket,
} from './email-connector.repository';
import { EMAIL_MESSAGE_TARGET, EMAIL_NOTE_WRITE, EMAIL_TICKET_WRITE, type TEmailNotePayload, type TEmailTicketPayload } from './email-tickets.psa-write';
import { attachmentLinesOf, enqueueAttachmentWrites, type TAttachmentPlan } from './email-attachments';

/** The queue of "read this MSP's mailbox" jobs (decision 036); one waiting job per MSP. */
export const EMAIL_CONNECTOR_QUEUE = 'email-connector-read';
/** Where the Message-ID made for a message without one (the hash of its bytes) points: nowhere. */
const HASHED_MESSAGE_ID_DOMAIN = '@switchboard.invalid';
const HASHED_MESSAGE_ID = /^<sha256-[0-9a-f]+@switchboard\.invalid>$/;
/** At most this many new messages are taken in one reading; the rest wait for the next. */
export const MESSAGES_PER_READING = 50;
/** ConnectWise's summary is at most 100 characters (Autotask allows 255); the longer text stays in the description. */
const SUMMARY_MAX = 100;
const DESCRIPTION_MAX = 20_000;

export const READING_PROBLEMS = {
  passwordUnreadable: 'The saved app password cannot be read any more. Enter it again.',
  noBoard: 'Mail is waiting: set up the board first (Boards), then tickets are created from it.',
  messageFailed: (subject: string, from: string) =>
    `The mail “${subject || '(no subject)'}” from ${from || 'an unknown sender'} could not be turned into a ticket; it stays unread and is tried again at the next reading.`,
} as const;

export interface TReadingOutcome {
  created: number;
  /** Replies added as notes to their open ticket (by mail thread or ticket number). */
  notes: number;
  /** Taken before (by an earlier reading, or another server at the same moment): nothing new was made. */
  alreadyTaken: number;
  skipped: number;
  ignored: number;
  /** Messages that failed (they stay unread and are tried again); the others of the reading are taken all the same. */
  failed: number;
  /** Why the mailbox could not be read, or null. */
  problem: string | null;
}

interface TSender {
  address: string;
  name: string;
}

/** Text from a mail as PostgreSQL can keep it: no NUL (a text column refuses one) and no half of an emoji (jsonb refuses one). */
const storable = (text: string): string => wellFormed(text.replaceAll('\u0000', ''));

/** The parsed mail with its texts storable: a sender's mail program, or a mis-encoded header, can put either in. */
export function cleanMail(mail: ParsedMail): ParsedMail {
  if (mail.subject !== undefined) mail.subject = storable(mail.subject);
  if (mail.text !== undefined) mail.text = storable(mail.text);
  if (typeof mail.html === 'string') mail.html = storable(mail.html);
  if (mail.messageId !== undefined) mail.messageId = storable(mail.messageId);
  for (const address of mail.from?.value ?? []) {
    address.name = storable(address.name);
    address.address = address.address === undefined ? undefined : storable(address.address);
  }
  return mail;
}

/** The summary: the subject, or the first line of the text, or who wrote (no mail is without a sender). */
export function summaryOf(subject: string, text: string, sender: TSender): string {
  const firstLine = text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== '') ?? '';
  const summary = subject.trim() || firstLine || `Email from ${sender.name || sender.address}`;
  return summary.length > SUMMARY_MAX ? `${cutText(summary, SUMMARY_MAX - 1)}…` : summary;
}

/** A mail over 10 MB whose text was too large to read as well (`readMessage`): the ticket is made from its headers. */
const TEXT_UNREAD = '(The email is over 10 MB, so its text was not read: it is in the help-desk mailbox.)';

/** `text` bounded (an empty text said so), with the mail's files named: added to the ticket, or left in the mailbox. */
function withAttachments(text: string, plan: TAttachmentPlan, isTextUnread = false): string {
  const empty = isTextUnread ? TEXT_UNREAD : '(The email had no text.)';
  const body = text === '' ? empty : text.length > DESCRIPTION_MAX ? `${cutText(text, DESCRIPTION_MAX)}\n[…]` : text;
  const lines = attachmentLinesOf(plan);
  return lines.length > 0 ? `${body}\n\n${lines.join('\n')}` : body;
}

/** The mail's whole text body (mailparser makes one from the HTML part when the mail has none). */
const textOf = (mail: ParsedMail) => (mail.text ?? '').replace(/\r\n/g, '\n').trim();

/**
 * A new ticket's description: the whole text, with the attachments named; a reply in the thread of a closed ticket
 * says first which ticket it follows, so the technician finds what was done before.
 */
function descriptionOf({ mail, plan, isTextUnread }: TReadMail, followUpOf: string | null): string {
  const description = withAttachments(textOf(mail), plan, isTextUnread);
  return followUpOf === null ? description : `Follow-up to ticket #${followUpOf}, which is closed.\n\n${description}`;
}

/**
 * A reply's note: who wrote, and what they wrote above the quoted thread and their signature
 * (`email-reply-parser`); the whole text when nothing is left of it.
 */
export function replyNoteOf({ mail, plan, isTextUnread }: TReadMail, sender: TSender): string {
  const whole = textOf(mail);
  const reply = new EmailReplyParser().parseReply(whole).trim() || whole;
  const who = sender.name ? `${sender.name} <${sender.address}>` : sender.address;
  return `Email from ${who}:\n\n${withAttachments(reply, plan, isTextUnread)}`;
}

/** Where a reply goes: its mail thread's ticket, or the ticket its subject names. */
type TReplyTarget = { thread: TThreadTicket; ticket: null } | { thread: null; ticket: TNumberedTicket };

/**
 * The PSA ticket number a subject names, as PSAs write it in their notifications: "Ticket #12345",
 * "Ticket#12345/…", "ticket 12345" (ConnectWise; the PSA's id), or Autotask's "T20261128.0001". Null when none.
 */
export function ticketNumberIn(subject: string): string | null {
  const autotask = /\b(T\d{8}\.\d{4})\b/.exec(subject);
  if (autotask?.[1]) return autotask[1];
  return /\bticket\s*(?:#|no\.?|number)?\s*:?\s*(\d{1,9})\b/i.exec(subject)?.[1] ?? null;
}

/** The Message-IDs a mail answers (In-Reply-To, then References), at most the 50 nearest. */
function answeredIdsOf(mail: ParsedMail): string[] {
  const references = typeof mail.references === 'string' ? [mail.references] : (mail.references ?? []);
  const ids = [mail.inReplyTo ?? '', ...references].flatMap((value) => value.split(/\s+/)).map((id) => id.trim());
  return [...new Set(ids.filter((id) => id !== '' && id.length <= 998))].slice(0, 50);
}

/** The address of a From header value ("Switchboard <no-reply@switchboard.local>", or the bare address), lower case. */
export function addressOf(from: string): string {
  return (/<([^<>]*)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase();
}

/** Mail no person wrote: auto-replies, bounces and lists (RFC 3834), which would otherwise answer ticket notifications in a loop. */
function isAutomatic(mail: ParsedMail): boolean {
  const header = (name: string) => {
    const value = mail.headers.get(name);
    return typeof value === 'string' ? value.trim().toLowerCase() : '';
  };
  const autoSubmitted = header('auto-submitted') || 'no';
  const precedence = header('precedence');
  return autoSubmitted !== 'no' || ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence) || mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond');
}

/**
 * The email connector (decision 036): reads the unread mail in a connected mailbox's INBOX and makes each
 * message a ticket in the PSA through the durable outbox, for the sender's synchronized contact (or the
 * MSP's default company), categorised by the MSP's local categoriser when it is sure enough. A message is
 * claimed by its Message-ID in the same transaction that stores its ticket, so it never becomes two
 * tickets, and it is marked \Seen only after that commit.
 */
export function createEmailTicketsService(deps: TAppDeps) {
  const db = deps.database.db;
  const categorisers = categoriserStoreFor(db, deps.now);
  const productAddress = addressOf(deps.config.mailFrom);

  /** What the audit event of a ticket or note says of the mail's files. */
  const attachmentsAudit = (plan: TAttachmentPlan) => ({ attachments: plan.toAdd.map((file) => file.fileName), attachmentsNotAdded: [...plan.overSize, ...plan.overCount, ...plan.overMail] });

  /** The audit event of a message that became a ticket or a note, in the transaction that stored it. */
  const auditMail = (tx: TDatabase, mspId: string, action: 'email_connector.ticket' | 'email_connector.note', rowId: string, details: Record<string, unknown>) =>
    deps.audit.record(tx, { mspId, actorKind: 'system', action, target: rowId, outcome: 'success', details });

  /** The synchronized contacts with the sender's address (one person may be a contact of several companies), at most 50. */
  async function contactsOf(mspId: string, board: TMspBoard, sender: TSender) {
    if (sender.address === '') return [];
    return db
      .select({ externalId: psaContacts.externalId, externalCompanyId: psaContacts.externalCompanyId, firstName: psaContacts.firstName, lastName: psaContacts.lastName, isActive: psaContacts.isActive })
      .from(psaContacts)
      .where(and(eq(psaContacts.mspId, mspId), eq(psaContacts.psaType, board.psaType), sql`lower(${psaContacts.email}) = ${sender.address}`))
      // An active contact first, then the oldest: one address in two companies files under the same one every time.
      .orderBy(sql`${psaContacts.isActive} desc`, asc(psaContacts.createdAt), asc(psaContacts.externalId))
      .limit(50);
  }

  /**
   * The company (and contact) a person chose for this mail ("Make a ticket…"), while it is still an active synchronized
   * company of the MSP's PSA; a chosen contact no longer of it is left out. Null when nothing was chosen or it is gone.
   */
  async function chosenFilingOf(mspId: string, board: TMspBoard, chosen: TChosenFiling | null) {
    if (!chosen || chosen.psaType !== board.psaType) return null;
    const { company, contact } = await findFilingRecords(db, mspId, board.psaType, chosen.companyId, chosen.contactId);
    if (!company) return null;
    return { source: 'chosen' as const, companyId: chosen.companyId, companyName: company.name, contactId: contact ? chosen.contactId : null, contactName: contact?.name ?? null };
  }

  /**
   * Where the ticket goes: where a person chose to file this mail, else the sender's contact and company, else the
   * default company (without a contact), else nowhere.
   */
  async function filingOf(mspId: string, board: TMspBoard, sender: TSender, chosen: TChosenFiling | null) {
    const byChoice = await chosenFilingOf(mspId, board, chosen);
    if (byChoice) return byChoice;
    const [contact] = await contactsOf(mspId, board, sender);
    if (contact) {
      const company = await findSyncedCompany(db, mspId, board.psaType, Number.parseInt(contact.externalCompanyId, 10));
      return {
        source: 'contact' as const,
        companyId: contact.externalCompanyId,
        companyName: company?.name ?? null,
        contactId: contact.externalId,
        contactName: `${contact.firstName} ${contact.lastName}`.trim(),
      };
    }
    const config = await findTicketingConfig(db, mspId, board.psaType);
    if (config?.defaultCompanyId == null) return null;
    return { source: 'default-company' as const, companyId: String(config.defaultCompanyId), companyName: config.defaultCompanyName, contactId: null, contactName: null };
  }

  /**
   * The open ticket this mail replies to, when its sender may add to it. In a thread of the mailbox
   * (In-Reply-To, References): the person who wrote the mail that made the ticket, or a contact of its
   * company. Otherwise by a ticket number in the subject (the PSA's own notification answered to the
   * help-desk address): a contact of the ticket's company only, so a number alone opens no one's ticket.
   * Otherwise a new ticket: for a new conversation, a stranger, or a closed ticket — then `followUpOf` names it.
   */
  async function replyTargetOf(mspId: string, board: TMspBoard, mail: ParsedMail, sender: TSender, subject: string): Promise<{ note: TReplyTarget | null; followUpOf: string | null }> {
    const newTicket = { note: null, followUpOf: null };
    if (sender.address === '') return newTicket;
    // Any active contact with the address may speak for its company: one person listed in two companies answers a
    // ticket of either (review s29; only the first was compared, and the reply became a ticket of the other company).
    const isContactOf = async (companyExternalId: string) => (await contactsOf(mspId, board, sender)).some((contact) => contact.isActive && contact.externalCompanyId === companyExternalId);
    const thread = await findThreadTicket(db, mspId, board.psaType, answeredIdsOf(mail));
    if (thread && !thread.isClosed) {
      if (thread.fromAddress === sender.address) return { note: { thread, ticket: null }, followUpOf: null };
      if (thread.companyExternalId !== null && (await isContactOf(thread.companyExternalId))) return { note: { thread, ticket: null }, followUpOf: null };
      return newTicket;
    }
    if (thread) return { note: null, followUpOf: thread.psaTicketNumber ?? thread.psaTicketExternalId };
    const number = ticketNumberIn(subject);
    if (number === null) return newTicket;
    const ticket = await findOpenTicketByNumber(db, mspId, board.psaType, number);
    if (!ticket || ticket.companyExternalId === null) return newTicket;
    return (await isContactOf(ticket.companyExternalId)) ? { note: { thread: null, ticket }, followUpOf: null } : newTicket;
  }

  /**
   * A reply: claimed, and its note and files stored in the outbox (after its ticket's earlier writes), in one
   * transaction. Null when it was taken before.
   */
  async function takeReply(mspId: string, target: TReplyTarget, read: TReadMail, sender: TSender, base: Omit<TNewEmailMessage, 'state' | 'reason'>, now: Date) {
    const { thread, ticket } = target;
    const { plan } = read;
    return db.transaction(async (tx) => {
      const row = await claimEmailMessage(tx, mspId, { ...base, state: 'note', reason: null, threadRowId: thread?.id ?? null }, now);
      if (!row) return null;
      const ticketOf = { threadRowId: thread?.id ?? null, ticket: ticket ? { externalId: ticket.externalId, number: ticket.number } : null };
      const payload: TEmailNotePayload = { emailMessageRowId: row.id, ...ticketOf, text: replyNoteOf(read, sender) };
      const writeTarget = ticket ? { type: 'ticket', id: ticket.rowId } : { type: EMAIL_MESSAGE_TARGET, id: thread.id };
      const write = await enqueuePsaWrite(tx, { mspId, kind: EMAIL_NOTE_WRITE, idempotencyKey: `email:${row.id}`, target: writeTarget, payload }, now);
      const attachmentWriteIds = await enqueueAttachmentWrites(tx, mspId, row.id, plan.toAdd, { target: writeTarget, ticketOf }, now);
      await auditMail(tx, mspId, 'email_connector.note', row.id, {
        from: sender.address,
        subject: base.subject,
        messageId: base.messageId,
        thread: thread?.id ?? null,
        ticket: ticket?.externalId ?? thread?.psaTicketExternalId ?? null,
        ...attachmentsAudit(plan),
      });
      return { state: 'note' as const, outboxIds: [write.id, ...attachmentWriteIds] };
    });
  }

  /** Categorises like a chat ticket; the board's defaults (its first board, the PSA's own priority) when the model is not sure. */
  async function categoryOf(mspId: string, board: TMspBoard, text: string): Promise<{ category: TResolvedCategory | null; engine: 'local' | 'board-default'; confidence: number }> {
    const categoriser = await categorisers.forMsp(mspId, board);
    const proposal = categoriser.propose({ text });
    const category = proposal.kind === 'answer' ? resolveCandidate(board, proposal.choice) : null;
    return { category, engine: category ? 'local' : 'board-default', confidence: proposal.confidence };
  }

  /**
   * The idempotency key of a message's ticket write: `email:<row id>`, and for a mail made a ticket again after its
   * ticket never reached the PSA (refused for good, or its PSA replaced: "Make a ticket…") the next free
   * `email:<row id>:<n>` — the earlier key answers the earlier, failed write. Those earlier writes are discarded, so
   * nobody's "Send again" makes the mail a second ticket.
   */
  async function ticketWriteKeyOf(tx: TDatabase, mspId: string, rowId: string, now: Date): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const key = attempt === 1 ? `email:${rowId}` : `email:${rowId}:${attempt}`;
      const earlier = await findPsaWriteByKey(tx, mspId, key);
      if (!earlier) return key;
      if (earlier.status === 'failed') await discardFailedPsaWrite(tx, mspId, earlier.id, now);
    }
  }

  /** One message: claimed and, when it is a ticket, stored in the outbox, in one transaction. Null when it was taken before. */
  async function takeMessage(connector: TEmailConnectorRow, board: TMspBoard, read: TReadMail): Promise<{ state: TNewEmailMessage['state']; outboxIds: string[] } | null> {
    const { mail, source, plan } = read;
    const mspId = connector.mspId;
    const from = mail.from?.value[0];
    const sender: TSender = { address: (from?.address ?? '').trim().toLowerCase(), name: (from?.name ?? '').trim() };
    const subject = (mail.subject ?? '').trim();
    // A message without a Message-ID is known by its bytes: the same mail read twice is the same message.
    const messageId = mail.messageId?.trim() || `<sha256-${sha256(source.toString('latin1'))}${HASHED_MESSAGE_ID_DOMAIN}>`;
    const base = { messageId: cutText(messageId, 998), fromAddress: cutText(sender.address, 320), subject: cutText(subject, 998), receivedAt: mail.date ?? null };
    const now = deps.now();

    // This product's own mail too (sign-in codes, alerts: MAIL_FROM), should it lack its Auto-Submitted header (an older
    // release, a relay that drops it), so a sign-in code never becomes a ticket nor a mail loop starts (review s29).
    if (isAutomatic(mail) || sender.address === connector.address.toLowerCase() || sender.address === productAddress) {
      const row = await claimEmailMessage(db, mspId, { ...base, state: 'ignored', reason: 'An automatic reply or the help-desk mailbox’s own mail.' }, now);
      return row ? { state: 'ignored', outboxIds: [] } : null;
    }
    // A skipped mail a person chose a company for ("Make a ticket…") is to be a ticket there, whatever it answers.
    const chosen = await findChosenFiling(db, mspId, base.messageId);
    // A reply about an open ticket (its mail thread, or its number in the subject) is a note on it, not a second ticket.
    const reply = await replyTargetOf(mspId, board, mail, sender, subject);
    if (reply.note && !chosen) return takeReply(mspId, reply.note, read, sender, base, now);
    const filing = await filingOf(mspId, board, sender, chosen);
    if (!filing) {
      // Left unread in the mailbox for a person: no contact has this address and the MSP has no default company (or the
      // company a person chose for it is no longer synchronized: the claim drops that choice, so they can choose again).
      const reason = chosen ? EMAIL_MAIL_MESSAGES.fileUnder.chosenCompanyGone : 'No synchronized contact has this address and no default company is set.';
      const row = await claimEmailMessage(db, mspId, { ...base, state: 'skipped', reason }, now);
      return row ? { state: 'skipped', outboxIds: [] } : null;
    }
    const text = descriptionOf(read, reply.followUpOf);
    const summary = summaryOf(subject, mail.text ?? '', sender);
    const { category, engine, confidence } = await categoryOf(mspId, board, `${subject}\n${mail.text ?? ''}`);
    const target = category?.board ?? board.stored[0];
    if (!target) throw new Error('loadMspBoard answers only with at least one board');
    const priorityName = category?.priority ?? null;
    const input: TEmailTicketPayload['input'] = {
      summary,
      description: text,
      boardId: target.board.boardId,
      companyId: Number.parseInt(filing.companyId, 10),
      contactId: filing.contactId === null ? null : Number.parseInt(filing.contactId, 10),
      typeId: category?.typeId ?? null,
      subtypeId: category?.subTypeId ?? null,
      priorityId: category?.priorityId ?? null,
      statusId: target.board.newStatusId,
      sourceId: target.board.sourceValue,
      ticketTypeId: target.board.ticketTypeId,
      ticketCategoryId: target.board.ticketCategoryValue,
      dueAt: category ? new Date(now.getTime() + category.slaHours * 3_600_000).toISOString() : null,
      reporterName: sender.name || null,
      reporterEmail: sender.address || null,
      reporterPhone: null,
    };

    return db.transaction(async (tx) => {
      const row = await claimEmailMessage(tx, mspId, { ...base, state: 'pending', reason: null }, now);
      if (!row) return null;
      const payload: TEmailTicketPayload = {
        psaType: board.psaType,
        emailMessageRowId: row.id,
        input,
        names: { board: target.board.boardName, type: category?.typeName ?? null, subtype: category?.subTypeName ?? null, priority: priorityName, company: filing.companyName, contact: filing.contactName },
      };
      const writeTarget = { type: EMAIL_MESSAGE_TARGET, id: row.id };
      const idempotencyKey = await ticketWriteKeyOf(tx, mspId, row.id, now);
      const write = await enqueuePsaWrite(tx, { mspId, kind: EMAIL_TICKET_WRITE, idempotencyKey, target: writeTarget, payload }, now);
      // The files wait behind the ticket (same target) and are added to it once the message row has its PSA id.
      const attachmentWriteIds = await enqueueAttachmentWrites(tx, mspId, row.id, plan.toAdd, { target: writeTarget, ticketOf: { threadRowId: row.id, ticket: null }, ticketWriteId: write.id }, now);
      await auditMail(tx, mspId, 'email_connector.ticket', row.id, {
        from: sender.address,
        subject: summary,
        messageId,
        filing: filing.source,
        company: filing.companyId,
        contact: filing.contactId,
        board: target.board.boardName,
        type: category?.typeName ?? null,
        subtype: category?.subTypeName ?? null,
        tier: category?.tier ?? null,
        engine,
        confidence: Math.round(confidence * 1000) / 1000,
        ...attachmentsAudit(plan),
      });
      return { state: 'pending' as const, outboxIds: [write.id, ...attachmentWriteIds] };
    });
  }

  /**
   * Of the unread messages, those skipped before that still have nowhere to go: nobody chose a company for them, the MSP
   * has no default company and no synchronized contact has the sender's address yet. They stay unread for a person and are passed over without
   * being fetched, so they cannot hold the reading's places; the others skipped before are taken again.
   */
  async function stillSkipped(client: ImapFlow, mspId: string, board: TMspBoard, unseen: readonly number[]): Promise<Set<number>> {
    if (unseen.length === 0) return new Set();
    const uidOfId = new Map<string, number>();
    for (const chunk of chunksOf(unseen, UIDS_PER_FETCH)) {
      for (const message of await client.fetchAll(chunk, { uid: true, envelope: true }, { uid: true })) {
        const messageId = message.envelope?.messageId?.trim();
        if (messageId) uidOfId.set(cutText(messageId, 998), message.uid);
      }
    }
    const skipped = await findSkippedMessages(db, mspId, [...uidOfId.keys()]);
    if (skipped.length === 0 || (await findTicketingConfig(db, mspId, board.psaType))?.defaultCompanyId != null) return new Set();
    const addresses = [...new Set(skipped.map((message) => message.fromAddress).filter((address) => address !== ''))];
    const known = new Set(
      addresses.length === 0
        ? []
        : (
            await db
              .selectDistinct({ address: sql<string>`lower(${psaContacts.email})` })
              .from(psaContacts)
              .where(and(eq(psaContacts.mspId, mspId), eq(psaContacts.psaType, board.psaType), inArray(sql`lower(${psaContacts.email})`, addresses)))
          ).map((contact) => contact.address),
    );
    return new Set(skipped.filter((message) => !known.has(message.fromAddress)).flatMap((message) => uidOfId.get(message.messageId) ?? []));
  }

  /**
   * The mail a person chose a company for ("Make a ticket…"), looked up in the open INBOX by its Message-ID whatever its
   * flags: someone may have opened it since it was skipped. One no longer there (moved, deleted, or another mailbox is
   * connected now) is skipped again, saying so, and its choice dropped, so the list stops saying it waits. Their UIDs.
   */
  async function chosenInInbox(client: ImapFlow, mspId: string, outcome: TReadingOutcome): Promise<{ uids: number[]; messageIds: Set<string> }> {
    const uids: number[] = [];
    const messageIds = new Set<string>();
    for (const messageId of await findChosenFilingMessageIds(db, mspId, MESSAGES_PER_READING)) {
      // A mail without a Message-ID is known by the hash of its bytes, which no search finds: it is taken while unread.
      if (HASHED_MESSAGE_ID.test(messageId)) continue;
      const found = (await client.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
      if (found.length > 0) {
        uids.push(...found);
        messageIds.add(messageId);
      } else if (await dropChosenFiling(db, mspId, messageId, EMAIL_MAIL_MESSAGES.fileUnder.notInInbox, deps.now())) {
        outcome.skipped += 1;
      }
    }
    return { uids, messageIds };
  }

  /** Reads the unread messages of the open INBOX, oldest first, and takes each (and, first, the mail filed by a person). */
  async function readInbox(client: ImapFlow, connector: TEmailConnectorRow, board: TMspBoard, signal: AbortSignal, outcome: TReadingOutcome, failures: string[], onMessageError: (error: unknown) => void): Promise<void> {
    const lock = await client.getMailboxLock('INBOX');
    try {
      // Only the mail that arrived since the mailbox was connected (review s29): what it held before stays untouched.
      const start = await firstUidToRead(client, { uidValidity: connector.readFromUidValidity, uid: connector.readFromUid, at: connector.readFromAt });
      if (start.renewed) await recordReadingStart(db, connector.mspId, start.renewed);
      const fromUid = start.uid;
      const query = fromUid === null ? { seen: false } : { seen: false, uid: `${fromUid}:*` };
      // "N:*" holds the last message even when its UID is below N (RFC 3501 §6.4.8): kept out here.
      const unseen = ((await client.search(query, { uid: true })) || []).filter((uid) => fromUid === null || uid >= fromUid).sort((a, b) => a - b);
      const waiting = await stillSkipped(client, connector.mspId, board, unseen);
      outcome.skipped += waiting.size;
      const chosen = await chosenInInbox(client, connector.mspId, outcome);
      const unseenSet = new Set(unseen);
      const uids = [...new Set([...chosen.uids, ...unseen.filter((candidate) => !waiting.has(candidate))])];
      for (const uid of uids.slice(0, MESSAGES_PER_READING)) {
        if (signal.aborted) return;
        const read = await readMessage(client, uid);
        if (!read) continue;
        const mail = cleanMail(read.mail);
        // A mail that was read already is taken only as the one a person filed (a header search matches parts of a value).
        if (!unseenSet.has(uid) && !chosen.messageIds.has(cutText(mail.messageId?.trim() ?? '', 998))) continue;
        let taken: Awaited<ReturnType<typeof takeMessage>>;
        try {
          taken = await takeMessage(connector, board, { ...read, mail });
        } catch (error) {
          // One mail that cannot be stored must not hold up the others: it stays unread and is tried again next time.
          outcome.failed += 1;
          failures.push(READING_PROBLEMS.messageFailed(cutText(mail.subject ?? '', 120), mail.from?.value[0]?.address ?? ''));
          onMessageError(error);
          continue;
        }
        if (taken === null) outcome.alreadyTaken += 1;
        else if (taken.state === 'pending') outcome.created += 1;
        else if (taken.state === 'note') outcome.notes += 1;
        else if (taken.state === 'skipped') outcome.skipped += 1;
        else outcome.ignored += 1;
        // After the commit: try the PSA at once, the ticket or note and then its files (a PSA that is down, or a write
        // waiting behind an earlier one, leaves it to the outbox's retries).
        for (const outboxId of taken?.outboxIds ?? []) await attemptPsaWrite(deps, connector.mspId, outboxId).catch(() => undefined);
        // Marked read only once the ticket is stored; a skipped message stays unread for a person to see (and is taken
        // again once it has somewhere to go).
        if (taken?.state !== 'skipped') {
          await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }).catch(() => {
            // Read again next time, then found by its Message-ID: no second ticket.
          });
        }
      }
    } finally {
      lock.release();
    }
  }

  return {
    /** One reading of the MSP's mailbox (a job of EMAIL_CONNECTOR_QUEUE); what it came to. */
    async readMailbox(mspId: string, signal: AbortSignal = new AbortController().signal, onMessageError: (error: unknown) => void = () => undefined): Promise<TReadingOutcome> {
      const outcome: TReadingOutcome = { created: 0, notes: 0, alreadyTaken: 0, skipped: 0, ignored: 0, failed: 0, problem: null };
      const connector = await findEmailConnector(db, mspId);
      if (!connector) return outcome;
      const failures: string[] = [];
      const finish = async (problem: string | null) => {
        // What the settings screen shows: plain text (a NUL or half an emoji from a mail would not fit the column).
        const shown = problem ?? failures[0] ?? null;
        const stored = shown === null ? null : cutText(shown.replaceAll('\u0000', ''), 1000);
        await recordMailboxCheck(db, mspId, stored, deps.now());
        return { ...outcome, problem: stored };
      };
      let password: string;
      try {
        password = decryptSecret(deps.config.encryptionKey, connector.secretCiphertext);
      } catch {
        return finish(READING_PROBLEMS.passwordUnreadable);
      }
      const board = await loadMspBoard(db, mspId);
      if (!board) return finish(READING_PROBLEMS.noBoard);
      let client: ImapFlow;
      try {
        client = await openMailbox({ address: connector.address, password, host: connector.imapHost, port: connector.imapPort }, deps.config.outboundAllowList);
      } catch (error) {
        return finish(error instanceof AppError ? error.detail : 'The mailbox could not be read.');
      }
      try {
        await readInbox(client, connector, board, signal, outcome, failures, onMessageError);
      } catch (error) {
        // The mail server's own words help (a dropped connection, a refused command); a database error's SQL does not.
        const reason = error instanceof Error && !error.message.startsWith('Failed query') ? ` (${cutText(error.message, 300)})` : '';
        if (reason === '') onMessageError(error);
        return finish(error instanceof AppError ? error.detail : `The mailbox could not be read${reason}.`);
      } finally {
        await client.logout().catch(() => client.close());
      }
      return finish(null);
    },
  };
}

export type TEmailTicketsService = ReturnType<typeof createEmailTicketsService>;
