import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { TPsaType } from '@switchboard/contracts';
import { emailConnectorAttachments, emailConnectorMessages, emailConnectors, psaCompanies, psaContacts, psaTickets, type TDatabase } from '@switchboard/db';
import { cutText } from '../../lib/text';
import { chunksOf, type TReadingStart } from './reading-start';

export type TEmailConnectorRow = typeof emailConnectors.$inferSelect;
export type TEmailMessageRow = typeof emailConnectorMessages.$inferSelect;

/** The MSP's email connector, or null when it has none. */
export async function findEmailConnector(db: TDatabase, mspId: string): Promise<TEmailConnectorRow | null> {
  const [row] = await db.select().from(emailConnectors).where(eq(emailConnectors.mspId, mspId)).limit(1);
  return row ?? null;
}

/** The MSPs with a connected mailbox (the connector's pass asks for each to be read). */
export async function listConnectedMspIds(db: TDatabase): Promise<string[]> {
  return (await db.select({ mspId: emailConnectors.mspId }).from(emailConnectors)).map((row) => row.mspId);
}

export interface TSaveEmailConnector {
  address: string;
  imapHost: string;
  imapPort: number;
  secretCiphertext: string;
  passwordHint: string;
}

/** The columns of where reading starts. */
const readingStartColumns = (start: TReadingStart) => ({ readFromUidValidity: start.uidValidity, readFromUid: start.uid, readFromAt: start.at });

/**
 * Creates or replaces the MSP's one connector; a new mailbox starts without a reading error. `start`: where reading
 * starts (another mailbox, or another server); null keeps the stored start (the same mailbox, e.g. a new password).
 */
export async function saveEmailConnector(db: TDatabase, mspId: string, values: TSaveEmailConnector, start: TReadingStart | null, now: Date): Promise<TEmailConnectorRow> {
  const started = start ? readingStartColumns(start) : {};
  const [row] = await db
    .insert(emailConnectors)
    .values({ mspId, ...values, ...started, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: emailConnectors.mspId, set: { ...values, ...started, lastError: null, updatedAt: now } })
    .returning();
  if (!row) throw new Error('email connector not saved');
  return row;
}

/** Removes the connector and its password; true when there was one. The message log stays (it keeps re-reads from duplicating). */
export async function deleteEmailConnector(db: TDatabase, mspId: string): Promise<boolean> {
  const deleted = await db.delete(emailConnectors).where(eq(emailConnectors.mspId, mspId)).returning({ mspId: emailConnectors.mspId });
  return deleted.length > 0;
}

/** Where reading the mailbox starts from now on (found anew after the server renumbered its UIDs). */
export async function recordReadingStart(db: TDatabase, mspId: string, start: TReadingStart): Promise<void> {
  await db.update(emailConnectors).set(readingStartColumns(start)).where(eq(emailConnectors.mspId, mspId));
}

/** What the last reading of the mailbox came to (null: it went well). */
export async function recordMailboxCheck(db: TDatabase, mspId: string, lastError: string | null, now: Date): Promise<void> {
  await db.update(emailConnectors).set({ lastCheckedAt: now, lastError }).where(eq(emailConnectors.mspId, mspId));
}

/** Tickets made from the MSP's mail (pending in the PSA or done). */
export async function countEmailTickets(db: TDatabase, mspId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(emailConnectorMessages)
    .where(and(eq(emailConnectorMessages.mspId, mspId), inArray(emailConnectorMessages.state, ['pending', 'done'])));
  return row?.total ?? 0;
}

/** A message as the "Recent mail" list shows it: with the names of the company and contact a person chose for it, if any. */
export type TListedEmailMessage = TEmailMessageRow & { fileCompanyName: string | null; fileContactName: string | null };

