import type { TPsaConversationMessage } from './psa-client';

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
