import type { ImapFlow } from 'imapflow';
import { mailboxErrorOf, openMailbox, type TMailboxAccount } from './mailbox';

/**
 * Where the connector starts reading a mailbox's INBOX (review s29): the mail it held when it was connected stays
 * untouched (it was turned into tickets, 50 a minute, before). UIDs are exact where a time is not (the mail server's
 * clock and the app's differ), so the start is the INBOX's UIDNEXT under its UIDVALIDITY; the time serves only once the
 * server renumbered its UIDs (another UIDVALIDITY: a mailbox rebuilt or moved).
 */
export interface TReadingStart {
  uidValidity: number;
  uid: number;
  at: Date;
}

/** How many UIDs one FETCH asks about (a mailbox may hold tens of thousands of messages). */
export const UIDS_PER_FETCH = 500;

/** Splits a list into parts of at most `size`. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

/**
 * Proves the address and password open the mailbox (the save's check: signs in, selects INBOX read-only, signs out)
 * and answers where reading it starts now. Throws `mailboxErrorOf` sentences.
 */
export async function verifyMailboxAndStart(account: TMailboxAccount, allowList: readonly string[], now: Date): Promise<TReadingStart> {
  const client = await openMailbox(account, allowList);
  try {
    const inbox = await client.mailboxOpen('INBOX', { readOnly: true });
    return { uidValidity: Number(inbox.uidValidity), uid: inbox.uidNext, at: now };
  } catch (error) {
    throw mailboxErrorOf(error);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** The stored start of a connector; null on one saved before starts were kept (every unread mail is read, as before). */
export type TStoredReadingStart = { uidValidity: number | null; uid: number | null; at: Date | null };

/**
 * The first UID to read in the open INBOX, and the start to store when it was found anew (null: keep the stored one).
 * Under the stored UIDVALIDITY, the stored UID. Renumbered, the first message the server received at or after the
 * stored time (SEARCH SINCE has whole days only, so the times are read), else the INBOX's UIDNEXT.
 */
export async function firstUidToRead(client: ImapFlow, stored: TStoredReadingStart): Promise<{ uid: number | null; renewed: TReadingStart | null }> {
  if (stored.at === null) return { uid: null, renewed: null };
  const inbox = client.mailbox;
  if (!inbox) throw new Error('INBOX is not open');
  const uidValidity = Number(inbox.uidValidity);
  if (stored.uidValidity === uidValidity && stored.uid !== null) return { uid: stored.uid, renewed: null };
  const since = stored.at;
  const candidates = ((await client.search({ since: new Date(since.getTime() - 86_400_000) }, { uid: true })) || []).sort((a, b) => a - b);
  let uid = inbox.uidNext;
  for (const chunk of chunksOf(candidates, UIDS_PER_FETCH)) {
    const received = (await client.fetchAll(chunk, { uid: true, internalDate: true }, { uid: true })).filter((message) => message.internalDate !== undefined && new Date(message.internalDate) >= since);
    if (received.length > 0) {
      uid = Math.min(...received.map((message) => message.uid));
      break;
    }
  }
  return { uid, renewed: { uidValidity, uid, at: since } };
}
