import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatDuration, workedSeconds } from '../lib/work-timer';
import type { TWorkSession } from '../queue-types';
import { formatWhen } from '../../../lib/format-when';

/** The session history panel: every work session of this technician on the ticket, from the server. */
export function SessionHistory({ sessions, totalWorkMinutes, onConfirm }: { sessions: readonly TWorkSession[]; totalWorkMinutes: number; onConfirm: (sessionId: string) => void }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="xs">
        <Title order={3} size="h5" id="sessions-title">
          Session history
        </Title>
        {sessions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No work sessions yet.
          </Text>
        ) : (
          <Table aria-label="Work sessions" verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Started</Table.Th>
                <Table.Th>Ended</Table.Th>
                <Table.Th>Length</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((session) => (
                <Table.Tr key={session.id}>
                  <Table.Td>{formatWhen(session.startTime)}</Table.Td>
                  <Table.Td>{session.endTime === null ? 'Running' : formatWhen(session.endTime)}</Table.Td>
                  <Table.Td>{session.endTime === null ? '—' : formatDuration(workedSeconds([session], 0))}
                    {/* A running session is confirmed once it has ended (or with its real end): the server refuses it otherwise. */}
                    {session.flag !== null && session.confirmedAt === null && session.endTime !== null && (
                      <Group gap={4} mt={4} wrap="nowrap">
                        <Badge size="xs" color="orange" variant="light">
                          {session.flag === 'pastMidnight' ? 'Ran past midnight' : 'Over 12 hours'}
                        </Badge>
                        <Button size="compact-xs" variant="light" onClick={() => onConfirm(session.id)} aria-label={`Confirm the session started ${formatWhen(session.startTime)}`}>
                          Confirm
                        </Button>
                      </Group>
                    )}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Text size="sm">Total worked: {Math.round(totalWorkMinutes)} min</Text>
      </Stack>
    </Paper>
  );
}