/** The messages with the names of their chosen company and contact (from the synchronized copies of the chosen PSA). */
function selectListedEmailMessages(db: TDatabase, mspId: string) {
  return db
    .select({
      message: emailConnectorMessages,
      fileCompanyName: psaCompanies.name,
      fileContactName: sql<string | null>`nullif(trim(${psaContacts.firstName} || ' ' || ${psaContacts.lastName}), '')`,
    })
    .from(emailConnectorMessages)
    .leftJoin(
      psaCompanies,
      and(eq(psaCompanies.mspId, emailConnectorMessages.mspId), eq(psaCompanies.psaType, emailConnectorMessages.filePsaType), eq(psaCompanies.externalId, emailConnectorMessages.fileCompanyId)),
    )
    .leftJoin(
      psaContacts,
      and(eq(psaContacts.mspId, emailConnectorMessages.mspId), eq(psaContacts.psaType, emailConnectorMessages.filePsaType), eq(psaContacts.externalId, emailConnectorMessages.fileContactId)),
    )
    .where(eq(emailConnectorMessages.mspId, mspId))
    .$dynamic();
}

const listed = (row: { message: TEmailMessageRow; fileCompanyName: string | null; fileContactName: string | null }): TListedEmailMessage => ({
  ...row.message,
  fileCompanyName: row.fileCompanyName,
  fileContactName: row.fileContactName,
});

/** The MSP's messages read from the mailbox, newest first (the connector card's "Recent mail"). */
export async function listRecentEmailMessages(db: TDatabase, mspId: string, limit: number): Promise<TListedEmailMessage[]> {
  const rows = await selectListedEmailMessages(db, mspId)
    // One reading takes several messages at one moment: among them the newest mail first.
    .orderBy(desc(emailConnectorMessages.createdAt), sql`${emailConnectorMessages.receivedAt} desc nulls last`, desc(emailConnectorMessages.id))
    .limit(limit);
  return rows.map(listed);
}

/** One message of the MSP's mailbox as the list shows it, or null. */
export async function findListedEmailMessage(db: TDatabase, mspId: string, id: string): Promise<TListedEmailMessage | null> {
  const [row] = await selectListedEmailMessages(db, mspId).where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, id))).limit(1);
  return row ? listed(row) : null;
}

/** Where a person chose to file a skipped message: PSA ids of that PSA's synchronized records. */
export interface TChosenFiling {
  psaType: TPsaType;
  companyId: string;
  contactId: string | null;
}

/**
 * Stores the company (and maybe contact) a person chose for a skipped message, in place of an earlier choice; the row,
 * or null when the message is not skipped (any more: a reading may have just taken it).
 */
export async function chooseEmailFiling(db: TDatabase, mspId: string, id: string, choice: TChosenFiling, now: Date): Promise<TEmailMessageRow | null> {
  const [row] = await db
    .update(emailConnectorMessages)
    .set({ filePsaType: choice.psaType, fileCompanyId: choice.companyId, fileContactId: choice.contactId, updatedAt: now })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, id), eq(emailConnectorMessages.state, 'skipped')))
    .returning();
  return row ?? null;
}

/** The company and contact a person chose for this skipped message, or null when none was chosen. */
export async function findChosenFiling(db: TDatabase, mspId: string, messageId: string): Promise<TChosenFiling | null> {
  const [row] = await db
    .select({ psaType: emailConnectorMessages.filePsaType, companyId: emailConnectorMessages.fileCompanyId, contactId: emailConnectorMessages.fileContactId })
    .from(emailConnectorMessages)
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.messageId, messageId), eq(emailConnectorMessages.state, 'skipped')));
  return row?.psaType && row.companyId ? { psaType: row.psaType, companyId: row.companyId, contactId: row.contactId } : null;
}

/** The Message-IDs of the skipped messages a person chose a company for, the oldest choice first (at most `limit`). */
export async function findChosenFilingMessageIds(db: TDatabase, mspId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ messageId: emailConnectorMessages.messageId })
    .from(emailConnectorMessages)
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.state, 'skipped'), isNotNull(emailConnectorMessages.fileCompanyId)))
    .orderBy(asc(emailConnectorMessages.updatedAt), asc(emailConnectorMessages.id))
    .limit(limit);
  return rows.map((row) => row.messageId);
}

