import type { ReactNode } from 'react';
import { Alert, Badge, Button, Group, Loader, Menu, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import type { TDispatchTechnician, TQueueTicket } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useDispatchAction, useDispatchBoard } from '../api/dispatch-queries';
import { formatWhen } from '../../../lib/format-when';
import { queueTierLabel } from '../../../lib/tier-labels';
import { slaUsedLabel } from './sla-alerts';
import { PriorityBadge, TierBadge } from './ticket-badges';

/**
 * The narrowest a ticket or technician card gets: the grids hold as many columns as their own width allows
 * (beside an open Jarvis a 1440 px window leaves ~340 px, where window breakpoints drew three columns a word wide).
 */
const CARD_MIN_WIDTH = 260;

/** How much of the SLA is used now (0–100+), or null when the ticket has none; counted from a reopen that restarted it. */
export function slaUsedPercent(ticket: Pick<TQueueTicket, 'slaDueAt' | 'slaStartedAt' | 'createdAt'>, now: number): number | null {
  const startedAt = ticket.slaStartedAt ?? ticket.createdAt;
  if (ticket.slaDueAt === null || startedAt === null) return null;
  const start = new Date(startedAt).getTime();
  const due = new Date(ticket.slaDueAt).getTime();
  if (!(due > start)) return null;
  return Math.round(((now - start) / (due - start)) * 100);
}

/** `now` is when the board was read, so the badges match the data they were computed with. */
function SlaBadge({ ticket, now }: { ticket: TQueueTicket; now: number }) {
  const used = slaUsedPercent(ticket, now);
  if (used === null) return <Badge variant="light" color="gray">No SLA</Badge>;
  const color = used >= 100 ? 'red' : used >= 90 ? 'orange' : used >= 75 ? 'yellow' : 'teal';
  return (
    <Badge variant="light" color={color} title={`SLA due ${formatWhen(ticket.slaDueAt)}`}>
      {slaUsedLabel(used)}
    </Badge>
  );
}

/** A ticket under a technician that is still queued is reserved for them: theirs when they next press "next". */
function isReservedFor(ticket: TQueueTicket): boolean {
  return ticket.assignedTechId !== null && (ticket.state === 'queued' || ticket.state === 'held');
}

