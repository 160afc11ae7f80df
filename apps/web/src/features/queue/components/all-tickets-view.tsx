import { useEffect } from 'react';
import { Alert, Button, Group, Loader, NativeSelect, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QUEUE_PAGE_SIZE } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useAllTickets, useMarkIncomplete, type TAllTicketsFilter, type TQueueActor } from '../api/queue-queries';
import type { TBoardChoices } from '../lib/board-choices';
import { clampPage } from '../lib/my-tickets-state';
import type { TQueueTicketView, TTicketFilters } from '../queue-types';
import { TicketFilters } from './ticket-filters';
import { TicketList } from './ticket-list';

type TAllTicketsViewProps = {
  actor: TQueueActor;
  boards: readonly TBoardChoices[];
  view: 'cards' | 'rows';
  filters: TTicketFilters;
  search: string;
  page: number;
  sort: TAllTicketsFilter['sort'];
  show: TAllTicketsFilter['show'];
  onFiltersChange: (filters: TTicketFilters) => void;
  onPageChange: (page: number) => void;
  onSortChange: (sort: TAllTicketsFilter['sort']) => void;
  onShowChange: (show: TAllTicketsFilter['show']) => void;
};

/** "All Tickets": every queue ticket of the MSP, filtered, sorted Newest, 30 a page. */
export function AllTicketsView({ actor, boards, view, filters, search, page, sort, show, onFiltersChange, onPageChange, onSortChange, onShowChange }: TAllTicketsViewProps) {
  const query = useAllTickets(actor.mspCustomDomain, { page, filters, search, sort, show });
  const markIncomplete = useMarkIncomplete(actor);
  const data = query.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / QUEUE_PAGE_SIZE)) : 1;
  // the list can have shrunk since the page was chosen (tickets completed or taken meanwhile); rather
  // than "No tickets match." beside a count, show its last page.
  const isPastTheEnd = data !== undefined && !query.isPlaceholderData && page > pageCount;
  useEffect(() => {
    if (isPastTheEnd) onPageChange(pageCount);
  }, [isPastTheEnd, pageCount, onPageChange]);

  function handleMarkIncomplete(ticket: TQueueTicketView) {
    markIncomplete.mutate(ticket, {
      onSuccess: () => notifications.show({ color: 'green', title: 'Marked incomplete', message: `Ticket #${ticket.ticketId} is open again.` }),
      onError: (error) => notifications.show({ color: 'red', title: 'Not marked incomplete', message: errorDetail(error) }),
    });
  }

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TicketFilters boards={boards} filters={filters} onChange={onFiltersChange} />
        <NativeSelect
          aria-label="Sort"
          value={sort}
          onChange={(event) => {
            onSortChange(event.currentTarget.value === 'score' ? 'score' : 'newest');
            onPageChange(1);
          }}
          data={[
            { value: 'newest', label: 'Newest' },
            { value: 'score', label: 'Queue order' },
          ]}
        />
        <SegmentedControl
          aria-label="Which tickets"
          value={show}
          onChange={(value) => {
            onShowChange(value);
            onPageChange(1);
          }}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'all', label: 'Include completed' },
          ]}
        />
        {data && (
          <Text size="sm" c="dimmed" ml="auto">
            {data.total === 1 ? '1 ticket' : `${data.total} tickets`}
          </Text>
        )}
      </Group>
      {query.isPending ? (
        <Loader aria-label="Loading tickets" />
      ) : query.isError ? (
        <Alert color="red">{errorDetail(query.error)}</Alert>
      ) : (
        <TicketList
          tickets={query.data.tickets}
          view={view}
          label="All tickets"
          emptyText="No tickets match."
          // Only completed tickets have an action (mark incomplete), and they show only with "Include completed".
          actions={show === 'open' ? undefined : (ticket) =>
            ticket.completed ? (
              <Button size="xs" variant="light" onClick={() => handleMarkIncomplete(ticket)} loading={markIncomplete.isPending && markIncomplete.variables.id === ticket.id} aria-label={`Mark ticket #${ticket.ticketId} incomplete`}>
                Mark incomplete
              </Button>
            ) : null
          }
        />
      )}
      {pageCount > 1 && (
        <Group justify="center">
          {/* the page stays between 1 and ceil(count / 30). */}
          <Pagination total={pageCount} value={clampPage(page, data?.total ?? 0, QUEUE_PAGE_SIZE)} onChange={onPageChange} aria-label="Ticket pages" />
        </Group>
      )}
    </Stack>
  );
}
