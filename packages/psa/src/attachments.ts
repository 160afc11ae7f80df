import type { TAddPsaAttachment, TPsaAttachment } from './psa-client';

/**
 * The attachment of an unknown outcome, found again: attachments carry no external reference in either PSA, so the
 * newest one with the same file name and size stands for it (a retry sends the same bytes, so the PSA counts the same size).
 */
export function sameAttachmentIn(attachments: readonly TPsaAttachment[], input: TAddPsaAttachment): TPsaAttachment | null {
  return [...attachments].reverse().find((attachment) => attachment.fileName === input.fileName && attachment.size === input.data.byteLength) ?? null;
}
