import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TSupportTicket } from '@switchboard/contracts';
import { formatWhen } from '../../../lib/format-when';
import { TicketProgress } from '../../assistant/components/ticket-progress';

const done = (ticket: TSupportTicket) => ({
  ticketCreated: ticket.progress.ticketCreated === 'done',
  ticketAssigned: ticket.progress.ticketAssigned === 'done',
  ticketClosed: ticket.progress.ticketClosed === 'done',
  userCreatedInActiveDirectory: ticket.progress.userCreatedInActiveDirectory === 'done',
  userEmailCreated: ticket.progress.userEmailCreated === 'done',
});

/** One of the client's tickets: what it is, where it is, and its progress (02 §4). */
export function SupportTicketCard({ ticket, isExpanded = false }: { ticket: TSupportTicket; isExpanded?: boolean }) {
  const [isOpen, setOpen] = useState(isExpanded);
  const label = ticket.ticketNumber ? `Ticket ${ticket.ticketNumber}` : 'New ticket';
  const isOnboarding = ticket.progress.userCreatedInActiveDirectory !== undefined || ticket.progress.userEmailCreated !== undefined;
  const category = [ticket.boardName, ticket.categoryName, ticket.subCategoryName].filter((part) => part !== null && part !== '').join(' › ');
  return (
    <Paper withBorder p="sm" component="article" aria-label={`${label}: ${ticket.title}`}>
      {/* The badge stays at the top right: beside a long title it used to drop under it on its own line (visual review s29). */}
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text fw={700} style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
          {ticket.title}
        </Text>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {ticket.psaWriteState === 'pending' && (
            <Badge color="orange" variant="light">
              {MESSAGES.assistant.pendingInPsa}
            </Badge>
          )}
          {ticket.psaWriteState === 'failed' && (
            <Badge color="red" variant="light">
              {MESSAGES.assistant.refusedInPsa}
            </Badge>
          )}
          {/* Until the PSA has the ticket its status only repeats the badge above (review s26 #5). */}
          {ticket.psaWriteState === 'done' && ticket.status && (
            <Badge color={ticket.isClosed ? 'gray' : 'blue'} variant="light">
              {ticket.status}
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {label}
        {ticket.createdAt ? ` · ${formatWhen(ticket.createdAt)}` : ''}
        {ticket.priority ? ` · ${ticket.priority}` : ''}
      </Text>
      {category !== '' && <Text size="sm">{category}</Text>}
      {ticket.psaWriteState === 'failed' && (
        <Text size="sm" c="red.8">
          {MESSAGES.assistant.failedInPsa}
        </Text>
      )}
      <Button size="compact-xs" variant="subtle" mt={4} px={0} aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
        {isOpen ? 'Hide progress' : 'Show progress'}
      </Button>
      {isOpen && (
        <Stack gap="xs" pt="xs">
          {ticket.description && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={6}>
              {ticket.description}
            </Text>
          )}
          <TicketProgress label={`Progress of ${label}`} done={done(ticket)} isOnboarding={isOnboarding} isPendingInPsa={ticket.psaWriteState === 'pending'} />
        </Stack>
      )}
    </Paper>
  );
}
