import { extractRawText } from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { DOCUMENT_MAX_BYTES, MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';

/** The document kinds an upload may be, told by content and name, never by the declared type alone. */
export type TDocumentKind = 'pdf' | 'docx' | 'markdown' | 'text';

const CONTENT_TYPES: Record<TDocumentKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  markdown: 'text/markdown',
  text: 'text/plain',
};

const extensionOf = (fileName: string) => /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase() ?? '';

/** Plain text: valid UTF-8 without NUL or other binary control bytes. */
function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD')) return false;
  return ![...text].some((character) => isBinaryControl(character.charCodeAt(0)));
}

/** C0 controls other than tab, line feed, carriage return and form feed: a sign of a binary file. */
function isBinaryControl(code: number): boolean {
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d;
}

/** What the upload really is, or null when it is none of the accepted kinds. */
export function detectDocumentKind(bytes: Buffer, fileName: string): TDocumentKind | null {
  const extension = extensionOf(fileName);
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  // A .docx is a zip (PK\3\4) with word/document.xml inside; mammoth refuses any other zip.
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return extension === 'docx' ? 'docx' : null;
  if (!isPlainText(bytes)) return null;
  if (extension === 'md' || extension === 'markdown') return 'markdown';
  if (extension === 'txt' || extension === '') return 'text';
  return null;
}

export function contentTypeOf(kind: TDocumentKind): string {
  return CONTENT_TYPES[kind];
}

const unreadable = () => new AppError('validation', MESSAGES.documents.unreadable);

/** The document's text (PDF through unpdf, Word through mammoth, text as UTF-8). */
export async function extractDocumentText(bytes: Buffer, kind: TDocumentKind): Promise<string> {
  if (bytes.length > DOCUMENT_MAX_BYTES) throw new AppError('file_size', MESSAGES.documents.fileSize, { flags: { fileSize: true } });
  let text: string;
  try {
    if (kind === 'pdf') {
      const pdf = await getDocumentProxy(new Uint8Array(bytes));
      text = (await extractText(pdf, { mergePages: true })).text;
    } else if (kind === 'docx') {
      text = (await extractRawText({ buffer: bytes })).value;
    } else {
      text = bytes.toString('utf8');
    }
  } catch {
    throw unreadable();
  }
  // PostgreSQL text cannot hold NUL; other control characters are noise in search.
  const cleaned = [...text.replace(/\r\n?/g, '\n')]
    .map((character) => (character !== '\n' && character !== '\t' && character.charCodeAt(0) < 0x20 ? ' ' : character))
    .join('')
    .trim();
  if (cleaned === '') throw unreadable();
  return cleaned;
}
