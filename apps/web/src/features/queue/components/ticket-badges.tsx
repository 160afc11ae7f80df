import { Badge, Group, Tooltip } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TQueueState } from '@switchboard/contracts';
import { queueTierLabel } from '../../../lib/tier-labels';
import type { TQueueTicketView } from '../queue-types';

/**
 * Writes the outbox has not landed in the PSA yet and still retries (notes, time entries, assignment, edits, the
 * close): the technician sees that the PSA is behind instead of assuming it has everything.
 */
export function PendingPsaBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Tooltip label={MESSAGES.queue.psaPending} withArrow multiline w={260}>
      <Badge color="yellow" variant="light">
        {count === 1 ? 'Pending in the PSA' : `${count} pending in the PSA`}
      </Badge>
    </Tooltip>
  );
}
/**
 * Writes the PSA refused for good (review s29, finding 2): not retried, so not "pending"; they stay until an admin sends
 * them again or discards them under Integrations, which the tooltip says.
 */
export function FailedPsaBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Tooltip label={MESSAGES.queue.psaFailed} withArrow multiline w={280}>
      {/* Edged: on a selected card, tinted with a red brand colour, the light tint alone all but vanished (visual review s29). */}
      <Badge color="red" variant="light" style={{ border: '1px solid var(--mantine-color-red-7)' }}>
        {MESSAGES.queue.psaFailedBadge(count)}
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

/** gray.7 (8.6:1 on white): Mantine's outline grey, gray.6, was 3.32:1 (axe sweep s28, WCAG 1.4.3). */
export function TierBadge({ tier }: { tier: TQueueTicketView['tier'] }) {
  return (
    <Badge variant="outline" color="gray.7">
      {queueTierLabel(tier)}
    </Badge>
  );
}

const STATE_LABELS: Record<TQueueState, string> = { queued: 'Queued', held: 'On hold', claimed: 'Claimed', working: 'Working', completed: 'Completed', closed: 'Closed' };
const STATE_COLORS: Record<TQueueState, string> = { queued: 'gray', held: 'orange', claimed: 'blue', working: 'teal', completed: 'green', closed: 'green' };

export function TicketBadges({ ticket }: { ticket: TQueueTicketView }) {
  return (
    <Group gap={6} wrap="wrap">
      <PriorityBadge priority={ticket.priority} />
      <TierBadge tier={ticket.tier} />
      <Badge variant="dot" color={STATE_COLORS[ticket.state]}>
        {STATE_LABELS[ticket.state]}
      </Badge>
      <PendingPsaBadge count={ticket.psaPendingWrites} />
      <FailedPsaBadge count={ticket.psaFailedWrites} />
    </Group>
  );
}

/** "Board · Type · Subtype" as far as the ticket has them. */
export function categoryLine(ticket: TQueueTicketView): string {
  return [ticket.boardName, ticket.categoryName, ticket.subCategoryName].filter((part): part is string => part !== null && part !== '').join(' · ');
}
