import { EMAIL_MAIL_MESSAGES, type TEmailConnectorMail, type TEmailConnectorSettings, type TEmailMailOutcome } from '@switchboard/contracts';
import type { TEmailConnectorRow, TEmailMessageRow, TListedEmailMessage } from './email-connector.repository';

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

/**
 * A message read from the mailbox as the "Recent mail" list shows it: the reason only where it was not turned into a
 * ticket. A skipped mail a person chose a company for waits for the next reading, which files it there: it says where.
 */
export function presentEmailMail(row: TListedEmailMessage): TEmailConnectorMail {
  const shown = { id: row.id, from: row.fromAddress, subject: row.subject, receivedAt: (row.receivedAt ?? row.createdAt).toISOString(), ticketNumber: row.psaTicketNumber };
  if (row.state === 'skipped' && row.fileCompanyId !== null) {
    // The names from the synchronized copies; the PSA id should a copy be gone meanwhile (the reading then says so).
    const company = row.fileCompanyName ?? `company ${row.fileCompanyId}`;
    const contact = row.fileContactId === null ? null : (row.fileContactName ?? `contact ${row.fileContactId}`);
    return { ...shown, outcome: 'waiting', reason: EMAIL_MAIL_MESSAGES.fileUnder.willBeFiled(company, contact) };
  }
  const outcome = OUTCOME_OF_STATE[row.state];
  return { ...shown, outcome, reason: outcome === 'skipped' || outcome === 'ignored' ? row.reason : null };
}
