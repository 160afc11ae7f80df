import { useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ACTIVITY_KINDS } from '@switchboard/contracts';
import type { TActivityEvent, TActivityKind } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { ReadableBadge } from '../../../components/readable-badge';
import { ListPager } from '../../companies/components/tickets-table';
import { activityCsvUrl, browserTimeZone, useActivityLog } from '../api/activity-log-queries';
import { actionLabel } from '../action-labels';
import { formatWhenExact } from '../../../lib/format-when';
import { useDocumentTitle } from '../../../lib/use-document-title';

const KIND_LABELS: Record<TActivityKind, string> = {
  'sign-in': 'Sign-ins',
  account: 'Accounts',
  role: 'Roles',
  'access-refused': 'Refused access',
  change: 'Other changes',
};

function OutcomeBadge({ outcome }: { outcome: string }) {
  return outcome === 'success' ? <ReadableBadge color="green">Success</ReadableBadge> : <ReadableBadge color="red">Failure</ReadableBadge>;
}

/** The target as a person knows it (a name, a ticket's number and summary); the recorded id beneath it, small, and in the tooltip. */
function TargetCell({ event }: { event: TActivityEvent }) {
  if (event.target === null && event.targetLabel === null) return null;
  if (event.targetLabel === null) {
    return (
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {event.target}
      </Text>
    );
  }
  return (
    <div title={event.target ?? undefined}>
      <Text size="sm">{event.targetLabel}</Text>
      {event.target ? (
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {event.target}
        </Text>
      ) : null}
    </div>
  );
}

const isKind = (value: string | null): value is TActivityKind => value !== null && (ACTIVITY_KINDS as readonly string[]).includes(value);

/** The activity log (beyond the spec): who did what and when, with the outcome; filters, pages and a CSV export. */
export function ActivityLogScreen({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Activity log');
  const [page, setPage] = useState(1);
  const [userId, setUserId] = useState<string | null>(null);
  const [kind, setKind] = useState<TActivityKind | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // From and To are the admin's own days, as the times below are local: the browser's zone goes with them.
  const hasDay = from !== '' || to !== '';
  const filter = { userId: userId ?? undefined, kind: kind ?? undefined, from: from || undefined, to: to || undefined, tz: hasDay ? browserTimeZone() : undefined };
  const log = useActivityLog(mspCustomDomain, { page, ...filter });
  const data = log.data;
  // Phones get one card per event: the five-column table would hide the target and outcome off-screen.
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  const change = <T,>(setter: (value: T) => void) => (value: T) => {
    setter(value);
    setPage(1);
  };

  return (
    <Stack component="section" aria-labelledby="activity-title">
      <Title order={1} size="h2" id="activity-title">
        Activity log
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select label="Person" placeholder="Everyone" clearable data={(data?.people ?? []).map((person) => ({ value: person.userId, label: person.name }))} value={userId} onChange={change(setUserId)} w={{ base: '100%', sm: 220 }} />
        <Select
          label="Kind"
          placeholder="All kinds"
          clearable
          data={ACTIVITY_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
          value={kind}
          onChange={(value) => change(setKind)(isKind(value) ? value : null)}
          w={{ base: '100%', sm: 200 }}
        />
        <TextInput label="From" type="date" min="1970-01-01" max="9998-12-31" value={from} onChange={(event) => change(setFrom)(event.currentTarget.value)} />
        <TextInput label="To" type="date" min="1970-01-01" max="9998-12-31" value={to} onChange={(event) => change(setTo)(event.currentTarget.value)} />
        <Button component="a" href={activityCsvUrl(mspCustomDomain, filter)} variant="light" color="brandSecondary" download>
          Export CSV
        </Button>
      </Group>
      {log.isError ? (
        <Alert color="red" title="The activity log could not be loaded">
          {isApiError(log.error) ? log.error.detail : 'Try again.'}
        </Alert>
      ) : null}
      {log.isPending ? <Loader aria-label="Loading activity" /> : null}
      {data && data.items.length === 0 ? <Text c="dimmed">No activity matches.</Text> : null}
      {data && data.items.length > 0 && isNarrow ? (
        <Stack gap="xs" component="ul" aria-label="Activity" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((event) => (
            <Paper key={event.id} component="li" withBorder p="sm">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text fw={600}>{event.who}</Text>
                <OutcomeBadge outcome={event.outcome} />
              </Group>
              <Text size="sm">
                {actionLabel(event.action)} · {KIND_LABELS[event.kind]}
              </Text>
              <Text size="xs" c="dimmed">
                {event.action}
              </Text>
              <TargetCell event={event} />
              <Text size="xs" c="dimmed">
                {formatWhenExact(event.at)}
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : null}
      {data && data.items.length > 0 && !isNarrow ? (
        <Table.ScrollContainer minWidth={720}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>Outcome</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{formatWhenExact(event.at)}</Table.Td>
                  <Table.Td>{event.who}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{actionLabel(event.action)}</Text>
                    <Text size="xs" c="dimmed">
                      {KIND_LABELS[event.kind]} · {event.action}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <TargetCell event={event} />
                  </Table.Td>
                  <Table.Td>
                    <OutcomeBadge outcome={event.outcome} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data ? <ListPager page={page} pageSize={data.pageSize} total={data.total} onChange={setPage} label="events" singular="event" /> : null}
    </Stack>
  );
}
