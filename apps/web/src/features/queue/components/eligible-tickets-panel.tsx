import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorDetail } from '../../../lib/api-client';
import type { TQueueTicketView } from '../queue-types';
import { TicketList } from './ticket-list';

/** A page of eligible tickets holds 30 (the lists' paging); a shorter one is the last. */
const PAGE_SIZE = 30;

type TEligibleTicketsPanelProps = {
  eligible: UseQueryResult<TQueueTicketView[]>;
  page: number;
  onPageChange: (page: number) => void;
  view: 'cards' | 'rows';
  /** The ticket whose pick is under way, if any. */
  pickingId: string | null;
  onPick: (ticket: TQueueTicketView) => void;
};

/** "Eligible tickets" of My Ticket: the tickets the technician may pick by hand (manualPick), a page at a time. */
export function EligibleTicketsPanel({ eligible, page, onPageChange, view, pickingId, onPick }: TEligibleTicketsPanelProps) {
  if (eligible.isPending) return <Loader aria-label="Loading eligible tickets" />;
  if (eligible.isError) return <Alert color="red">{errorDetail(eligible.error)}</Alert>;
  return (
    <Stack>
      <TicketList
        tickets={eligible.data}
        view={view}
        label="Eligible tickets"
        emptyText="No tickets you may pick right now."
        actions={(ticket) => (
          <Button size="xs" onClick={() => onPick(ticket)} loading={pickingId === ticket.id} aria-label={`Pick ticket #${ticket.ticketId}`}>
            Pick
          </Button>
        )}
      />
      <Group justify="center" gap="xs">
        <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onPageChange(Math.max(1, page - 1))}>
          Previous page
        </Button>
        <Text size="sm">Page {page}</Text>
        <Button size="xs" variant="default" disabled={eligible.data.length < PAGE_SIZE} onClick={() => onPageChange(page + 1)}>
          Next page
        </Button>
      </Group>
    </Stack>
  );
}