function TicketLine({ ticket, now, action }: { ticket: TQueueTicket; now: number; action: ReactNode }) {
  return (
    <Paper withBorder p="xs" component="li">
      <Stack gap={4}>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          #{ticket.ticketId} {ticket.title}
        </Text>
        <Group gap={6} wrap="wrap">
          <SlaBadge ticket={ticket} now={now} />
          {isReservedFor(ticket) && (
            <Badge variant="light" color="blue" title="Waiting for this technician: it is theirs when they next press Get next tickets">
              Reserved
            </Badge>
          )}
          <TierBadge tier={ticket.tier} />
          {/* Coloured as All Tickets colours it (every priority was the same grey outline, axe sweep s28). */}
          <PriorityBadge priority={ticket.priority} />
          {ticket.companyName !== null && (
            <Text size="xs" c="dimmed">
              {ticket.companyName}
            </Text>
          )}
        </Group>
        <Group gap="xs" wrap="wrap">
          {action}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * The dispatcher's board (issue #10, decision 018): every technician's claimed and running tickets,
 * the unassigned queue by SLA risk, and assignment to the MSP's real technicians.
 */
export function DispatchBoard({ mspCustomDomain }: { mspCustomDomain: string }) {
  const board = useDispatchBoard(mspCustomDomain);
  const action = useDispatchAction(mspCustomDomain);

  function run(input: Parameters<typeof action.mutate>[0], done: string) {
    action.mutate(input, {
      onSuccess: (ticket) =>
        // A technician who is signed out gets the ticket reserved, not claimed (decision 018): said as such.
        input.action === 'assign' && isReservedFor(ticket)
          ? notifications.show({ color: 'blue', title: MESSAGES.queue.dispatch.reserved, message: MESSAGES.queue.dispatch.reservedFor(ticket.ticketId, ticket.assignedTechName ?? 'the technician') })
          : notifications.show({ color: 'green', title: done, message: `Ticket #${ticket.ticketId}${ticket.assignedTechName ? ` · ${ticket.assignedTechName}` : ''}` }),
      onError: (error) => notifications.show({ color: 'red', title: 'Not changed', message: errorDetail(error) }),
    });
  }

  if (board.isPending) return <Loader aria-label="Loading the dispatch board" />;
  if (board.isError) return <Alert color="red">{errorDetail(board.error)}</Alert>;
  // A deactivated technician stays on the board while they hold tickets (so those can be unassigned), but the server
  // refuses to give them anything new (decision 018): the menu offers only those it would accept.
  const assignable = board.data.technicians.filter((technician) => technician.isActive && technician.tierLevel !== null && technician.tierLevel !== 'NoTier');
  // The ticket whose assign or unassign is on its way: its button shows it and takes no second click (a second POST answered 409).
  const isActing = (ticket: TQueueTicket) => action.isPending && action.variables.id === ticket.id;

  const assignMenu = (ticket: TQueueTicket) => (
    <Menu position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <Button size="xs" aria-label={`Assign ticket #${ticket.ticketId}`} loading={isActing(ticket)}>
          Assign
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Assign to</Menu.Label>
        {assignable.length === 0 && <Menu.Item disabled>No active technician with a tier</Menu.Item>}
        {assignable.map((technician) => (
          <Menu.Item key={technician.id} onClick={() => run({ action: 'assign', id: ticket.id, techId: technician.id }, MESSAGES.queue.dispatch.assigned)}>
            {technician.name} · {technician.tickets.length} open
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );

  const technicianCard = (technician: TDispatchTechnician) => {
    const reservedCount = technician.tickets.filter(isReservedFor).length;
    return (
      <Paper key={technician.id} withBorder p="sm" component="section" aria-label={`Technician ${technician.name}`}>
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap" gap={6}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {technician.name}
            </Text>
            <Group gap={6} wrap="wrap">
              {!technician.isActive && (
                <Badge variant="light" color="red" title="Kept on the board until their tickets are unassigned; nothing new can be assigned to them">
                  Deactivated
                </Badge>
              )}
              <Badge variant="light" color="gray">
                {queueTierLabel(technician.tierLevel)}
              </Badge>
            </Group>
          </Group>
          <Text size="xs" c="dimmed">
            {technician.claimedCount} claimed · {technician.workingCount} in progress
            {reservedCount > 0 ? ` · ${reservedCount} reserved` : ''}
            {technician.runningTicketId !== null ? ` · timer on #${technician.runningTicketId}` : ''}
          </Text>
          {technician.tickets.length === 0 ? (
            <Text size="sm" c="dimmed">
              No open tickets.
            </Text>
          ) : (
            <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {technician.tickets.map((ticket) => (
                <TicketLine
                  key={ticket.id}
                  ticket={ticket}
                  now={board.dataUpdatedAt}
                  action={
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => run({ action: 'unassign', id: ticket.id }, MESSAGES.queue.dispatch.unassigned)}
                      aria-label={`Unassign ticket #${ticket.ticketId}`}
                      loading={isActing(ticket)}
                    >
                      Unassign
                    </Button>
                  }
                />
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    );
  };

  return (
    <Stack gap="md">
      {/* Who is free first: after every unassigned card a dispatcher on a phone scrolled 7,800 px to see it (axe sweep s28). */}
      <Stack gap="xs" component="section" aria-labelledby="technicians-title">
        <Title order={3} size="h4" id="technicians-title">
          Technicians
        </Title>
        {/* Each card as tall as its own tickets: stretched to the row's tallest, short ones were mostly empty. */}
        <SimpleGrid minColWidth={CARD_MIN_WIDTH} spacing="sm" style={{ alignItems: 'start' }}>
          {board.data.technicians.map(technicianCard)}
        </SimpleGrid>
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="unassigned-title">
        <Title order={3} size="h4" id="unassigned-title">
          Unassigned ({board.data.unassignedTotal})
        </Title>
        {board.data.unassigned.length === 0 ? (
          <Text c="dimmed">Every open ticket is with a technician.</Text>
        ) : (
          // Each card as tall as its own ticket: stretched to the row's tallest, a one-line ticket was a tall empty box (visual review s28).
          <SimpleGrid minColWidth={CARD_MIN_WIDTH} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0, alignItems: 'start' }}>
            {board.data.unassigned.map((ticket) => (
              <TicketLine key={ticket.id} ticket={ticket} now={board.dataUpdatedAt} action={assignMenu(ticket)} />
            ))}
          </SimpleGrid>
        )}
        {board.data.unassignedTotal > board.data.unassigned.length && (
          <Text size="xs" c="dimmed">
            The {board.data.unassigned.length} nearest to their SLA are shown; All Tickets has the rest.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
