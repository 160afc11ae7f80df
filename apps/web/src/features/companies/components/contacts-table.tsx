import { Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TContact } from '@switchboard/contracts';
import { ReadableBadge } from '../../../components/readable-badge';

type TContactsTableProps = {
  contacts: TContact[];
  pending: TContact[];
  showCompany?: boolean;
  onOpenTickets?: (contact: TContact) => void;
};

function StatusBadge({ contact }: { contact: TContact }) {
  if (contact.status === 'pending') return <ReadableBadge color="yellow">Pending at the PSA</ReadableBadge>;
  if (contact.status === 'failed') return <ReadableBadge color="red" title={contact.failureReason ?? undefined}>
        Not added
      </ReadableBadge>;
  return null;
}

/** Contacts with their pending adds first (the UI says they are pending, 01 §2 add contact). */
export function ContactsTable({ contacts, pending, showCompany = false, onOpenTickets }: TContactsTableProps) {
  const rows = [...pending, ...contacts];
  // Phones get one card per contact: with four or five columns the e-mail and Tickets would be off-screen.
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  if (rows.length === 0) return <Text c="dimmed">No contacts match.</Text>;
  if (isNarrow) {
    return (
      <Stack gap="xs" component="ul" aria-label="Contacts" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((contact) => (
          <Paper key={`${contact.status}:${contact.id}`} component="li" withBorder p="sm">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Text fw={600}>
                {contact.firstName} {contact.lastName} <StatusBadge contact={contact} />
              </Text>
              {onOpenTickets && contact.status === 'synced' ? (
                <Button size="xs" variant="subtle" aria-label={`Tickets of ${contact.firstName} ${contact.lastName}`} onClick={() => onOpenTickets(contact)}>
                  Tickets
                </Button>
              ) : null}
            </Group>
            {contact.status === 'failed' && contact.failureReason ? (
              <Text size="xs" c="red.8">
                {contact.failureReason}
              </Text>
            ) : null}
            {showCompany && contact.psaClientName ? <Text size="sm">{contact.psaClientName}</Text> : null}
            {contact.email ? (
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {contact.email}
              </Text>
            ) : null}
            {contact.phone ? <Text size="sm">{contact.phone}</Text> : null}
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            {showCompany ? <Table.Th>Company</Table.Th> : null}
            <Table.Th>Email</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((contact) => (
            <Table.Tr key={`${contact.status}:${contact.id}`}>
              <Table.Td>
                {contact.firstName} {contact.lastName} <StatusBadge contact={contact} />
                {contact.status === 'failed' && contact.failureReason ? (
                  <Text size="xs" c="red.8">
                    {contact.failureReason}
                  </Text>
                ) : null}
              </Table.Td>
              {showCompany ? <Table.Td>{contact.psaClientName ?? ''}</Table.Td> : null}
              <Table.Td>{contact.email ?? ''}</Table.Td>
              <Table.Td>{contact.phone ?? ''}</Table.Td>
              <Table.Td>
                {onOpenTickets && contact.status === 'synced' ? (
                  <Button size="xs" variant="subtle" aria-label={`Tickets of ${contact.firstName} ${contact.lastName}`} onClick={() => onOpenTickets(contact)}>
                    Tickets
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
