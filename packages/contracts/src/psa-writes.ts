/**
 * PSA writes not yet in the PSA (decision 013): what the admin's "Changes waiting for the PSA" card says,
 * and the plain-words summary of each kind of write. Plain constants only (no zod): the schemas are in
 * schemas/psa-writes.ts, and the web imports these without loading zod.
 */

/** Longest quoted text (a ticket's summary, a file name) a write's summary carries. */
const QUOTED_MAX = 80;

/** A stored value as short display text: the JSON of an older or odd payload may hold anything. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\s+/g, ' ').trim() : '';
  return text.length > QUOTED_MAX ? `${text.slice(0, QUOTED_MAX - 1)}…` : text;
}

/** "25 min", "1 h 5 min"; empty for a value that is not a number of minutes. */
function duration(minutes: unknown): string {
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0) return '';
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** "the ticket's summary, type and priority". */
function listed(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/** The fields a ticket update changes, as the admin knows them (payload key → word). */
const UPDATE_FIELD_WORDS: Record<string, string> = { summary: 'summary', typeId: 'type', subtypeId: 'subtype', priorityId: 'priority', statusId: 'status' };

export const PSA_WRITE_MESSAGES = {
  title: 'Changes waiting for the PSA',
  intro:
    'Changes made in Switchboard that your PSA does not have yet. Each is sent again by itself; “Send again” sends it now. A change the PSA refused stays here, and on its ticket, until you send it again or discard it.',
  loading: 'Loading the changes waiting for the PSA',
  loadFailed: 'The changes waiting for the PSA could not be loaded',
  empty: 'Every change is in the PSA.',
  listLabel: 'Changes waiting for the PSA',
  waiting: 'Waiting',
  failed: 'Failed',
  sendAgain: 'Send again',
  /** Discard (review s29, finding 3): a change the PSA refused for good is dropped for good after a plain-words confirm. */
  discard: 'Discard',
  discardTitle: 'Discard this change?',
  discardText: (summary: string) =>
    `“${summary}” is not in the PSA, and after this it never will be: Switchboard stops keeping it and it leaves this list and the ticket. Make the change in the PSA yourself if it is still needed.`,
  discardConfirm: 'Discard the change',
  discardCancel: 'Keep it',
  discarded: 'Discarded. Switchboard will not send it to the PSA.',
  /** The retry's outcomes. */
  sent: 'Sent to the PSA.',
  stillWaiting: (reason: string | null) => `The PSA did not take it yet; it is kept and sent again by itself.${reason ? ` ${reason}` : ''}`,
  refused: (reason: string | null) => `The PSA refused it again.${reason ? ` ${reason}` : ''}`,
  /** A pending write the PSA has not answered yet: never tried, or waiting for an earlier change about the same target. */
  notTriedYet: 'Not sent yet: it goes after the earlier changes to the same record.',
  reason: (lastError: string) => `Reason: ${lastError}`,
  tries: (attempts: number) => (attempts === 1 ? '1 try' : `${attempts} tries`),
  nextTry: (when: string) => `next try ${when}`,
  /** "#1234 Printer offline" (ConnectWise ticket numbers are their ids); an Autotask number as it is ("T20240101.0001"). */
  ticket: (ticket: { psaTicketId: number | null; ticketNumber: string | null; summary: string }) => {
    const number = ticket.ticketNumber ?? (ticket.psaTicketId === null ? null : String(ticket.psaTicketId));
    const reference = number === null ? 'Ticket' : /^\d+$/.test(number) ? `Ticket #${number}` : `Ticket ${number}`;
    return ticket.summary ? `${reference}: ${ticket.summary}` : reference;
  },
  /** What each kind of write does, in a few words for an MSP admin; built from the stored payload. */
  summary: {
    assign: 'Assign the ticket to its technician',
    unassign: 'Hand the ticket back to the queue',
    note: (kind: unknown) => (kind === 'internal' ? 'Internal note on the ticket' : kind === 'resolution' ? 'Resolution note on the ticket' : 'Note on the ticket'),
    update: (fields: readonly string[]) => {
      const words = fields.map((field) => UPDATE_FIELD_WORDS[field]).filter((word): word is string => word !== undefined);
      return words.length === 0 ? 'Change the ticket' : `Change the ticket’s ${listed(words)}`;
    },
    close: (resolution: unknown) => (quoted(resolution) === '' ? 'Close the ticket' : 'Close the ticket with its resolution'),
    timeEntry: (minutes: unknown) => {
      const length = duration(minutes);
      return length === '' ? 'Time entry' : `Time entry of ${length}`;
    },
    ticketCreate: (summary: unknown) => (quoted(summary) === '' ? 'New ticket' : `New ticket: ${quoted(summary)}`),
    emailTicketCreate: (summary: unknown) => (quoted(summary) === '' ? 'New ticket from an email' : `New ticket from an email: ${quoted(summary)}`),
    emailNote: 'Email reply as a note on its ticket',
    attachment: (fileName: unknown) => (quoted(fileName) === '' ? 'Attachment from an email' : `Attachment ${quoted(fileName)}`),
    attachmentNotAdded: 'Internal note that a file from an email was not added',
    attachmentAddedAfterAll: 'Internal note that a file from an email was added after all',
    contactCreate: (firstName: unknown, lastName: unknown) => {
      const name = quoted([quoted(firstName), quoted(lastName)].filter(Boolean).join(' '));
      return name === '' ? 'New contact' : `New contact ${name}`;
    },
  },
} as const;