/**
 * A skipped message that cannot be filed where a person chose (it is no longer in the mailbox): the choice is dropped and
 * the reason says why, so the list shows it skipped again. True when it still had a choice.
 */
export async function dropChosenFiling(db: TDatabase, mspId: string, messageId: string, reason: string, now: Date): Promise<boolean> {
  const dropped = await db
    .update(emailConnectorMessages)
    .set({ reason, filePsaType: null, fileCompanyId: null, fileContactId: null, updatedAt: now })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.messageId, messageId), eq(emailConnectorMessages.state, 'skipped'), isNotNull(emailConnectorMessages.fileCompanyId)))
    .returning({ id: emailConnectorMessages.id });
  return dropped.length > 0;
}

/**
 * The active synchronized company with this PSA id, and the active contact with this PSA id among that company's
 * contacts (null when there is no such company, or no such contact of it).
 */
export async function findFilingRecords(
  db: TDatabase,
  mspId: string,
  psaType: TPsaType,
  companyId: string,
  contactId: string | null,
): Promise<{ company: { name: string } | null; contact: { name: string } | null }> {
  const [company] = await db
    .select({ name: psaCompanies.name })
    .from(psaCompanies)
    .where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), eq(psaCompanies.externalId, companyId), eq(psaCompanies.isActive, true)))
    .limit(1);
  if (!company || contactId === null) return { company: company ?? null, contact: null };
  const [contact] = await db
    .select({ firstName: psaContacts.firstName, lastName: psaContacts.lastName })
    .from(psaContacts)
    .where(
      and(
        eq(psaContacts.mspId, mspId),
        eq(psaContacts.psaType, psaType),
        eq(psaContacts.externalId, contactId),
        eq(psaContacts.externalCompanyId, companyId),
        eq(psaContacts.isActive, true),
      ),
    )
    .limit(1);
  return { company, contact: contact ? { name: `${contact.firstName} ${contact.lastName}`.trim() } : null };
}

export type TNewEmailMessage = Pick<TEmailMessageRow, 'messageId' | 'fromAddress' | 'subject' | 'state' | 'reason' | 'receivedAt'> & { threadRowId?: string | null };

/**
 * Claims a message by its Message-ID in the caller's transaction: the row, or null when the message was
 * taken before (by an earlier pass, or by another replica at the same moment). A message recorded as skipped
 * (it stayed unread: nowhere to file it) is claimed again, in the same row, when it is read again: once the MSP
 * has a default company or the sender is a contact it becomes a ticket. Of two replicas doing so at once, the
 * second waits for the first's row and then finds it no longer skipped.
 */
export async function claimEmailMessage(db: TDatabase, mspId: string, message: TNewEmailMessage, now: Date): Promise<TEmailMessageRow | null> {
  const [row] = await db
    .insert(emailConnectorMessages)
    .values({ mspId, ...message, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [emailConnectorMessages.mspId, emailConnectorMessages.messageId],
      set: {
        state: message.state,
        reason: message.reason,
        threadRowId: message.threadRowId ?? null,
        // Skipped again (the company a person chose is gone): the choice goes too, so the list offers "Make a ticket…" again.
        ...(message.state === 'skipped' ? { filePsaType: null, fileCompanyId: null, fileContactId: null } : {}),
        updatedAt: now,
      },
      setWhere: sql`${emailConnectorMessages.state} = 'skipped'`,
    })
    .returning();
  return row ?? null;
}

/** Message-IDs per query: a bind parameter each, and PostgreSQL takes at most 65,535 in one statement (review s29). */
const MESSAGE_IDS_PER_QUERY = 1000;

