import { PsaError } from './errors';
import type { TAddPsaTimeEntry, TPsaConversationMessage } from './psa-client';

/** The title of the note that carries the chat a ticket came from, on both PSAs; a retried create finds it by this. */
export const conversationNoteTitle = 'Conversation';

/** The chat as plain text for a note: one line per message, "User:" / "Assistant:", with its time when known. */
export function formatConversation(messages: readonly TPsaConversationMessage[]): string {
  const lines = messages
    .filter((message) => message.content.trim() !== '')
    .map((message) => {
      const who = message.role === 'user' ? 'User' : 'Assistant';
      const at = message.at ? `[${message.at}] ` : '';
      return `${at}${who}: ${message.content.trim()}`;
    });
  return lines.length === 0 ? '' : `${conversationNoteTitle}\n\n${lines.join('\n')}`;
}

/** ISO 8601 to the second, the precision both PSAs keep for time entries. */
export function toWholeSecondIso(value: string, field: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new PsaError('validation', `${field} is not an ISO 8601 time.`, { fieldMessages: [{ field, message: 'Must be an ISO 8601 time.' }] });
  return new Date(Math.floor(time / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Two PSA timestamps name the same second (the PSAs echo times in their own formats). */
export function isSameSecond(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const left = Date.parse(a);
  return !Number.isNaN(left) && Math.floor(left / 1000) === Math.floor(Date.parse(b) / 1000);
}

/** The start and end of a time entry to the second, refusing an entry that does not end after it starts. */
export function timeEntrySpan(input: Pick<TAddPsaTimeEntry, 'startAt' | 'endAt'>): { startAt: string; endAt: string; hours: number } {
  const startAt = toWholeSecondIso(input.startAt, 'startAt');
  const endAt = toWholeSecondIso(input.endAt, 'endAt');
  const milliseconds = Date.parse(endAt) - Date.parse(startAt);
  if (milliseconds <= 0) throw new PsaError('validation', 'A time entry must end after it starts.', { fieldMessages: [{ field: 'endAt', message: 'Must be after startAt.' }] });
  return { startAt, endAt, hours: Math.round((milliseconds / 3_600_000) * 10_000) / 10_000 };
}
