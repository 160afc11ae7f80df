import type { Attachment } from 'mailparser';
import type { TDatabase } from '@switchboard/db';
import { enqueuePsaWrite } from '../psa-outbox/psa-outbox';
import { storeEmailAttachment } from './email-connector.repository';
import { EMAIL_ATTACHMENT_WRITE, type TEmailAttachmentPayload, type TEmailTicketOfWrite } from './email-tickets.psa-write';
import { cutText } from '../../lib/text';

/** An inline image (cid-referenced) smaller than this is a signature's logo, not something the technician needs. */
export const INLINE_IMAGE_MAX_BYTES = 20 * 1024;
/** Autotask takes 6–7 MB per file (psa-apis.md); the lower bound holds for both PSAs. */
export const ATTACHMENT_MAX_BYTES = 6 * 1024 * 1024;
/** Files added to the ticket per mail; the rest stay in the mailbox, named. */
export const ATTACHMENTS_PER_MAIL = 10;
const FILE_NAME_MAX = 200;

export interface TMailFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/** What becomes of a mail's files: added to its ticket, or named in the text as left in the mailbox. */
export interface TAttachmentPlan {
  toAdd: TMailFile[];
  overSize: string[];
  overCount: string[];
  /** Every file of a mail over 10 MB, which is not fetched whole (a cut file would look whole): none is added. */
  overMail: string[];
}

/** What the plan reads of a mailparser attachment. */
type TMailAttachment = Pick<Attachment, 'filename' | 'contentType' | 'content' | 'related'>;

/** A file's name as the PSA shows it: its own (without a path), else one made from its place in the mail. */
export function fileNameOf(attachment: Pick<TMailAttachment, 'contentType'> & { filename?: string | undefined }, position: number): string {
  // Control characters (a NUL would not fit a PostgreSQL text) are dropped with the path.
  const own = [...((attachment.filename ?? '').split(/[\\/]/).pop() ?? '')].filter((character) => character >= ' ').join('').trim();
  const name = own || `attachment-${position}${attachment.contentType === 'message/rfc822' ? '.eml' : ''}`;
  // Cut between code points: half of an emoji would not fit the PSA write's JSON.
  return name.length > FILE_NAME_MAX ? `${cutText(name, FILE_NAME_MAX - 12)}…${name.slice(-11).replace(/^[\uDC00-\uDFFF]/, '')}` : name;
}

/**
 * The mail's files (decision 039): an inline signature image (cid-referenced and under 20 KB) is left out altogether;
 * every other file is added to the ticket, up to 10 per mail and 6 MB each; a larger or further one stays in the
 * mailbox and is named in the text.
 */
export function attachmentPlanOf(mail: { attachments: readonly TMailAttachment[] }): TAttachmentPlan {
  const plan: TAttachmentPlan = { toAdd: [], overSize: [], overCount: [], overMail: [] };
  mail.attachments.forEach((attachment, index) => {
    const size = attachment.content.length;
    if (attachment.related === true && size < INLINE_IMAGE_MAX_BYTES) return;
    const fileName = fileNameOf(attachment, index + 1);
    if (size > ATTACHMENT_MAX_BYTES) plan.overSize.push(fileName);
    else if (plan.toAdd.length >= ATTACHMENTS_PER_MAIL) plan.overCount.push(fileName);
    else plan.toAdd.push({ fileName, contentType: attachment.contentType || 'application/octet-stream', data: attachment.content });
  });
  return plan;
}

/** The lines that name the files under the text: which were added to the ticket, and which stayed in the mailbox and why. */
export function attachmentLinesOf(plan: TAttachmentPlan): string[] {
  const lines: string[] = [];
  if (plan.toAdd.length > 0) lines.push(`Attachments (added to the ticket): ${plan.toAdd.map((file) => file.fileName).join(', ')}`);
  if (plan.overSize.length > 0) lines.push(`Attachments not added (over 6 MB, in the help-desk mailbox): ${plan.overSize.join(', ')}`);
  if (plan.overCount.length > 0) lines.push(`Attachments not added (more than ${ATTACHMENTS_PER_MAIL}, in the help-desk mailbox): ${plan.overCount.join(', ')}`);
  if (plan.overMail.length > 0) lines.push(`Attachments not added (the email is over 10 MB, in the help-desk mailbox): ${plan.overMail.join(', ')}`);
  return lines;
}

/**
 * Stores the files to add and their PSA writes, in the caller's transaction (the one that claims the message), with
 * the same outbox target as the mail's ticket or note write: the outbox sends them after it, in order; `ticketWriteId`
 * names a new ticket's write, so a file whose ticket the PSA refused is not added to one made again later. Their ids.
 */
export async function enqueueAttachmentWrites(
  tx: TDatabase,
  mspId: string,
  messageRowId: string,
  files: readonly TMailFile[],
  where: { target: { type: string; id: string }; ticketOf: TEmailTicketOfWrite; ticketWriteId?: string },
  now: Date,
): Promise<string[]> {
  const ids: string[] = [];
  for (const file of files) {
    const attachmentRowId = await storeEmailAttachment(tx, mspId, messageRowId, file, now);
    const payload: TEmailAttachmentPayload = {
      attachmentRowId,
      ...where.ticketOf,
      ...(where.ticketWriteId === undefined ? {} : { ticketWriteId: where.ticketWriteId }),
      fileName: file.fileName,
      contentType: file.contentType,
      sizeBytes: file.data.length,
    };
    const write = await enqueuePsaWrite(tx, { mspId, kind: EMAIL_ATTACHMENT_WRITE, idempotencyKey: `email-attachment:${attachmentRowId}`, target: where.target, payload }, now);
    ids.push(write.id);
  }
  return ids;
}