/** Of these Message-IDs (any number), the ones recorded as skipped that nobody chose a company for, with their senders. */
export async function findSkippedMessages(db: TDatabase, mspId: string, messageIds: readonly string[]): Promise<Array<{ messageId: string; fromAddress: string }>> {
  const found: Array<{ messageId: string; fromAddress: string }> = [];
  for (const chunk of chunksOf(messageIds, MESSAGE_IDS_PER_QUERY)) {
    const rows = await db
      .select({ messageId: emailConnectorMessages.messageId, fromAddress: emailConnectorMessages.fromAddress })
      .from(emailConnectorMessages)
      .where(and(eq(emailConnectorMessages.mspId, mspId), inArray(emailConnectorMessages.messageId, chunk), eq(emailConnectorMessages.state, 'skipped'), isNull(emailConnectorMessages.fileCompanyId)));
    found.push(...rows);
  }
  return found;
}

/** The PSA has the message's ticket. */
export async function markEmailTicketDone(db: TDatabase, mspId: string, id: string, ticket: { externalId: string; number: string }, now: Date): Promise<void> {
  await db
    .update(emailConnectorMessages)
    .set({ state: 'done', psaTicketExternalId: ticket.externalId, psaTicketNumber: ticket.number, updatedAt: now })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, id)));
}

/**
 * The PSA refused the message's ticket for good: the message is skipped with the reason, as a mail with nowhere to go
 * is, so "Make a ticket…" can file it again. Only while its ticket is still waiting (a later state stays).
 */
export async function markEmailTicketRefused(db: TDatabase, mspId: string, id: string, reason: string, now: Date): Promise<void> {
  await db
    .update(emailConnectorMessages)
    .set({ state: 'skipped', reason: cutText(reason, 1000), updatedAt: now })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, id), eq(emailConnectorMessages.state, 'pending')));
}

/** A message that made a ticket, as a reply in its thread needs it. */
export interface TThreadTicket {
  /** The row of the message that made the ticket. */
  id: string;
  fromAddress: string;
  /** The PSA's ticket, once the ticket is there (null while it waits in the outbox). */
  psaTicketExternalId: string | null;
  /** The number the PSA shows for it (Autotask's "T…"; ConnectWise's id), once it is there. */
  psaTicketNumber: string | null;
  /** The ticket's company and whether it is closed, from its synchronized copy (null before the copy exists). */
  companyExternalId: string | null;
  isClosed: boolean;
}

/**
 * The ticket a reply belongs to: among the messages the reply names (In-Reply-To, References), the newest
 * one that made a ticket, or is itself a reply in such a thread (then that thread's ticket), with its copy
 * in the MSP's current PSA. Null when none.
 */
export async function findThreadTicket(db: TDatabase, mspId: string, psaType: TPsaType, messageIds: string[]): Promise<TThreadTicket | null> {
  if (messageIds.length === 0) return null;
  const named = db
    .select({ rootId: sql<string>`coalesce(${emailConnectorMessages.threadRowId}, ${emailConnectorMessages.id})`.as('root_id') })
    .from(emailConnectorMessages)
    .where(and(eq(emailConnectorMessages.mspId, mspId), inArray(emailConnectorMessages.messageId, messageIds), inArray(emailConnectorMessages.state, ['pending', 'done', 'note'])))
    .as('named');
  const [row] = await db
    .select({
      id: emailConnectorMessages.id,
      fromAddress: emailConnectorMessages.fromAddress,
      psaTicketExternalId: emailConnectorMessages.psaTicketExternalId,
      psaTicketNumber: emailConnectorMessages.psaTicketNumber,
      companyExternalId: psaTickets.companyExternalId,
      isClosed: sql<boolean>`coalesce(${psaTickets.isClosed}, false)`,
    })
    .from(emailConnectorMessages)
    .innerJoin(named, eq(named.rootId, emailConnectorMessages.id))
    // The copy in the MSP's current PSA (after a switch of PSA the other one's ids may repeat).
    .leftJoin(psaTickets, and(eq(psaTickets.mspId, emailConnectorMessages.mspId), eq(psaTickets.psaType, psaType), eq(psaTickets.externalId, emailConnectorMessages.psaTicketExternalId)))
    // A made ticket names its PSA ticket: one without (its PSA was replaced, decision 042) has no thread to add to.
    .where(and(eq(emailConnectorMessages.mspId, mspId), or(eq(emailConnectorMessages.state, 'pending'), and(eq(emailConnectorMessages.state, 'done'), isNotNull(emailConnectorMessages.psaTicketExternalId)))))
    .orderBy(desc(emailConnectorMessages.createdAt))
    .limit(1);
  return row ?? null;
}

