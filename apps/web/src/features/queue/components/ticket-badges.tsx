import { Badge, Group, Tooltip } from '@mantine/core';
import type { TPendingPsaWrite, TQueueTicketView } from '../queue-types';

const WRITE_LABELS: Record<string, string> = {
  'ticket.note': 'note',
  'ticket.timeEntry': 'time entry',
  'ticket.assign': 'assignment',
  'ticket.claim': 'assignment',
  'ticket.update': 'edit',
  'ticket.close': 'closing',
};

function describeWrites(writes: readonly TPendingPsaWrite[]): string {
  const names = [...new Set(writes.map((write) => WRITE_LABELS[write.kind] ?? write.kind.replace(/^ticket\./, '')))];
  return names.join(', ');
}

/**
 * Writes the outbox has not landed in the PSA yet: "pending" while it retries, "failed" when the
 * PSA refused for good. A technician sees that the PSA is behind instead of assuming it is not.
 */
export function PendingPsaBadge({ writes }: { writes: readonly TPendingPsaWrite[] }) {
  if (writes.length === 0) return null;
  const failed = writes.filter((write) => write.status === 'failed');
  if (failed.length > 0) {
    return (
      <Tooltip label={`The PSA refused: ${describeWrites(failed)}`} withArrow>
        <Badge color="red" variant="light">
          Failed in the PSA
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Tooltip label={`Waiting to reach the PSA: ${describeWrites(writes)}`} withArrow>
      <Badge color="yellow" variant="light">
        Pending in the PSA
      </Badge>
    </Tooltip>
  );
}

const PRIORITY_COLORS: Array<[RegExp, string]> = [
  [/critical|emergency|urgent|1/i, 'red'],
  [/high|2/i, 'orange'],
  [/medium|3/i, 'yellow'],
  [/low|4|5/i, 'gray'],
];

export function PriorityBadge({ priority }: { priority: string | null }) {
  if (priority === null || priority === '') return null;
  const color = PRIORITY_COLORS.find(([pattern]) => pattern.test(priority))?.[1] ?? 'blue';
  return (
    <Badge color={color} variant="light">
      {priority}
    </Badge>
  );
}

export function TicketBadges({ ticket }: { ticket: TQueueTicketView }) {
  return (
    <Group gap={6} wrap="wrap">
      <PriorityBadge priority={ticket.priority} />
      {ticket.tier !== null && (
        <Badge variant="outline" color="gray">
          {ticket.tier === 'NoTier' ? 'No Dispatching' : ticket.tier}
        </Badge>
      )}
      {ticket.closed && <Badge color="green">Closed</Badge>}
      {ticket.completed && !ticket.closed && <Badge color="teal">Completed</Badge>}
      <PendingPsaBadge writes={ticket.pendingPsaWrites} />
    </Group>
  );
}

/** "Board · Type · Subtype" as far as the ticket has them. */
export function categoryLine(ticket: TQueueTicketView): string {
  return [ticket.boardName, ticket.categoryName, ticket.subCategoryName].filter((part): part is string => part !== null && part !== '').join(' · ');
}
