import type { FetchMessageObject, ImapFlow, MessageStructureObject } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import { INLINE_IMAGE_MAX_BYTES, attachmentPlanOf, fileNameOf, type TAttachmentPlan } from './email-attachments';
import { MAX_MESSAGE_BYTES } from './mailbox';

/**
 * Of a mail over MAX_MESSAGE_BYTES only a text part up to this size (as sent) is read: a larger one (a long log, an HTML
 * text with pictures inside) would be most of the mail, and the ticket is then made from the headers alone.
 */
export const OVERSIZED_TEXT_MAX_BYTES = 1024 * 1024;

const PARSE_OPTIONS = { skipHtmlToText: false, skipTextToHtml: true, skipImageLinks: true } as const;

/** A message as the connector takes it from the mailbox. */
export interface TReadMail {
  mail: ParsedMail;
  /** The bytes that know a message without a Message-ID: its source, or the header block of a mail over the limit. */
  source: Buffer;
  /** What becomes of its files. */
  plan: TAttachmentPlan;
  /** A mail over the limit whose text was too large to read: the ticket says the text is in the mailbox. */
  isTextUnread: boolean;
}

/** A part of the mail's structure with what the connector needs to know of it. */
interface TLeaf {
  node: MessageStructureObject;
  /** Inside a multipart/related (an HTML text's pictures). */
  isRelated: boolean;
}

/** The parts that are not multipart containers; an attached message (message/rfc822) is one part, as mailparser sees it. */
function leavesOf(node: MessageStructureObject, isRelated = false): TLeaf[] {
  const type = node.type.toLowerCase();
  if (type.startsWith('multipart/') && node.childNodes) return node.childNodes.flatMap((child) => leavesOf(child, isRelated || type === 'multipart/related'));
  return [{ node, isRelated }];
}

const fileNameParameterOf = (node: MessageStructureObject): string | undefined => node.dispositionParameters?.filename ?? node.parameters?.name;

/** A text of the mail itself (not a file): text/plain or text/html, not an attachment and without a file name. */
const isBodyText = (node: MessageStructureObject) =>
  ['text/plain', 'text/html'].includes(node.type.toLowerCase()) && node.disposition?.toLowerCase() !== 'attachment' && !fileNameParameterOf(node);

/** A part's size once decoded: the server tells the size as sent, which base64 makes a third larger. */
const decodedSizeOf = (node: MessageStructureObject) => ((node.encoding ?? '').toLowerCase() === 'base64' ? Math.floor(((node.size ?? 0) * 3) / 4) : (node.size ?? 0));

/**
 * A mail over MAX_MESSAGE_BYTES (decision 036): not fetched whole, since a cut mail parses into cut files that look whole.
 * Its headers are fetched, and its text part when that is small enough; its structure names its files, none of which is
 * fetched: each is named as left in the mailbox because the mail is too large. Null when the message is gone.
 */
async function readOversizedMail(client: ImapFlow, uid: number): Promise<TReadMail | null> {
  const fetched = await client.fetchOne(String(uid), { uid: true, headers: true, bodyStructure: true }, { uid: true });
  if (!fetched || !fetched.headers) return null;
  const leaves = fetched.bodyStructure ? leavesOf(fetched.bodyStructure) : [];
  const texts = leaves.filter((leaf) => isBodyText(leaf.node));
  const text = texts.find((leaf) => leaf.node.type.toLowerCase() === 'text/plain') ?? texts[0];
  const files = leaves.filter((leaf) => !isBodyText(leaf.node) && !(leaf.isRelated && leaf.node.id && decodedSizeOf(leaf.node) < INLINE_IMAGE_MAX_BYTES));

  // The headers alone: who wrote, the subject, the thread, whether it is automatic.
  const mail = await simpleParser(fetched.headers, PARSE_OPTIONS);
  mail.attachments = [];
  let isTextUnread = false;
  if (text && (text.node.size ?? 0) <= OVERSIZED_TEXT_MAX_BYTES) {
    // The part with its own MIME headers is a mail of its own that mailparser decodes (charset, transfer encoding, HTML).
    // A message of one part has no part number: its body is TEXT and its MIME headers are the message's.
    const key = text.node.part ?? 'text';
    const parts = await client.fetchOne(String(uid), { uid: true, bodyParts: text.node.part ? [`${key}.mime`, key] : [key] }, { uid: true });
    const content = parts ? parts.bodyParts?.get(key) : undefined;
    const mimeHeaders = text.node.part ? parts && parts.bodyParts?.get(`${key}.mime`) : fetched.headers;
    if (content && mimeHeaders) mail.text = (await simpleParser(Buffer.concat([mimeHeaders, content]), PARSE_OPTIONS)).text;
    else isTextUnread = true;
  } else if (text) {
    isTextUnread = true;
  }
  const overMail = files.map((leaf, index) => fileNameOf({ filename: fileNameParameterOf(leaf.node), contentType: leaf.node.type.toLowerCase() }, index + 1));
  return { mail, source: fetched.headers, plan: { toAdd: [], overSize: [], overCount: [], overMail }, isTextUnread };
}

/**
 * Takes one message from the selected mailbox: whole when it is at most MAX_MESSAGE_BYTES, else (readOversizedMail) its
 * headers and text only. Null when the message is gone meanwhile.
 */
export async function readMessage(client: ImapFlow, uid: number): Promise<TReadMail | null> {
  const sized: FetchMessageObject | false = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
  if (!sized) return null;
  if ((sized.size ?? 0) > MAX_MESSAGE_BYTES) return readOversizedMail(client, uid);
  // One byte more than the limit: a server that told too small a size is found out, not cut.
  const fetched = await client.fetchOne(String(uid), { uid: true, source: { maxLength: MAX_MESSAGE_BYTES + 1 } }, { uid: true });
  if (!fetched || !fetched.source) return null;
  if (fetched.source.length > MAX_MESSAGE_BYTES) return readOversizedMail(client, uid);
  const mail = await simpleParser(fetched.source, PARSE_OPTIONS);
  return { mail, source: fetched.source, plan: attachmentPlanOf(mail), isTextUnread: false };
}
