import type { TEmailConnectorSettings } from '@switchboard/contracts';
import type { TEmailConnectorRow } from './email-connector.repository';

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
