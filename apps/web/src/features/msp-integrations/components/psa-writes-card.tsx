import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { PSA_WRITE_MESSAGES, type TPsaWrite } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { formatWhen } from '../../../lib/format-when';
import { ReadableBadge } from '../../../components/readable-badge';
import { ListRow, QueriedList } from '../../../components/queried-list';
import { usePsaWrites, useRetryPsaWrite } from '../api/psa-writes-queries';

type TOutcome = { tone: 'green' | 'yellow' | 'red'; text: string };

/** What a resend came to, in the words the card shows. */
function outcomeOf(write: TPsaWrite): TOutcome {
  if (write.status === 'done') return { tone: 'green', text: PSA_WRITE_MESSAGES.sent };
  if (write.status === 'failed') return { tone: 'red', text: PSA_WRITE_MESSAGES.refused(write.lastError) };
  return { tone: 'yellow', text: PSA_WRITE_MESSAGES.stillWaiting(write.lastError) };
}

/**
 * Decision 013: the MSP's changes the PSA does not have yet (kept in the outbox and resent by themselves), each in
 * plain words with its ticket, why it is waiting and when it is tried next; "Send again" tries one now.
 */
export function PsaWritesCard({ mspCustomDomain }: { mspCustomDomain: string }) {
  const query = usePsaWrites(mspCustomDomain);
  const retry = useRetryPsaWrite(mspCustomDomain);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const writes = query.data?.writes;

  function handleSendAgain(writeId: string) {
    setOutcome(null);
    retry.mutate(writeId, {
      onSuccess: ({ write }) => setOutcome(outcomeOf(write)),
      onError: (error) => setOutcome({ tone: 'red', text: errorDetail(error) }),
    });
  }

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
              isOtherSending={retry.isPending && retry.variables !== write.id}
              onSendAgain={handleSendAgain}
            />
          )}
        </QueriedList>
      </Stack>
    </Paper>
  );
}

function PsaWriteItem({ write, isFirst, isSending, isOtherSending, onSendAgain }: { write: TPsaWrite; isFirst: boolean; isSending: boolean; isOtherSending: boolean; onSendAgain: (writeId: string) => void }) {
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
        <Button variant="default" size="sm" loading={isSending} disabled={isOtherSending} onClick={() => onSendAgain(write.id)}>
          {PSA_WRITE_MESSAGES.sendAgain}
        </Button>
      </Group>
    </ListRow>
  );
}