/** The PSA's ticket of a thread's first message (null until the PSA has it). */
export async function findThreadTicketId(db: TDatabase, mspId: string, threadRowId: string): Promise<{ externalId: string; number: string } | null> {
  const [row] = await db
    .select({ externalId: emailConnectorMessages.psaTicketExternalId, number: emailConnectorMessages.psaTicketNumber })
    .from(emailConnectorMessages)
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, threadRowId)));
  return row?.externalId ? { externalId: row.externalId, number: row.number ?? row.externalId } : null;
}

/** A reply's note is in the PSA, on this ticket (the row stays a note). */
export async function markEmailNoteDone(db: TDatabase, mspId: string, id: string, ticket: { externalId: string; number: string }, now: Date): Promise<void> {
  await db
    .update(emailConnectorMessages)
    .set({ psaTicketExternalId: ticket.externalId, psaTicketNumber: ticket.number, updatedAt: now })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.id, id)));
}

/** An open ticket copy a reply by mail may name by its number, with whom it is for. */
export interface TNumberedTicket {
  /** The psa_tickets row (the outbox target of writes about this ticket). */
  rowId: string;
  externalId: string;
  number: string;
  companyExternalId: string | null;
}

/**
 * The open ticket copy of the MSP's PSA with this number: the PSA's id (ConnectWise; Autotask's id too),
 * or Autotask's ticket number ("T20261128.0001"). Null when there is none or it is closed.
 */
export async function findOpenTicketByNumber(db: TDatabase, mspId: string, psaType: TPsaType, number: string): Promise<TNumberedTicket | null> {
  const byNumber = /^[0-9]{1,9}$/.test(number) ? eq(psaTickets.externalId, number) : eq(psaTickets.ticketNumber, number);
  const [row] = await db
    .select({ rowId: psaTickets.id, externalId: psaTickets.externalId, number: sql<string>`coalesce(${psaTickets.ticketNumber}, ${psaTickets.externalId})`, companyExternalId: psaTickets.companyExternalId })
    .from(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), byNumber, eq(psaTickets.isClosed, false)))
    .limit(1);
  return row ?? null;
}

/** Keeps a file of a taken message until the PSA has it; its row id. */
export async function storeEmailAttachment(db: TDatabase, mspId: string, messageRowId: string, file: { fileName: string; contentType: string; data: Buffer }, now: Date): Promise<string> {
  const [row] = await db
    .insert(emailConnectorAttachments)
    .values({ mspId, messageRowId, fileName: file.fileName, contentType: file.contentType, sizeBytes: file.data.length, data: file.data, createdAt: now })
    .returning({ id: emailConnectorAttachments.id });
  if (!row) throw new Error('email attachment not stored');
  return row.id;
}

/** The bytes of a kept file, or null once the PSA has it (or when there is no such row). */
export async function findEmailAttachmentData(db: TDatabase, mspId: string, id: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ data: emailConnectorAttachments.data })
    .from(emailConnectorAttachments)
    .where(and(eq(emailConnectorAttachments.mspId, mspId), eq(emailConnectorAttachments.id, id)));
  return row?.data ?? null;
}

/** The PSA has the file: its bytes are dropped, its name and size stay with the PSA's id. */
export async function markEmailAttachmentDone(db: TDatabase, mspId: string, id: string, psaAttachmentExternalId: string): Promise<void> {
  await db
    .update(emailConnectorAttachments)
    .set({ data: null, psaAttachmentExternalId })
    .where(and(eq(emailConnectorAttachments.mspId, mspId), eq(emailConnectorAttachments.id, id)));
}
