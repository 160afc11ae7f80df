import { DOCUMENT_DESCRIPTION_MAX, DOCUMENT_EXTENSIONS, DOCUMENT_MAX_BYTES, MESSAGES } from '@switchboard/contracts';

/** What stops an upload before it is sent (the server checks the same, and the file's content too). */
export function documentProblem(file: File | null, description: string): string | null {
  if (!file) return MESSAGES.documents.fileMissing;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(DOCUMENT_EXTENSIONS as readonly string[]).includes(extension)) return MESSAGES.documents.fileType;
  if (file.size === 0) return MESSAGES.documents.fileEmpty;
  if (file.size > DOCUMENT_MAX_BYTES) return MESSAGES.documents.fileSize;
  if (description.trim().length > DOCUMENT_DESCRIPTION_MAX) return MESSAGES.documents.descriptionTooLong;
  return null;
}

export const DOCUMENT_ACCEPT = DOCUMENT_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
