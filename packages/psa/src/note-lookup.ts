import { isCreatedSince } from './http/create-options';
import type { TAddPsaNote, TPsaNote } from './psa-client';

/**
 * The note a create of unknown outcome (or a resend) may have added: the newest with the same text and kind, created
 * since the write was first tried, and not one another write is known to have added. Notes carry no key of ours, so an
 * older note with the same words is someone else's and is never taken for this one.
 */
export function sameNoteIn(notes: readonly TPsaNote[], input: TAddPsaNote, createdSince: Date): TPsaNote | null {
  const others = new Set(input.resend?.otherWritesIds ?? []);
  const candidates = notes.filter((note) => note.text === input.text && note.kind === input.kind && !others.has(note.id) && isCreatedSince(note.createdAt, createdSince));
  return candidates.reduce<TPsaNote | null>((newest, note) => (newest === null || note.id > newest.id ? note : newest), null);
}
