import type { ReactNode, Ref } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { TQueueTicketView, TNoteCategory, TNoteDraft, TTicketNote, TWorkSession } from '../queue-types';
import { NotesPanel } from './notes-panel';
import { SessionHistory } from './session-history';
import { TicketBadges, categoryLine } from './ticket-badges';
import { WorkTimerDisplay } from './work-timer-display';
import { formatWhen } from '../../../lib/format-when';

export type TTicketWorkspaceProps = {
  ticket: TQueueTicketView;
  sessions: readonly TWorkSession[];
  totalWorkMinutes: number;
  isTimerActive: boolean;
  isTimerBusy: boolean;
  timerError: string | null;
  notes: readonly TTicketNote[];
  isNotesLoading: boolean;
  notesError: string | null;
  isCompleting: boolean;
  /** How far the server's clock is ahead of the browser's (the timer ticks by the server's clock). */
  clockOffsetMs?: number;
  /** One column on narrow screens; the timer and sessions beside the ticket otherwise. */
  isStacked: boolean;
  noteRef?: Ref<HTMLTextAreaElement>;
  /** The note this ticket's technician left half-written, if any. */
  noteDraft?: TNoteDraft;
  /** Keeps the note being written on the ticket (by queue id) while another ticket is worked. */
  onNoteDraftChange?: (ticketId: string, draft: TNoteDraft) => void;
  onPauseResume: () => void;
  onComplete: () => void;
  onRequeue: () => void;
  onEdit: () => void;
  onReject: () => void;
  onConfirmSession: (sessionId: string) => void;
  onAddNote: (text: string, category: TNoteCategory) => Promise<void>;
  /** Troubleshooting steps and similar resolutions of the ticket. */
  assist?: ReactNode;
};

/** The active ticket of "My Ticket": what it is, its timer, the actions, its notes and sessions. */
export function TicketWorkspace(props: TTicketWorkspaceProps) {
  const { ticket, isStacked } = props;
  const hasSessions = props.sessions.length > 0;
  const timerLabel = props.isTimerActive ? 'Pause' : hasSessions ? 'Resume' : 'Start timer';

  const header = (
    <Paper withBorder p="md" component="section" aria-labelledby="active-ticket-title">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {ticket.ticketInformation}
        </Text>
        <Title order={2} size="h3" id="active-ticket-title" style={{ overflowWrap: 'anywhere' }}>
          #{ticket.ticketId} {ticket.title}
        </Title>
        <Text size="sm" c="dimmed">
          {categoryLine(ticket) || 'Not categorised'}
          {ticket.status !== null ? ` · ${ticket.status}` : ''}
          {ticket.slaDueAt !== null ? ` · SLA due ${formatWhen(ticket.slaDueAt)}` : ''}
        </Text>
        <TicketBadges ticket={ticket} />
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} mt="xs">
          {ticket.description === null || ticket.description.trim() === '' ? 'No description.' : ticket.description}
        </Text>
        <Group gap="xs" mt="xs">
          <Button variant="default" onClick={props.onEdit}>
            Edit ticket
          </Button>
          <Button variant="default" onClick={props.onRequeue}>
            Requeue
          </Button>
          <Button variant="default" onClick={props.onReject}>
            Hand back
          </Button>
          {/* autoContrast: white on green.6 was 2.4:1; Mantine writes dark text on it (8.9:1), and no green shade reaches 4.5:1 with white. */}
          <Button color="green" autoContrast onClick={props.onComplete} loading={props.isCompleting}>
            Complete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );

  const timer = (
    <Paper withBorder p="md" component="section" aria-labelledby="timer-title">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5" id="timer-title">
            Work timer
          </Title>
          {/* teal.9 is 5.0:1 on white; teal (shade 6) was 2.55:1 (axe sweep s28, WCAG 1.4.3). */}
          <Text size="xs" c={props.isTimerActive ? 'teal.9' : 'dimmed'} fw={600}>
            {props.isTimerActive ? 'Running' : hasSessions ? 'Paused' : 'Not started'}
          </Text>
        </Group>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <WorkTimerDisplay sessions={props.sessions} isActive={props.isTimerActive} clockOffsetMs={props.clockOffsetMs} label={`Time worked on ticket #${ticket.ticketId}`} />
          <Button variant={props.isTimerActive ? 'default' : 'filled'} onClick={props.onPauseResume} loading={props.isTimerBusy}>
            {timerLabel}
          </Button>
        </Group>
        {props.timerError !== null && (
          <Alert color="red" role="alert" py="xs">
            {props.timerError}
          </Alert>
        )}
      </Stack>
    </Paper>
  );

  const notes = (
    <NotesPanel
      // One panel per ticket: the note box, its category and its error belong to the ticket they were written on.
      key={`notes-${ticket.id}`}
      ticketNumber={ticket.ticketId}
      initialDraft={props.noteDraft}
      onDraftChange={(draft) => props.onNoteDraftChange?.(ticket.id, draft)}
      notes={props.notes}
      isLoading={props.isNotesLoading}
      loadError={props.notesError}
      onAdd={props.onAddNote}
      textareaRef={props.noteRef}
    />
  );
  const sessions = <SessionHistory sessions={props.sessions} totalWorkMinutes={props.totalWorkMinutes} onConfirm={props.onConfirmSession} />;

  if (isStacked) {
    return (
      <Stack gap="md">
        {header}
        {timer}
        {props.assist}
        {notes}
        {sessions}
      </Stack>
    );
  }
  return (
    <Group align="flex-start" gap="md" wrap="nowrap">
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
        {header}
        {props.assist}
        {notes}
      </Stack>
      <Stack gap="md" w={360} style={{ flexShrink: 0 }}>
        {timer}
        {sessions}
      </Stack>
    </Group>
  );
}
