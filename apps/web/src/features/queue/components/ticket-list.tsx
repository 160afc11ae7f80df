import { Fragment, useState } from 'react';
import type { ReactNode } from 'react';
import { ActionIcon, Box, Card, Group, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { TQueueTicketView } from '../queue-types';
import { TicketBadges, categoryLine } from './ticket-badges';
import { formatWhen } from '../../../lib/format-when';

type TTicketListProps = {
  tickets: readonly TQueueTicketView[];
  view: 'cards' | 'rows';
  /** Names the list for assistive technology, e.g. "All tickets". */
  label: string;
  /** Buttons for one ticket (pick, open, mark incomplete). */
  actions?: (ticket: TQueueTicketView) => ReactNode;
  emptyText: string;
};


function TicketDetails({ ticket }: { ticket: TQueueTicketView }) {
  return (
    <Stack gap={4}>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {ticket.description === null || ticket.description.trim() === '' ? 'No description.' : ticket.description}
      </Text>
      <Text size="xs" c="dimmed">
        {[ticket.companyName, ticket.contactName, ticket.status, ticket.assignedTechName === null ? null : `Assigned to ${ticket.assignedTechName}`]
          .filter((part): part is string => part !== null && part !== '')
          .join(' · ')}
      </Text>
    </Stack>
  );
}

/** The narrowest a ticket card gets before the list drops a column. */
const CARD_MIN_WIDTH = 280;
/**
 * The list's own width (px) from which the rows show every column. Narrower (beside an open Jarvis a 1440 px window
 * leaves ~600 px), the board line and the date move under the ticket's title: the six columns needed 640 px and
 * the table scrolled sideways inside its box, with the actions out of sight (visual review s28).
 */
const ALL_COLUMNS_FROM_PX = 760;
/** The least width of the folded rows' table; only a list narrower than this scrolls (the queue shows cards there). */
const FOLDED_TABLE_MIN_PX = 420;

/** 02 §2 views: cards, or rows that expand to show the description. */
export function TicketList({ tickets, view, label, actions, emptyText }: TTicketListProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // The list's own width decides, not the window's; until it is measured (and in jsdom) every column shows.
  const { ref: rowsRef, width: rowsWidth } = useElementSize();
  const isFolded = rowsWidth > 0 && rowsWidth < ALL_COLUMNS_FROM_PX;
  if (tickets.length === 0) return <Text c="dimmed">{emptyText}</Text>;

  function toggle(id: string) {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  if (view === 'cards') {
    return (
      // As many columns as the list's own width holds: with Jarvis open a 1440 px window leaves the list ~340 px,
      // where the window-width breakpoints still drew three columns a word wide.
      <SimpleGrid minColWidth={CARD_MIN_WIDTH} role="list" aria-label={label}>
        {tickets.map((ticket) => (
          <Card key={ticket.id} withBorder role="listitem" aria-label={`Ticket #${ticket.ticketId}`} padding="md">
            <Stack gap="xs" h="100%">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
                  #{ticket.ticketId} {ticket.title}
                </Title>
              </Group>
              <Text size="xs" c="dimmed">
                {categoryLine(ticket) || 'Not categorised'} · {formatWhen(ticket.createdAt)}
              </Text>
              <TicketBadges ticket={ticket} />
              <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                {ticket.description ?? ''}
              </Text>
              {actions && (
                <Group gap="xs" mt="auto">
                  {actions(ticket)}
                </Group>
              )}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    );
  }

  const columnCount = (isFolded ? 3 : 5) + (actions ? 1 : 0);
  return (
    <Box ref={rowsRef}>
      <Table.ScrollContainer minWidth={isFolded ? FOLDED_TABLE_MIN_PX : 640}>
        <Table aria-label={label} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <VisuallyHidden>Details</VisuallyHidden>
              </Table.Th>
              <Table.Th>Ticket</Table.Th>
              {!isFolded && <Table.Th>Board · Type · Subtype</Table.Th>}
              <Table.Th>Priority and state</Table.Th>
              {!isFolded && <Table.Th>Created</Table.Th>}
              {actions && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tickets.map((ticket) => {
              const isOpen = expanded.has(ticket.id);
              return (
                <Fragment key={ticket.id}>
                  <Table.Tr>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        aria-expanded={isOpen}
                        aria-controls={`ticket-details-${ticket.id}`}
                        aria-label={`${isOpen ? 'Hide' : 'Show'} details of ticket #${ticket.ticketId}`}
                        onClick={() => toggle(ticket.id)}
                      >
                        <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
                      </ActionIcon>
                    </Table.Td>
                    <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      #{ticket.ticketId} {ticket.title}
                      {isFolded && (
                        <Text size="xs" c="dimmed" fw={400}>
                          {[categoryLine(ticket), formatWhen(ticket.createdAt)].filter((part) => part !== '').join(' · ')}
                        </Text>
                      )}
                    </Table.Th>
                    {!isFolded && <Table.Td>{categoryLine(ticket) || '—'}</Table.Td>}
                    <Table.Td>
                      <TicketBadges ticket={ticket} />
                    </Table.Td>
                    {!isFolded && <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatWhen(ticket.createdAt)}</Table.Td>}
                    {actions && (
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          {actions(ticket)}
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                  {isOpen && (
                    <Table.Tr id={`ticket-details-${ticket.id}`}>
                      <Table.Td />
                      <Table.Td colSpan={columnCount - 1}>
                        <TicketDetails ticket={ticket} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Box>
  );
}
