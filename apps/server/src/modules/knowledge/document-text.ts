import { DOCUMENT_MAX_BYTES, MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { cutText, wellFormed } from '../../lib/text';
import { boundedDocxPackage } from './docx-package';
import { EXTRACTION_LIMITS, readInWorker, type TExtractionLimits } from './extraction-worker';

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
  for (let index = 0; index < text.length; index += 1) if (isBinaryControl(text.charCodeAt(index))) return false;
  return true;
}

/** C0 controls other than tab, line feed, carriage return and form feed: a sign of a binary file. */
function isBinaryControl(code: number): boolean {
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d;
}

const FILE_NAME_MAX = 200;
/** Control characters (C0, DEL, C1) and the marks that reorder how text is shown (a name could pose as another type). */
const UNSHOWABLE_IN_NAME = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The name an uploaded file is kept and shown under (the review's finding 2): without a path (some browsers send one;
 * where the file is stored never depends on its name), without control characters (a NUL does not fit PostgreSQL
 * text), lone surrogates made well formed (jsonb refuses them), at most 200 characters with the extension kept.
 * Empty when nothing is left.
 */
export function documentFileNameOf(raw: string): string {
  const name = wellFormed(raw.split(/[\\/]/).pop() ?? '')
    .replace(UNSHOWABLE_IN_NAME, '')
    .trim();
  if (name === '.' || name === '..') return '';
  if (name.length <= FILE_NAME_MAX) return name;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  return `${cutText(name, FILE_NAME_MAX - extension.length - 1)}…${extension}`;
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

/** Bounds on what one document may become (the review's finding 1): beyond them it is refused, never cut. */
export const DOCUMENT_LIMITS = {
  /**
   * Characters of text. Refused rather than cut: a cut document would be searchable only in its first part with no
   * sign of it in the list, so the person is told to split it and every part they upload is searchable in full.
   */
  textChars: 2_000_000,
  /** Searchable passages: 2,000,000 characters make about 1,700 full ones; a heading per line makes many more. */
  passages: 5000,
  /** PDF pages: 2,000 pages of text hold more than 2,000,000 characters. */
  pdfPages: 2000,
} as const;

/** A broken file, or one that is not what its name says: the same words whatever its kind (a broken .docx was told it might be a scanned PDF). */
const cannotRead = () => new AppError('validation', MESSAGES.documents.cannotRead);
/** A file that opens but holds no text: for a PDF most often a scan, which the message says. */
const noTextIn = (kind: TDocumentKind) => new AppError('validation', kind === 'pdf' ? MESSAGES.documents.unreadable : MESSAGES.documents.noText);

/** A PDF's or Word document's text, read in a worker thread within time and memory bounds. */
async function boundedTextOf(bytes: Buffer, kind: 'pdf' | 'docx', limits: TExtractionLimits): Promise<string> {
  // The Word package is unpacked and measured here first: mammoth then reads only what fits DOCX_LIMITS.
  const input = kind === 'docx' ? boundedDocxPackage(bytes) : bytes;
  const outcome = await readInWorker(kind, new Uint8Array(input), DOCUMENT_LIMITS.pdfPages, limits);
  if (outcome.kind === 'tooManyPages') throw new AppError('file_size', MESSAGES.documents.tooManyPages);
  if (outcome.kind === 'tooComplex') throw new AppError('file_size', MESSAGES.documents.tooComplex);
  if (outcome.kind === 'busy') throw new AppError('busy', MESSAGES.documents.busy, { retryAfterSeconds: 30 });
  if (outcome.kind === 'unreadable') throw cannotRead();
  return outcome.text;
}

/** The document's text (PDF through unpdf, Word through mammoth, text as UTF-8), within DOCUMENT_LIMITS. */
export async function extractDocumentText(bytes: Buffer, kind: TDocumentKind, limits: TExtractionLimits = EXTRACTION_LIMITS): Promise<string> {
  if (bytes.length > DOCUMENT_MAX_BYTES) throw new AppError('file_size', MESSAGES.documents.fileSize, { flags: { fileSize: true } });
  const text = kind === 'pdf' || kind === 'docx' ? await boundedTextOf(bytes, kind, limits) : bytes.toString('utf8');
  if (text.length > DOCUMENT_LIMITS.textChars) throw new AppError('file_size', MESSAGES.documents.textTooLong);
  // PostgreSQL text cannot hold NUL; other control characters (all but line feed and tab) are noise in search.
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, ' ')
    .trim();
  if (cleaned === '') throw noTextIn(kind);
  return cleaned;
}
