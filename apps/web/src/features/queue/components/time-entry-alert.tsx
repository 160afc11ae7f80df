import { Alert } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TPsaWriteState } from '@switchboard/contracts';

/** A ticket's time entry the PSA has not taken: pending (sent when the PSA answers) or failed (refused for good). */
export type TTimeEntryWarning = { ticketId: number; status: 'pending' | 'failed'; message: string | null };

/**
 * The warning an answer's `timeEntry` calls for (review s29, finding 1): null when the PSA has the entry or none was sent.
 */
export function timeEntryWarningOf(ticketId: number, timeEntry: TPsaWriteState | null | undefined): TTimeEntryWarning | null {
  if (!timeEntry || timeEntry.status === 'done') return null;
  return { ticketId, status: timeEntry.status, message: timeEntry.message };
}

/**
 * Says, like the close warning beside it, that the time worked is not in the PSA: red when the PSA refused it (an admin
 * can resend it from Integrations), yellow while it waits for the PSA.
 */
export function TimeEntryAlert({ warning, onDismiss }: { warning: TTimeEntryWarning; onDismiss: () => void }) {
  const isFailed = warning.status === 'failed';
  return (
    <Alert
      color={isFailed ? 'red' : 'yellow'}
      role="alert"
      title={isFailed ? MESSAGES.queue.timeEntryNotRecordedTitle(warning.ticketId) : MESSAGES.queue.timeEntryPendingTitle(warning.ticketId)}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
      style={{ overflowWrap: 'anywhere' }}
    >
      {isFailed ? MESSAGES.queue.timeEntryFailed : MESSAGES.queue.timeEntryPending}
      {/* The server's reason, unless it only repeats the generic "will be retried". */}
      {warning.message !== null && warning.message !== '' && warning.message !== MESSAGES.queue.psaPending ? ` (${warning.message})` : ''}
    </Alert>
  );
}
