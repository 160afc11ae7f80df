import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { PSA_WRITE_MESSAGES, type TPsaWrite } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { formatWhen } from '../../../lib/format-when';
import { ReadableBadge } from '../../../components/readable-badge';
import { ListRow, QueriedList } from '../../../components/queried-list';
import { useDiscardPsaWrite, usePsaWrites, useRetryPsaWrite } from '../api/psa-writes-queries';

type TOutcome = { tone: 'green' | 'yellow' | 'red'; text: string };

/** What a resend came to, in the words the card shows. */
function outcomeOf(write: TPsaWrite): TOutcome {
  if (write.status === 'done') return { tone: 'green', text: PSA_WRITE_MESSAGES.sent };
  if (write.status === 'failed') return { tone: 'red', text: PSA_WRITE_MESSAGES.refused(write.lastError) };
  return { tone: 'yellow', text: PSA_WRITE_MESSAGES.stillWaiting(write.lastError) };
}

/**
 * Decision 013: the MSP's changes the PSA does not have yet (kept in the outbox and resent by themselves), each in
 * plain words with its ticket, why it is waiting and when it is tried next; "Send again" tries one now (not offered on
 * one stopped because the PSA connection changed, which the server refuses), and "Discard" drops one the PSA refused
 * for good after a confirm (review s29).
 */
export function PsaWritesCard({ mspCustomDomain }: { mspCustomDomain: string }) {
  const query = usePsaWrites(mspCustomDomain);
  const retry = useRetryPsaWrite(mspCustomDomain);
  const discard = useDiscardPsaWrite(mspCustomDomain);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const writes = query.data?.writes;

  function handleSendAgain(writeId: string) {
    setOutcome(null);
    retry.mutate(writeId, {
      onSuccess: ({ write }) => setOutcome(outcomeOf(write)),
      onError: (error) => setOutcome({ tone: 'red', text: errorDetail(error) }),
    });
  }

  function handleDiscard(write: TPsaWrite) {
    modals.openConfirmModal({
      title: PSA_WRITE_MESSAGES.discardTitle,
      // The ticket first: two refused changes of one kind ("Internal note on the ticket") read the same (visual review s29).
      children: (
        <Stack gap="xs">
          {write.ticket ? (
            <Text size="sm" fw={500}>
              {PSA_WRITE_MESSAGES.ticket(write.ticket)}
            </Text>
          ) : null}
          <Text size="sm">{PSA_WRITE_MESSAGES.discardText(write.summary)}</Text>
        </Stack>
      ),
      labels: { confirm: PSA_WRITE_MESSAGES.discardConfirm, cancel: PSA_WRITE_MESSAGES.discardCancel },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        setOutcome(null);
        discard.mutate(write.id, {
          onSuccess: () => setOutcome({ tone: 'green', text: PSA_WRITE_MESSAGES.discarded }),
          onError: (error) => setOutcome({ tone: 'red', text: errorDetail(error) }),
        });
      },
    });
  }

  const busyId = retry.isPending ? retry.variables : discard.isPending ? discard.variables : null;

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="psa-writes-title">
      <Stack gap="sm">
        <Title order={3} id="psa-writes-title">
          {PSA_WRITE_MESSAGES.title}
        </Title>
        <Text size="sm" c="dimmed">
          {PSA_WRITE_MESSAGES.intro}
        </Text>
        {outcome ? (
          <Alert color={outcome.tone} role={outcome.tone === 'red' ? 'alert' : 'status'} withCloseButton closeButtonLabel="Dismiss" onClose={() => setOutcome(null)} style={{ overflowWrap: 'anywhere' }}>
            {outcome.text}
          </Alert>
        ) : null}
        <QueriedList query={query} items={writes} labels={PSA_WRITE_MESSAGES}>
          {(write, index) => (
            <PsaWriteItem
              key={write.id}
              write={write}
              isFirst={index === 0}
              isSending={retry.isPending && retry.variables === write.id}
              isDiscarding={discard.isPending && discard.variables === write.id}
              isOtherBusy={busyId !== null && busyId !== write.id}
              onSendAgain={handleSendAgain}
              onDiscard={handleDiscard}
            />
          )}
        </QueriedList>
      </Stack>
    </Paper>
  );
}

type TPsaWriteItemProps = {
  write: TPsaWrite;
  isFirst: boolean;
  isSending: boolean;
  isDiscarding: boolean;
  /** Another change is being sent or discarded: one at a time. */
  isOtherBusy: boolean;
  onSendAgain: (writeId: string) => void;
  onDiscard: (write: TPsaWrite) => void;
};

function PsaWriteItem({ write, isFirst, isSending, isDiscarding, isOtherBusy, onSendAgain, onDiscard }: TPsaWriteItemProps) {
  const isFailed = write.status === 'failed';
  const details = [PSA_WRITE_MESSAGES.tries(write.attempts), ...(write.status === 'pending' && write.nextAttemptAt ? [PSA_WRITE_MESSAGES.nextTry(formatWhen(write.nextAttemptAt))] : [])];
  return (
    <ListRow label={write.summary} isFirst={isFirst} py="sm">
      {/* Side by side on a wide card; on a phone the button wraps under the text. */}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <ReadableBadge color={isFailed ? 'red' : 'yellow'} style={{ flexShrink: 0 }}>
              {isFailed ? PSA_WRITE_MESSAGES.failed : PSA_WRITE_MESSAGES.waiting}
            </ReadableBadge>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {write.summary}
            </Text>
          </Group>
          {write.ticket ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {PSA_WRITE_MESSAGES.ticket(write.ticket)}
            </Text>
          ) : null}
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {write.lastError ? PSA_WRITE_MESSAGES.reason(write.lastError) : PSA_WRITE_MESSAGES.notTriedYet}
          </Text>
          <Text size="xs" c="dimmed">
            {details.join(' · ')}
          </Text>
        </Stack>
        <Group gap="xs">
          {write.canSendAgain ? (
            <Button variant="default" size="sm" loading={isSending} disabled={isOtherBusy || isDiscarding} onClick={() => onSendAgain(write.id)}>
              {PSA_WRITE_MESSAGES.sendAgain}
            </Button>
          ) : null}
          {write.canDiscard ? (
            <Button variant="outline" color="red" size="sm" loading={isDiscarding} disabled={isOtherBusy || isSending} onClick={() => onDiscard(write)}>
              {PSA_WRITE_MESSAGES.discard}
            </Button>
          ) : null}
        </Group>
      </Group>
    </ListRow>
  );
}
