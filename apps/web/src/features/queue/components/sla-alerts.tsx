import { Alert, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useMarkSlaAlertsRead, useSlaAlerts } from '../api/dispatch-queries';
import { formatWhen } from '../../../lib/format-when';

/** How much of a ticket's SLA is used, in words: "SLA breached" at 100 % and over, else "{n} % of SLA used". */
export function slaUsedLabel(percent: number): string {
  return percent >= 100 ? 'SLA breached' : `${Math.max(percent, 0)} % of SLA used`;
}

const colorOf = (threshold: number) => (threshold >= 100 ? 'red' : threshold >= 90 ? 'orange' : threshold >= 75 ? 'yellow' : 'blue');

/**
 * The technician's unread SLA alerts (50/75/90/100 % of a ticket's SLA), each with its own "Mark read", all of them
 * listed (the list scrolls past a few), so "Mark all read" marks only alerts the technician could see. The count is the
 * server's `unreadCount`: the list holds at most 50 alerts, so when more are unread the panel says how many it shows, and
 * the answer to "Mark all read" lists the next ones. A failed load says so with a retry, rather than vanishing as if
 * there were no alerts.
 */
export function SlaAlerts({ mspCustomDomain }: { mspCustomDomain: string }) {
  const alerts = useSlaAlerts(mspCustomDomain);
  const markRead = useMarkSlaAlertsRead(mspCustomDomain);
  const unread = (alerts.data?.alerts ?? []).filter((alert) => !alert.isRead);
  // Never fewer than are listed, should the count and the list ever disagree.
  const unreadCount = Math.max(alerts.data?.unreadCount ?? 0, unread.length);
  if (unreadCount === 0 && !alerts.isError) return null;

  function handleRead(ids: string[]) {
    markRead.mutate(ids, { onError: (error) => notifications.show({ color: 'red', title: 'Alerts not marked read', message: errorDetail(error) }) });
  }

  return (
    <Stack gap="xs" component="section" aria-label="SLA alerts">
      {alerts.isError && (
        <Alert color="red" py="xs" role="alert">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{MESSAGES.queue.sla.loadFailed}</Text>
            <Button size="compact-sm" variant="light" color="red" loading={alerts.isFetching} onClick={() => void alerts.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      )}
      {unreadCount > 0 && (
        <>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text fw={600} size="sm">
              SLA alerts ({unreadCount})
            </Text>
            {unread.length > 1 && (
              <Button size="compact-sm" variant="subtle" onClick={() => handleRead(unread.map((alert) => alert.id))} loading={markRead.isPending}>
                Mark all read
              </Button>
            )}
          </Group>
          {unread.length < unreadCount && (
            <Text size="sm" c="dimmed">
              {MESSAGES.queue.sla.showingUnread(unread.length, unreadCount)}
            </Text>
          )}
          {/* Every unread alert the server listed is shown: "Mark all read" must not mark ones the technician never saw (review s28 #4). */}
          <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
            <Stack gap="xs">
              {unread.map((alert) => (
                <Alert key={alert.id} color={colorOf(alert.threshold)} py="xs" role="status">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Text size="sm" style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
                      <b>{slaUsedLabel(alert.threshold)}</b> · #{alert.ticketId} {alert.title}
                      {alert.slaDueAt !== null ? ` · due ${formatWhen(alert.slaDueAt)}` : ''}
                    </Text>
                    <Button size="compact-sm" variant="default" onClick={() => handleRead([alert.id])} aria-label={`Mark the ${alert.threshold} % alert of ticket #${alert.ticketId} read`}>
                      Mark read
                    </Button>
                  </Group>
                </Alert>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
