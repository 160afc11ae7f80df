import { Button, Group, NativeSelect, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TQueueTicketView } from '../queue-types';
import { TicketBadges } from './ticket-badges';

type TMyTicketsSwitcherProps = {
  tickets: TQueueTicketView[];
  activeIndex: number;
  /** Below 1600 px: a compact select with previous / next above the ticket instead of the list beside it. */
  isMobile: boolean;
  /** Out-of-range indexes are the caller's to ignore. */
  onSelect: (index: number) => void;
};

/** The technician's working tickets, to switch the active one. */
export function MyTicketsSwitcher({ tickets, activeIndex, isMobile, onSelect }: TMyTicketsSwitcherProps) {
  const isFirst = activeIndex <= 0;
  const isLast = activeIndex >= tickets.length - 1;
  if (isMobile) {
    return (
      <Group gap="xs" wrap="nowrap" align="flex-end" maw={720}>
        <Button variant="default" onClick={() => onSelect(activeIndex - 1)} disabled={isFirst} aria-label="Previous ticket">
          ‹
        </Button>
        <NativeSelect
          label="Active ticket"
          style={{ flex: 1, minWidth: 0 }}
          value={tickets[activeIndex]?.id ?? ''}
          onChange={(event) => onSelect(tickets.findIndex((ticket) => ticket.id === event.currentTarget.value))}
          data={tickets.map((ticket) => ({ value: ticket.id, label: `#${ticket.ticketId} ${ticket.title}` }))}
        />
        <Button variant="default" onClick={() => onSelect(activeIndex + 1)} disabled={isLast} aria-label="Next ticket in the list">
          ›
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap={6} component="nav" aria-label="My tickets">
      {tickets.map((ticket, index) => (
        <UnstyledButton
          key={ticket.id}
          onClick={() => onSelect(index)}
          aria-current={index === activeIndex ? 'true' : undefined}
          p="sm"
          style={{
            borderRadius: 'var(--mantine-radius-sm)',
            border: `1px solid ${index === activeIndex ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-gray-3)'}`,
            background: index === activeIndex ? 'var(--mantine-primary-color-light)' : undefined,
          }}
        >
          <Text size="sm" fw={600} lineClamp={2}>
            #{ticket.ticketId} {ticket.title}
          </Text>
          <TicketBadges ticket={ticket} />
        </UnstyledButton>
      ))}
      <Group gap="xs" grow>
        <Button size="xs" variant="default" onClick={() => onSelect(activeIndex - 1)} disabled={isFirst}>
          Previous
        </Button>
        <Button size="xs" variant="default" onClick={() => onSelect(activeIndex + 1)} disabled={isLast}>
          Next in list
        </Button>
      </Group>
    </Stack>
  );
}
