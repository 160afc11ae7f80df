import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { Alert, Button, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import type { TPsaWriteState, TTicketingConfiguration } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useClearingState } from '../../../lib/use-clearing-state';
import {
  timerErrorText,
  useAddNote,
  useCompleteTicket,
  useConfirmSession,
  useEligibleTickets,
  useManualPick,
  useNextTickets,
  useRejectTicket,
  useRequeueTicket,
  useSessionsToConfirm,
  useTicketNotes,
  useTicketSessions,
  useTimerAction,
  useWorkingTickets,
  type TQueueActor,
  type TTimerAction,
} from '../api/queue-queries';
import { afterComplete, afterRequeue } from '../lib/my-tickets-state';
import { isQueueShortcutAllowed } from '../lib/queue-shortcuts';
import { useSingleFlight } from '../../../lib/use-single-flight';
import type { TNoteDraft, TQueueTicketView } from '../queue-types';
import { EditActiveTicket } from './edit-active-ticket';
import { RejectModal } from './reject-modal';
import { RequeueModal, type TRequeueChoice } from './requeue-modal';
import { EligibleTicketsPanel } from './eligible-tickets-panel';
import { MyTicketsSwitcher } from './my-tickets-switcher';
import { TicketAssist } from './ticket-assist';
import { TicketWorkspace } from './ticket-workspace';
import { TimeToConfirm } from './time-to-confirm';
import { TimeEntryAlert, timeEntryWarningOf, type TTimeEntryWarning } from './time-entry-alert';

export const BANNER_MS = 3000;
/** `awaitsConfirmation`: the ticket's time waits under "Time to confirm" (decision 043). */
type TBanner = { kind: 'closed' | 'requeued'; ticketId: number; awaitsConfirmation: boolean };
/** A completed ticket whose PSA close has not landed (pending: retried by the server; failed: refused by the PSA). */
type TCloseWarning = { ticketId: number; status: 'pending' | 'failed'; message: string | null };

type TMyTicketViewProps = {
  actor: TQueueActor;
  /** Below 1600 px: the ticket list becomes a compact switcher above the ticket. */
  isMobile: boolean;
  /** Narrow screens: the ticket's panels stack in one column. */
  isNarrow: boolean;
  configuration: TTicketingConfiguration | undefined;
  isConfigurationLoading: boolean;
  /** The ticket area: the shortcuts act only while the focus is in it and no dialog is open. */
  shortcutScope: RefObject<HTMLElement | null>;
};

/**
 * "My Ticket" (02 §4): next tickets, the working and eligible views, the active ticket with its
 * server-kept timer, notes, requeue, complete and edit, and the closed / requeued banners.
 */
