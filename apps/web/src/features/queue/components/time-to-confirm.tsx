import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { TSessionToConfirm } from '@switchboard/contracts';
import { formatWhen } from '../../../lib/format-when';
import { formatDuration, workedSeconds } from '../lib/work-timer';

type TTimeToConfirmProps = {
  sessions: readonly TSessionToConfirm[];
  /** The session whose confirmation is being sent, if any. */
  confirmingId: string | null;
  onConfirm: (session: TSessionToConfirm) => void;
};

/**
 * "Time to confirm" (decision 043): the technician's finished work sessions that ran past midnight or over 12 hours,
 * on any of their tickets, each with its Confirm. Their time reaches the PSA only once confirmed, and a completed,
 * requeued or handed-back ticket is no longer in the list whose session history offered the Confirm.
 */
export function TimeToConfirm({ sessions, confirmingId, onConfirm }: TTimeToConfirmProps) {
  if (sessions.length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="time-to-confirm-title" style={{ borderColor: 'var(--mantine-color-orange-5)' }}>
      <Stack gap="xs">
        <Title order={2} size="h5" id="time-to-confirm-title">
          Time to confirm
        </Title>
        <Text size="sm">These work sessions ran past midnight or over 12 hours. Confirm each, and its time entry is sent to the PSA.</Text>
        {/* A list, not a table: on a phone a table's last column (Confirm) sat beyond the screen's edge. */}
        <Stack component="ul" aria-label="Sessions to confirm" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {sessions.map((session) => (
            <Group component="li" key={session.id} justify="space-between" wrap="wrap" gap="xs" py={4} style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
              <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  #{session.ticketId} {session.ticketTitle}
                </Text>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" c="dimmed">
                    {formatWhen(session.startTime)} – {session.endTime === null ? 'running' : formatWhen(session.endTime)} · {formatDuration(workedSeconds([session], 0))}
                  </Text>
                  <Badge size="xs" color="orange" variant="light">
                    {session.flag === 'pastMidnight' ? 'Ran past midnight' : 'Over 12 hours'}
                  </Badge>
                </Group>
              </Stack>
              <Button
                size="compact-sm"
                variant="light"
                loading={confirmingId === session.id}
                onClick={() => onConfirm(session)}
                aria-label={`Confirm the session on ticket #${session.ticketId} started ${formatWhen(session.startTime)}`}
              >
                Confirm
              </Button>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
