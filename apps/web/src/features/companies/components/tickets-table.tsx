import { formatListTotal } from '@switchboard/contracts';
import { useEffect, useState } from 'react';
import { Group, Loader, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ReadableBadge } from '../../../components/readable-badge';
import { formatWhen } from '../../../lib/format-when';
import type { TCompanyTicket } from '@switchboard/contracts';
import { useCompanyTickets } from '../api/companies-queries';

type TTicketsTableProps = {
  mspCustomDomain: string;
  psaCompanyId?: string | undefined;
  psaContactId?: string | undefined;
  /** a failed load falls back to the previous view. */
  onLoadFailed: () => void;
};

/** A ticket's status; a "Closed" badge only where the PSA's status name does not already say so ("Closed CLOSED" read twice). */
function TicketStatus({ ticket }: { ticket: TCompanyTicket }) {
  const isSaidClosed = /closed/i.test(ticket.statusName ?? '');
  return (
    <Group gap={4}>
      <Text size="sm" span>
        {ticket.statusName ?? ''}
      </Text>
      {ticket.isClosed && !isSaidClosed ? <ReadableBadge color="gray">Closed</ReadableBadge> : null}
    </Group>
  );
}

/**
 * The tickets views (CompanyAllTickets, CompanyEmployeeTickets, ContactAllTickets, ContactTickets): synchronized
 * tickets, newest first. Without a company (ContactAllTickets) each ticket says whose company it is.
 */
export function TicketsTable({ mspCustomDomain, psaCompanyId, psaContactId, onLoadFailed }: TTicketsTableProps) {
  const [page, setPage] = useState(1);
  const tickets = useCompanyTickets(mspCustomDomain, { psaCompanyId, psaContactId, page });
  const isError = tickets.isError;
  // Phones get one card per ticket: the six columns scrolled sideways at 390 px, status and date off-screen.
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  const showCompany = psaCompanyId === undefined;
  useEffect(() => {
    if (isError) onLoadFailed();
  }, [isError, onLoadFailed]);

  if (tickets.isPending) return <Loader aria-label="Loading tickets" />;
  const data = tickets.data;
  if (!data) return null;
  if (data.items.length === 0) return <Text c="dimmed">No tickets yet.</Text>;
  return (
    <Stack>
      {isNarrow ? (
        <Stack gap="xs" component="ul" aria-label="Tickets" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((ticket) => (
            <Paper key={ticket.id} component="li" withBorder p="sm">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Text fw={600}>{ticket.summary}</Text>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  #{ticket.ticketNumber ?? ticket.psaTicketId}
                </Text>
              </Group>
              <TicketStatus ticket={ticket} />
              <Text size="sm">{[showCompany ? ticket.companyName : null, ticket.contactName, ticket.boardName].filter((part) => part).join(' · ')}</Text>
              <Text size="sm" c="dimmed">
                Opened {formatWhen(ticket.createdAt ?? null)}
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Ticket</Table.Th>
                <Table.Th>Summary</Table.Th>
                {showCompany ? <Table.Th>Company</Table.Th> : null}
                <Table.Th>Contact</Table.Th>
                <Table.Th>Board</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Opened</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((ticket) => (
                <Table.Tr key={ticket.id}>
                  <Table.Td>#{ticket.ticketNumber ?? ticket.psaTicketId}</Table.Td>
                  <Table.Td>{ticket.summary}</Table.Td>
                  {showCompany ? <Table.Td>{ticket.companyName ?? ''}</Table.Td> : null}
                  <Table.Td>{ticket.contactName ?? ''}</Table.Td>
                  <Table.Td>{ticket.boardName ?? ''}</Table.Td>
                  <Table.Td>
                    <TicketStatus ticket={ticket} />
                  </Table.Td>
                  <Table.Td>{formatWhen(ticket.createdAt ?? null)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ListPager page={page} pageSize={data.pageSize} total={data.total} onChange={setPage} label="tickets" singular="ticket" />
    </Stack>
  );
}

/** Server-side pagination with how many there are. */
/** The count and the pages; a count that stopped at the cap reads "10,000+" (the server pages no further). */
/** `label` names the rows in the plural ("companies"), `singular` names one ("company": "1 company"). */
export function ListPager({ page, pageSize, total, isTotalCapped = false, onChange, label, singular }: { page: number; pageSize: number; total: number; isTotalCapped?: boolean; onChange: (page: number) => void; label: string; singular: string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {formatListTotal(total, isTotalCapped)} {total === 1 && !isTotalCapped ? singular : label}
      </Text>
      {pages > 1 ? <Pagination value={page} onChange={onChange} total={pages} size="sm" aria-label={`Pages of ${label}`} /> : null}
    </Group>
  );
}