export function MyTicketView({ actor, isMobile, isNarrow, configuration, isConfigurationLoading, shortcutScope }: TMyTicketViewProps) {
  const [listView, setListView] = useState<'working' | 'eligible'>('working');
  const [activeId, setActiveId] = useState<string | null>(null);
  /** Completed or requeued here; hidden until the refreshed working list no longer has them. */
  const [goneIds, setGoneIds] = useState<ReadonlySet<string>>(new Set());
  // the closed and requeued confirmations show for 3 seconds.
  const [banner, setBanner] = useClearingState<TBanner>(BANNER_MS);
  const [closeWarning, setCloseWarning] = useState<TCloseWarning | null>(null);
  const [timeEntryWarning, setTimeEntryWarning] = useState<TTimeEntryWarning | null>(null);
  const [timerError, setTimerError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'requeue' | 'edit' | 'reject' | null>(null);
  const [eligiblePage, setEligiblePage] = useState(1);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  // A half-written note belongs to its ticket: it waits there while the technician works another one
  // (it used to follow them to the next ticket and was sent there).
  const [noteDrafts] = useState(() => new Map<string, TNoteDraft>());
  // Getting next tickets and requeueing are several calls each; a second press while one runs is ignored.
  const nextFlight = useSingleFlight();
  const requeueFlight = useSingleFlight();

  const working = useWorkingTickets(actor);
  const eligible = useEligibleTickets(actor, eligiblePage, listView === 'eligible');
  const next = useNextTickets(actor);
  const pick = useManualPick(actor);
  const timer = useTimerAction(actor);
  const addNote = useAddNote(actor);
  const complete = useCompleteTicket(actor);
  const requeue = useRequeueTicket(actor);
  const reject = useRejectTicket(actor);
  const confirmSession = useConfirmSession(actor);
  const toConfirm = useSessionsToConfirm(actor);

  const tickets = (working.data ?? []).filter((ticket) => !goneIds.has(ticket.id) && !ticket.completed && !ticket.closed);
  const foundIndex = tickets.findIndex((ticket) => ticket.id === activeId);
  const activeIndex = foundIndex === -1 ? 0 : foundIndex;
  const active: TQueueTicketView | null = tickets[activeIndex] ?? null;

  const sessions = useTicketSessions(actor, active?.ticketId ?? null);
  const notes = useTicketNotes(actor.mspCustomDomain, active?.ticketId ?? null);
  const isTimerActive = sessions.data?.isActive === true;

  useEffect(() => {
    // queue load failures are logged (and the screen says the list could not load).
    if (working.isError) console.error('currentWorking failed', working.error);
  }, [working.isError, working.error]);

  /**
   * An answer's time entry the PSA has not taken is said until dismissed (review s29, finding 1); an answer whose entry
   * landed, or that sent none, leaves an earlier warning in place, as it is still true.
   */
  function tellTimeEntry(ticketId: number, timeEntry: TPsaWriteState | null | undefined) {
    const warning = timeEntryWarningOf(ticketId, timeEntry);
    if (warning) setTimeEntryWarning(warning);
  }

  /** `wording`: whose failure texts a failure shows, when the button said something else. */
  async function runTimer(action: TTimerAction, ticketId: number, wording: TTimerAction = action): Promise<boolean> {
    setTimerError(null);
    try {
      const answer = await timer.mutateAsync({ action, ticketId });
      tellTimeEntry(ticketId, answer.timeEntry);
      return true;
    } catch (error) {
      setTimerError(timerErrorText(wording, error));
      return false;
    }
  }

  async function handleNext() {
    await nextFlight.run(async () => {
      setTimerError(null);
      try {
        const claimed = await next.mutateAsync();
        setListView('working');
        const first = claimed[0];
        if (!first) return; // the no-tickets state shows.
        setActiveId(first.id);
        // the first ticket becomes active and its timer starts (the server stops any other).
        await runTimer('start', first.ticketId);
      } catch (error) {
        console.error('nextTickets failed', error);
        notifications.show({ color: 'red', title: 'Could not get next tickets', message: errorDetail(error) });
      }
    });
  }

  async function handleSelect(index: number) {
    const target = tickets[index];
    // out-of-range indexes are ignored.
    if (!target || target.id === active?.id) return;
    setActiveId(target.id);
    // switching ticket restarts the timer for the new ticket (the server pauses the previous one).
    await runTimer('start', target.ticketId);
  }

  async function handlePauseResume() {
    if (!active) return;
    if (isTimerActive) {
      await runTimer('pause', active.ticketId);
      return;
    }
    // Resume goes through start, which runs a paused timer again and opens a new one when the last was
    // completed: a ticket marked incomplete has sessions but no open timer, and resume refused it with
    // "There is no timer on this ticket". A failure keeps the resume wording.
    const hasSessions = (sessions.data?.sessions.length ?? 0) > 0;
    await runTimer('start', active.ticketId, hasSessions ? 'resume' : 'start');
  }

  /** Completing closes the ticket in the PSA, so a click or the C key asks first. */
  function askComplete() {
    if (!active || complete.isPending) return;
    const ticket = active;
    // The list as the technician saw it: by the time the call returns, the refreshed list no longer has the ticket.
    const before = { tickets, activeIndex };
    modals.openConfirmModal({
      title: `Complete ticket #${ticket.ticketId}?`,
      children: <Text size="sm">The timer stops, the time entry goes to the PSA and the ticket is closed there.</Text>,
      labels: { confirm: 'Complete ticket', cancel: 'Cancel' },
      confirmProps: { color: 'green' },
      onConfirm: () => void handleComplete(ticket, before),
    });
  }

  async function handleComplete(ticket: TQueueTicketView, before: { tickets: TQueueTicketView[]; activeIndex: number }) {
    // R-319 is the server's: the completion completes an open timer on the ticket with the note
    // 'Ticket completed' and sends its time entry, in the same transaction. Completing the timer first from
    // here made a ticket without an open timer (marked incomplete, or a retry after a failed
    // completion) impossible to complete: A-117 answered "There is no timer on this ticket".
    setTimerError(null);
    let answer;
    try {
      answer = await complete.mutateAsync(ticket);
    } catch (error) {
      console.error('completeticket failed', error);
      notifications.show({ color: 'red', title: 'Ticket not completed', message: errorDetail(error) });
      return;
    }
    const nextState = afterComplete(before, ticket.id);
    noteDrafts.delete(ticket.id);
    setGoneIds((current) => new Set(current).add(ticket.id));
    setActiveId(nextState.tickets[nextState.activeIndex]?.id ?? null);
    // "Closed" only when the PSA has the close; otherwise the screen says plainly that it is not closed there yet.
    tellTimeEntry(ticket.ticketId, answer.timeEntry);
    const close = answer.close;
    if (close === null || close.status === 'done') {
      setCloseWarning(null);
      setBanner({ kind: 'closed', ticketId: ticket.ticketId, awaitsConfirmation: answer.awaitsConfirmation });
    } else {
      setBanner(null);
      setCloseWarning({ ticketId: ticket.ticketId, status: close.status, message: close.message });
    }
  }

  async function handleRequeue(choice: TRequeueChoice) {
    if (!active) {
      notifications.show({ color: 'red', title: MESSAGES.queue.noActiveTicketToRequeue, message: '' });
      return;
    }
    const ticket = active;
    const before = { tickets, activeIndex };
    // Busy from the pause on: the dialog's button showed loading only during the requeue call, so a second
    // click during the pause sent the requeue twice.
    await requeueFlight.run(async () => {
      // a running timer is paused first.
      if (isTimerActive) await runTimer('pause', ticket.ticketId);
      let awaitsConfirmation = false;
      try {
        const answer = await requeue.mutateAsync({ ticket, ...choice });
        awaitsConfirmation = answer.awaitsConfirmation;
        tellTimeEntry(ticket.ticketId, answer.timeEntry);
      } catch (error) {
        console.error('requeueticket failed', error);
        notifications.show({ color: 'red', title: 'Ticket not requeued', message: errorDetail(error) });
        return;
      }
      setDialog(null);
      const nextState = afterRequeue(before, ticket.id);
      setGoneIds((current) => new Set(current).add(ticket.id));
      setActiveId(nextState.tickets[nextState.activeIndex]?.id ?? null);
      setBanner({ kind: 'requeued', ticketId: ticket.ticketId, awaitsConfirmation });
    });
  }

  function handleEdit() {
    if (!active) return;
    // without a board the edit mode is abandoned.
    if (active.boardId === null) {
      notifications.show({ color: 'yellow', title: MESSAGES.queue.editNeedsBoard, message: '' });
      return;
    }
    setDialog('edit');
  }

  async function handlePick(ticket: TQueueTicketView) {
    try {
      const picked = await pick.mutateAsync(ticket);
      setListView('working');
      setActiveId(picked.id);
      await runTimer('start', picked.ticketId);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Ticket not picked', message: errorDetail(error) });
    }
  }

  async function handleAddNote(text: string, category: 'Description' | 'Internal' | 'Resolution') {
    if (!active) return;
    try {
      await addNote.mutateAsync({ ticketId: active.ticketId, text, category });
    } catch (error) {
      console.error('addNotesToTicket failed', error);
      throw new Error(errorDetail(error));
    }
  }

  /** A shortcut acts only from the ticket area with no dialog open (keys pressed in a dialog or in Jarvis are theirs). */
  function handleShortcut(event: KeyboardEvent, action: () => void) {
    if (isQueueShortcutAllowed(event, shortcutScope.current)) action();
  }
  useHotkeys([
    ['n', (event) => handleShortcut(event, () => void handleNext())],
    ['p', (event) => handleShortcut(event, () => void handlePauseResume())],
    ['w', (event) => handleShortcut(event, () => noteRef.current?.focus())],
    ['c', (event) => handleShortcut(event, askComplete)],
    ['[', (event) => handleShortcut(event, () => void handleSelect(activeIndex - 1))],
    [']', (event) => handleShortcut(event, () => void handleSelect(activeIndex + 1))],
  ]);

  const bannerView =
    banner === null ? null : (
      <Alert color={banner.kind === 'closed' ? 'green' : 'blue'} role="status" title={banner.kind === 'closed' ? MESSAGES.queue.closed : MESSAGES.queue.requeued}>
        Ticket #{banner.ticketId} {banner.kind === 'closed' ? 'was completed and closed.' : 'is back in the queue.'}
        {banner.awaitsConfirmation ? ' Its time waits for your confirmation under “Time to confirm”.' : ''}
      </Alert>
    );

  const closeWarningView =
    closeWarning === null ? null : (
      <Alert color={closeWarning.status === 'failed' ? 'red' : 'yellow'} role="alert" title={`Ticket #${closeWarning.ticketId} is completed but not closed in the PSA`} withCloseButton closeButtonLabel="Dismiss" onClose={() => setCloseWarning(null)}>
        {closeWarning.status === 'pending'
          ? 'The PSA has not taken the close yet. Switchboard keeps trying until it lands; the ticket shows as pending in the PSA meanwhile.'
          : 'The PSA refused to close it. Close it in the PSA, or ask an admin to send it again from “Changes waiting for the PSA”.'}
        {closeWarning.message !== null && closeWarning.message !== '' ? ` (${closeWarning.message})` : ''}
      </Alert>
    );

  const timeToConfirm = (
    <TimeToConfirm
      sessions={toConfirm.data ?? []}
      confirmingId={confirmSession.isPending ? confirmSession.variables.sessionId : null}
      onConfirm={(session) =>
        confirmSession.mutate(
          { sessionId: session.id, ticketId: session.ticketId },
          {
            onSuccess: (answer) => tellTimeEntry(session.ticketId, answer.timeEntry),
            onError: (error) => notifications.show({ color: 'red', title: 'Session not confirmed', message: errorDetail(error) }),
          },
        )
      }
    />
  );

  const switcher = tickets.length === 0 ? null : <MyTicketsSwitcher tickets={tickets} activeIndex={activeIndex} isMobile={isMobile} onSelect={(index) => void handleSelect(index)} />;

  const toolbar = (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <SegmentedControl
        aria-label="My Ticket view"
        value={listView}
        onChange={setListView}
        data={[
          { value: 'working', label: 'Working tickets' },
          { value: 'eligible', label: 'Eligible tickets' },
        ]}
      />
      <Button onClick={() => void handleNext()} loading={nextFlight.isRunning}>
        Get next tickets
      </Button>
    </Group>
  );

  let body;
  if (listView === 'eligible') {
    body = (
      <EligibleTicketsPanel
        eligible={eligible}
        page={eligiblePage}
        onPageChange={setEligiblePage}
        view={isNarrow ? 'cards' : 'rows'}
        pickingId={pick.isPending ? pick.variables.id : null}
        onPick={(ticket) => void handlePick(ticket)}
      />
    );
  } else if (working.isPending) {
    body = <Loader aria-label="Loading your tickets" />;
  } else if (working.isError) {
    body = <Alert color="red">{errorDetail(working.error)}</Alert>;
  } else if (active === null) {
    body = (
      <Paper withBorder p="xl" ta="center">
        <Stack align="center" gap="sm">
          <Title order={2} size="h4">
            No tickets
          </Title>
          <Text c="dimmed">You have no tickets in progress. Get the next ones from the queue.</Text>
          <Button onClick={() => void handleNext()} loading={nextFlight.isRunning}>
            Get next tickets
          </Button>
        </Stack>
      </Paper>
    );
  } else {
    const workspace = (
      <TicketWorkspace
        ticket={active}
        sessions={sessions.data?.sessions ?? []}
        totalWorkMinutes={sessions.data?.totalWorkMinutes ?? 0}
        clockOffsetMs={sessions.data?.clockOffsetMs ?? 0}
        isTimerActive={isTimerActive}
        isTimerBusy={timer.isPending}
        timerError={timerError}
        notes={notes.data ?? []}
        isNotesLoading={notes.isPending}
        notesError={notes.isError ? errorDetail(notes.error) : null}
        isCompleting={complete.isPending}
        isStacked={isNarrow}
        noteRef={noteRef}
        noteDraft={noteDrafts.get(active.id)}
        onNoteDraftChange={(ticketId, draft) => noteDrafts.set(ticketId, draft)}
        onPauseResume={() => void handlePauseResume()}
        onComplete={askComplete}
        onReject={() => setDialog('reject')}
        onConfirmSession={(sessionId) =>
          confirmSession.mutate(
            { sessionId, ticketId: active.ticketId },
            {
              onSuccess: (answer) => tellTimeEntry(active.ticketId, answer.timeEntry),
              onError: (error) => notifications.show({ color: 'red', title: 'Session not confirmed', message: errorDetail(error) }),
            },
          )
        }
        onRequeue={() => setDialog('requeue')}
        onEdit={handleEdit}
        onAddNote={handleAddNote}
        assist={<TicketAssist key={active.id} ticket={active} mspCustomDomain={actor.mspCustomDomain} />}
      />
    );
    body = isMobile ? (
      <Stack gap="md">
        {switcher}
        {workspace}
      </Stack>
    ) : (
      <Group align="flex-start" gap="md" wrap="nowrap">
        <div style={{ width: 300, flexShrink: 0 }}>{switcher}</div>
        <div style={{ flex: 1, minWidth: 0 }}>{workspace}</div>
      </Group>
    );
  }

  return (
    <Stack gap="md">
      {toolbar}
      {bannerView}
      {closeWarningView}
      {timeEntryWarning === null ? null : <TimeEntryAlert warning={timeEntryWarning} onDismiss={() => setTimeEntryWarning(null)} />}
      {timeToConfirm}
      {body}
      {dialog === 'reject' && active !== null && (
        <RejectModal
          ticket={active}
          isSaving={reject.isPending}
          onClose={() => setDialog(null)}
          onConfirm={(reason) => {
            const ticket = active;
            reject.mutate(
              { ticket, reason },
              {
                onSuccess: (answer) => {
                  setDialog(null);
                  const nextState = afterRequeue({ tickets, activeIndex }, ticket.id);
                  setGoneIds((current) => new Set(current).add(ticket.id));
                  setActiveId(nextState.tickets[nextState.activeIndex]?.id ?? null);
                  tellTimeEntry(ticket.ticketId, answer.timeEntry);
                  const confirmNote = answer.awaitsConfirmation ? ' Its time waits for your confirmation under “Time to confirm”.' : '';
                  notifications.show({ color: 'blue', title: 'Ticket handed back', message: `Ticket #${ticket.ticketId} is back in the queue.${confirmNote}` });
                },
                onError: (error) => notifications.show({ color: 'red', title: 'Ticket not handed back', message: errorDetail(error) }),
              },
            );
          }}
        />
      )}
      {dialog === 'requeue' && active !== null && <RequeueModal ticket={active} isSaving={requeueFlight.isRunning} onConfirm={(choice) => void handleRequeue(choice)} onClose={() => setDialog(null)} />}
      {dialog === 'edit' && active !== null && active.boardId !== null && (
        <EditActiveTicket actor={actor} ticket={active} boardId={active.boardId} configuration={configuration} isConfigurationLoading={isConfigurationLoading} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
