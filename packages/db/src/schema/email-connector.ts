import { bigint, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';
import { bytea } from './uploads';

/**
 * The MSP's email connector (R-195, R-199, decision 036): the help-desk mailbox whose new mail becomes
 * tickets. At most one per MSP. The app password is AES-256-GCM encrypted in `secret_ciphertext` like
 * the PSA keys and never returned; `password_hint` (its last four characters) is what the screen shows.
 * A row exists only for a mailbox that accepted the sign-in when it was saved.
 */
export const emailConnectors = pgTable('email_connectors', {
  mspId: uuid('msp_id').primaryKey().references(() => msps.id, { onDelete: 'cascade' }),
  address: text('address').notNull(),
  imapHost: text('imap_host').notNull(),
  imapPort: integer('imap_port').notNull(),
  secretCiphertext: text('secret_ciphertext').notNull(),
  passwordHint: text('password_hint').notNull(),
  /** The last time the connector read the mailbox, and what went wrong then (null when it went well). */
  lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
  lastError: text('last_error'),
  /**
   * Where reading starts (review s29): the mail the INBOX held when this mailbox was connected stays untouched. The
   * INBOX's UIDVALIDITY and UIDNEXT at that moment, and the moment itself for a mailbox whose UIDs were renumbered
   * since (another UIDVALIDITY). Null on a connector saved before this existed: it reads every unread mail, as it did.
   */
  readFromUidValidity: bigint('read_from_uid_validity', { mode: 'number' }),
  readFromUid: bigint('read_from_uid', { mode: 'number' }),
  readFromAt: timestamp('read_from_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every message the connector has taken from the mailbox, by its Message-ID: the unique key is what
 * keeps one message from becoming two tickets, even when marking it \Seen failed and it is read again.
 * `state`: pending (the ticket waits in the PSA outbox), done (the PSA has it), skipped (no company to
 * file it under; left unread in the mailbox), ignored (an automatic reply or our own mail), note (a reply
 * in the thread of an earlier message's open ticket, added to that ticket as a note: `thread_row_id` is
 * the row of the message that made the ticket; `psa_ticket_*` are filled once the note is in the PSA).
 * `file_*`: a skipped message a person chose a company (and maybe a contact) for ("Make a ticket…", decision 036): PSA
 * ids of that PSA's synchronized records; the next reading files it there instead of looking the sender up.
 */
export const emailConnectorMessages = pgTable(
  'email_connector_messages',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    messageId: text('message_id').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    state: text('state', { enum: ['pending', 'done', 'skipped', 'ignored', 'note'] }).notNull(),
    threadRowId: uuid('thread_row_id'),
    reason: text('reason'),
    psaTicketExternalId: text('psa_ticket_external_id'),
    psaTicketNumber: text('psa_ticket_number'),
    filePsaType: text('file_psa_type', { enum: ['CONNECTWISE', 'AUTOTASK'] }),
    fileCompanyId: text('file_company_id'),
    fileContactId: text('file_contact_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    uniqueIndex('email_connector_messages_message_uq').on(t.mspId, t.messageId),
    index('email_connector_messages_created_idx').on(t.mspId, t.createdAt),
    // The migration narrows this to ON DELETE SET NULL (thread_row_id): msp_id is never nulled.
    foreignKey({ name: 'email_connector_messages_thread_fk', columns: [t.mspId, t.threadRowId], foreignColumns: [t.mspId, t.id] }).onDelete('set null'),
  ],
);

/**
 * A file of a message the connector took (decision 039): the bytes wait here until the outbox has added the file to
 * the message's ticket in the PSA, then `data` is cleared (null) and the row keeps its name and size. Only the files
 * that are sent are stored (not inline signature images, nor files over the PSA's size limit).
 */
export const emailConnectorAttachments = pgTable(
  'email_connector_attachments',
  {
    mspId: uuid('msp_id').notNull().references(() => msps.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    messageRowId: uuid('message_row_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data'),
    /** The PSA's id of the attachment, once it landed (the bytes are gone then). */
    psaAttachmentExternalId: text('psa_attachment_external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mspId, t.id] }),
    index('email_connector_attachments_message_idx').on(t.mspId, t.messageRowId),
    foreignKey({ name: 'email_connector_attachments_message_fk', columns: [t.mspId, t.messageRowId], foreignColumns: [emailConnectorMessages.mspId, emailConnectorMessages.id] }).onDelete('cascade'),
  ],
);
