import type { TEmailConnectorMail, TEmailConnectorSettings, TEmailMailOutcome } from '@switchboard/contracts';
import type { TEmailConnectorRow, TEmailMessageRow } from './email-connector.repository';

/** Shows the last four characters only, e.g. "••••abcd". */
export const passwordHintOf = (password: string): string => `••••${password.slice(-4)}`;

/** The settings the screen shows; never the password. */
export function presentEmailConnector(row: TEmailConnectorRow | null, ticketCount: number): TEmailConnectorSettings {
  return {
    isConfigured: row !== null,
    address: row?.address ?? null,
    imapHost: row?.imapHost ?? null,
    imapPort: row?.imapPort ?? null,
    passwordHint: row?.passwordHint ?? null,
    lastCheckedAt: row?.lastCheckedAt?.toISOString() ?? null,
    lastError: row?.lastError ?? null,
    ticketCount,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

const OUTCOME_OF_STATE: Record<TEmailMessageRow['state'], TEmailMailOutcome> = { done: 'ticket', pending: 'waiting', note: 'note', skipped: 'skipped', ignored: 'ignored' };

/** A message read from the mailbox as the "Recent mail" list shows it: the reason only where it was not turned into a ticket. */
export function presentEmailMail(row: TEmailMessageRow): TEmailConnectorMail {
  const outcome = OUTCOME_OF_STATE[row.state];
  return {
    id: row.id,
    from: row.fromAddress,
    subject: row.subject,
    receivedAt: (row.receivedAt ?? row.createdAt).toISOString(),
    outcome,
    reason: outcome === 'skipped' || outcome === 'ignored' ? row.reason : null,
    ticketNumber: row.psaTicketNumber,
  };
}
