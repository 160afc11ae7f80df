import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { contrastRatio, resolveColour } from '../../../test/contrast';
import { sessionKeys } from '../../session/api/session-queries';
import { LOCKOUT_ARTICLE, MSP, MSP_TODAY, TECH_ID, queueTicket, startFakeQueueServer } from '../test/fake-queue-server';
import { QueueArea } from './queue-area';

const technician = buildAdminTechnician({ id: TECH_ID, mspCustomDomain: MSP, psaMemberId: '7' });

afterEach(() => vi.unstubAllGlobals());

/** Waits for the no-tickets state, presses "Get next tickets" and waits for the first ticket's running timer. */
async function getNextTickets() {
  await screen.findByRole('heading', { name: 'No tickets' });
  await userEvent.click(screen.getAllByRole('button', { name: 'Get next tickets' })[0] as HTMLElement);
  await screen.findByRole('heading', { level: 2, name: /^#1001 / });
  await screen.findByRole('button', { name: 'Pause' });
}

describe('QueueArea — My Ticket', () => {
  it('shows the no-tickets state, then next claims tickets, activates the first and starts its timer from the server', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2), queueTicket(3)] });
    renderWithProviders(<QueueArea user={technician} />);
    expect(await screen.findByRole('heading', { name: 'No tickets' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'My Ticket' })).toBeChecked();

    await userEvent.click(screen.getAllByRole('button', { name: 'Get next tickets' })[0] as HTMLElement);
    expect(await screen.findByRole('heading', { level: 2, name: '#1001 Printer 1 is offline' })).toBeInTheDocument();
    const list = screen.getByRole('navigation', { name: 'My tickets' });
    expect(within(list).getAllByRole('button', { name: /^#100\d/ })).toHaveLength(3);
    expect(within(list).getByRole('button', { name: /#1001/ })).toHaveAttribute('aria-current', 'true');

    const next = server.callsTo('/db/api/ticketQueue/nextTickets')[0];
    expect(next?.query.get('limit')).toBe('5');
    expect(next?.query.get('techId')).toBe(TECH_ID);
    await waitFor(() => expect(server.callsTo(`/db/api/ticketActivities/${MSP}/start`)).toHaveLength(1));
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/start`)[0]?.body).toEqual({ ticketId: 1001, techId: TECH_ID });
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Work sessions' })).getByText('Running')).toBeInTheDocument();
  });

  it('previous and next stay within the list, and switching restarts the timer on the new ticket', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next in list' }));
    expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next in list' })).toBeDisabled();
    await waitFor(() => expect(server.callsTo(`/db/api/ticketActivities/${MSP}/start`).map((call) => (call.body as { ticketId: number }).ticketId)).toEqual([1001, 1002]));
  });

  it('sends a Resolution note with its flag and the technician label, and puts the text back when sending fails', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    const form = screen.getByRole('form', { name: 'Add a note to ticket #1001' });
    await userEvent.click(within(form).getByRole('radio', { name: 'Resolution' }));
    const field = within(form).getByRole('textbox', { name: 'New note' });
    // a blank note is not sent.
    await userEvent.type(field, '   ');
    expect(within(form).getByRole('button', { name: 'Add Resolution note' })).toBeDisabled();

    await userEvent.clear(field);
    await userEvent.type(field, 'Replaced the toner.');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.failNext('/psa/addNotesToTicket', { status: 503, detail: 'The PSA is not answering right now.' });
    await userEvent.click(within(form).getByRole('button', { name: 'Add Resolution note' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The PSA is not answering right now.');
    expect(field).toHaveValue('Replaced the toner.');

    await userEvent.click(within(form).getByRole('button', { name: 'Add Resolution note' }));
    const notes = await screen.findByRole('list', { name: 'Ticket notes' });
    expect(within(notes).getByText('Replaced the toner.')).toBeInTheDocument();
    expect(within(notes).getByText('Resolution')).toBeInTheDocument();
    expect(within(notes).getByText('Pending in the PSA')).toBeInTheDocument();
    expect(field).toHaveValue('');
    const sent = server.callsTo('/psa/addNotesToTicket').at(-1);
    expect(sent?.query.get('resolutionFlag')).toBe('true');
    expect(sent?.query.get('ticketId')).toBe('1001');
    // R-315's label is the server's (the PSA member's id): the screen sent its Switchboard user id, and PSA notes read "Technician: (uuid): ".
    expect(sent?.body).toEqual({ info: '', text: 'Replaced the toner.' });
  });

  it('completes: the completion also completes the running timer (R-319, on the server), the PSA close is sent, the closed banner shows for 3 s and the neighbour is selected', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));

    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(MESSAGES.queue.closed);
    expect(banner).toHaveTextContent('#1001');
    expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
    // One call completes the ticket and its open timer; a separate timer completion first could strand the ticket.
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/complete`)).toHaveLength(0);
    expect(server.callsTo('/db/api/ticketQueue/completeticket')[0]?.query.get('ticketId')).toBe('1001');
    expect(server.sessionsOf(1001).every((session) => session.endTime !== null)).toBe(true);
    // The PSA close goes with the completion (close=true, decision 043), kept in the server's outbox: no second call to lose.
    expect(server.callsTo('/db/api/ticketQueue/completeticket')[0]?.query.get('close')).toBe('true');
    expect(server.callsTo('/psa/closeTicket')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument(), { timeout: 4000 });
  });

  // Regression (review): the close was a second call whose failure was swallowed; the screen said "was completed and
  // closed" while the ticket stayed open in the PSA with nothing to retry it.
  it('a close the PSA has not taken is said plainly: completed but not closed in the PSA, never the closed banner', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    server.failNext('/psa/closeTicket', { status: 502, detail: 'The PSA did not answer.' });
    server.setCloseState({ status: 'pending', message: 'The PSA did not answer.', nextAttemptAt: null });
    await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('Ticket #1001 is completed but not closed in the PSA');
    expect(warning).toHaveTextContent('keeps trying until it lands');
    expect(warning).toHaveTextContent('The PSA did not answer.');
    expect(screen.queryByText('was completed and closed.', { exact: false })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No tickets' })).toBeInTheDocument();
    // Still said after the list refreshed; dismissed by the technician.
    await userEvent.click(within(warning).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  // Regression (review): a session past midnight was flagged when the ticket was completed, and its time entry waited for
  // a Confirm that only the active ticket's session history offered: the completed ticket was gone, the time never billed.
  it('after completing a ticket whose session ran past midnight, its time is listed to confirm and Confirm sends it', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    server.flagNextCompletion();
    await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Its time waits for your confirmation under “Time to confirm”.');
    expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
    const panel = await screen.findByRole('list', { name: 'Sessions to confirm' });
    expect(within(panel).getByText('#1001 Printer 1 is offline')).toBeInTheDocument();
    expect(within(panel).getByText('Ran past midnight')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: /^Confirm the session on ticket #1001/ }));
    await waitFor(() => expect(server.callsTo(`/db/api/ticketActivities/${MSP}/confirm`)).toHaveLength(1));
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/confirm`)[0]?.body).toEqual({ sessionId: server.sessionsOf(1001)[0]?.id, techId: TECH_ID });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Sessions to confirm' })).not.toBeInTheDocument());
  });

  it('requeues with hold hours, the assigned flag and a new tier, and shows the requeued banner', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    await userEvent.click(screen.getByRole('button', { name: 'Requeue' }));
    const dialog = await screen.findByRole('form', { name: 'Requeue ticket' });
    const hold = within(dialog).getByLabelText('Hold for (hours)');
    await userEvent.clear(hold);
    await userEvent.type(hold, '4');
    await userEvent.click(within(dialog).getByLabelText('Keep it assigned to me'));
    await userEvent.selectOptions(within(dialog).getByLabelText('Tier'), 'No Dispatching');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Requeue' }));

    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.queue.requeued);
    expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
    // the running timer was paused first.
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/pause`)).toHaveLength(1);
    const requeue = server.callsTo('/db/api/ticketQueue/requeueticket')[0];
    expect(requeue?.query.get('holdTimeInHours')).toBe('4');
    expect(requeue?.query.get('assignedFlag')).toBe('true');
    expect(requeue?.query.get('newTier')).toBe('NoTier');
  });

  it('shows the server\'s timer error, and the spec\'s network wording when no answer comes', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    server.failNext(`/db/api/ticketActivities/${MSP}/start`, { status: 409, detail: 'The timer on this ticket is already running.' });
    await userEvent.click(screen.getByRole('button', { name: 'Start timer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The timer on this ticket is already running.');
    server.failNext(`/db/api/ticketActivities/${MSP}/start`, 'network');
    await userEvent.click(screen.getByRole('button', { name: 'Start timer' }));
    expect(await screen.findByText(MESSAGES.queue.timer.startNetwork)).toBeInTheDocument();
  });

  it('edits a ticket: the board\'s types, subtypes, priorities and statuses are offered, and the save sends A-112', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working', categoryId: null, categoryName: null, subCategoryId: null, subCategoryName: null })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await userEvent.click(screen.getByRole('button', { name: 'Edit ticket' }));
    const form = await screen.findByRole('form', { name: 'Edit ticket' });
    await waitFor(() => expect(within(form).getByLabelText('Status')).toHaveTextContent('In Progress'));
    await userEvent.selectOptions(within(form).getByLabelText('Type'), 'Hardware');
    await userEvent.selectOptions(within(form).getByLabelText('Subtype'), 'Printer');
    // 02 §4: the subtype fills priority and tier from the board configuration.
    expect(within(form).getByLabelText('Priority')).toHaveDisplayValue('Priority 2 - High');
    await userEvent.selectOptions(within(form).getByLabelText('Status'), 'In Progress');
    await userEvent.click(within(form).getByRole('button', { name: 'Save ticket' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit ticket' })).not.toBeInTheDocument());
    const saved = server.callsTo('/psa/updateTicket/1001')[0];
    expect(saved?.method).toBe('PUT');
    // Only what changed: the priority and tier the subtype filled are the ticket's already.
    expect(saved?.body).toEqual({ categoryId: 11, categoryName: 'Hardware', subCategoryId: 21, subCategoryName: 'Printer', statusId: 6, status: 'In Progress' });
  });

  // Regression: the help box's answer once vanished after showing. Its queries sat under the queue's
  // key, so every queue-wide refresh (an edit, a next, a completion) asked the assistant again and
  // replaced the answer the technician was reading with a new one, or with an error.
  it('keeps the answer to a question asked in the help box when the queue refreshes', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    const help = screen.getByRole('region', { name: 'Troubleshooting' });
    expect(await within(help).findByText(/^Answer 1 to: Printer 1 is offline/)).toBeInTheDocument();

    await userEvent.type(within(help).getByRole('textbox', { name: 'Ask about this ticket' }), 'toner smudges');
    await userEvent.click(within(help).getByRole('button', { name: 'Search' }));
    expect(await within(help).findByText('Answer 2 to: toner smudges')).toBeInTheDocument();
    expect(within(help).getByText('Showing results for “toner smudges”.')).toBeInTheDocument();

    // A queue-wide refresh: saving the ticket reloads the technician's tickets.
    const workingReads = server.callsTo('/db/api/ticketQueue/currentWorking').length;
    await userEvent.click(screen.getByRole('button', { name: 'Edit ticket' }));
    const form = await screen.findByRole('form', { name: 'Edit ticket' });
    await waitFor(() => expect(within(form).getByLabelText('Status')).toHaveTextContent('In Progress'));
    await userEvent.selectOptions(within(form).getByLabelText('Status'), 'In Progress');
    await userEvent.click(within(form).getByRole('button', { name: 'Save ticket' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit ticket' })).not.toBeInTheDocument());
    await waitFor(() => expect(server.callsTo('/db/api/ticketQueue/currentWorking').length).toBeGreaterThan(workingReads));

    expect(within(help).getByText('Answer 2 to: toner smudges')).toBeInTheDocument();
    expect(within(help).getByText('Showing results for “toner smudges”.')).toBeInTheDocument();
    expect(server.callsTo('/gpt/jarvisQandA').map((call) => (call.body as { text: string }).text)).toEqual([expect.stringMatching(/^Printer 1 is offline/), 'toner smudges']);
  });

  it('links the articles the troubleshooting answer cites, each once, and opens one to read', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    const help = await screen.findByRole('region', { name: 'Troubleshooting' });
    const cited = await within(help).findByRole('list', { name: 'Articles cited' });
    expect(within(cited).getAllByRole('button').map((button) => button.textContent)).toEqual([LOCKOUT_ARTICLE.title]);
    await userEvent.click(within(cited).getByRole('button', { name: LOCKOUT_ARTICLE.title }));
    const reader = await screen.findByRole('dialog', { name: LOCKOUT_ARTICLE.title });
    expect(await within(reader).findByText('Filter the Security log for Event ID 4740.')).toBeInTheDocument();
  });

  it('does not open the editor for a ticket without a board (R-330)', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working', boardId: null, boardName: null })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await userEvent.click(screen.getByRole('button', { name: 'Edit ticket' }));
    expect(await screen.findByText(MESSAGES.queue.editNeedsBoard)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit ticket' })).not.toBeInTheDocument();
    expect(server.callsTo('/psa/getConnectWiseStatuses')).toHaveLength(0);
  });
});

describe('QueueArea — Dashboards', () => {
  it('shows the day\'s minutes, completions and SLA for me and, for a manager, for everyone', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer();
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Dashboards' }));
    const mine = await screen.findByRole('region', { name: 'My day' });
    expect(await within(mine).findByRole('group', { name: 'Minutes worked' })).toHaveTextContent('95');
    expect(within(mine).getByRole('group', { name: 'Tickets completed' })).toHaveTextContent('3');
    expect(within(mine).getByRole('group', { name: 'SLA met' })).toHaveTextContent('67 %');
    expect(within(mine).getByRole('table', { name: 'Tickets worked' })).toHaveTextContent('Completed, SLA missed');
    const everyone = await screen.findByRole('region', { name: 'Everyone in the MSP' });
    expect(await within(everyone).findByRole('rowheader', { name: 'Tomasz Nowak' })).toBeInTheDocument();
    expect(server.callsTo('/db/api/ticketQueue/activities/tech')[0]?.query.get('techId')).toBe(TECH_ID);
    // Today is the MSP's today, in its time zone: the server's answer fills the day.
    expect(server.callsTo('/db/api/ticketQueue/activities/tech')[0]?.query.has('date')).toBe(false);
    const day = screen.getByLabelText('Day');
    expect(day).toHaveValue(MSP_TODAY);
    expect(screen.getByText('Midnight to midnight, America/New York time')).toBeInTheDocument();
    fireEvent.change(day, { target: { value: '2026-11-02' } });
    await waitFor(() => expect(server.callsTo('/db/api/ticketQueue/activities/tech').map((call) => call.query.get('date'))).toContain('2026-11-02'));
    expect(screen.getByLabelText('Day')).toHaveValue('2026-11-02');
  });

  it('a technician without management rights sees only their own day', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer();
    renderWithProviders(<QueueArea user={{ ...technician, permissions: { ...technician.permissions, technicianUserManagement: false, adminPortal: false } }} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Dashboards' }));
    await screen.findByRole('region', { name: 'My day' });
    expect(screen.queryByRole('region', { name: 'Everyone in the MSP' })).not.toBeInTheDocument();
    expect(server.callsTo('/db/api/ticketQueue/activities')).toHaveLength(0);
  });
});

describe('QueueArea — keyboard shortcuts', () => {
  it('the help lists the shortcuts; N gets next tickets, ] and [ move within the list, P pauses, W focuses the note and C asks before completing', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { name: 'No tickets' });
    // The help first: opened right after the completion dialog below closed, it was sometimes closed again by
    // that dialog's exit (its transition ending after the click on a loaded machine), and the test failed.
    await userEvent.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    const help = await screen.findByRole('list', { name: 'Keyboard shortcuts list' });
    for (const label of ['Get next tickets', 'Pause or resume the timer', 'Write a note', 'Complete the ticket']) expect(within(help).getByText(label)).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Keyboard shortcuts list' })).not.toBeInTheDocument());
    await userEvent.keyboard('n');
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await screen.findByRole('button', { name: 'Pause' });
    expect(server.callsTo('/db/api/ticketQueue/nextTickets')).toHaveLength(1);
    await userEvent.keyboard(']');
    expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
    await userEvent.keyboard('[[');
    expect(await screen.findByRole('heading', { level: 2, name: /^#1001 / })).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Pause' });
    await userEvent.keyboard('p');
    await waitFor(() => expect(server.callsTo(`/db/api/ticketActivities/${MSP}/pause`)).toHaveLength(1));
    await userEvent.keyboard('w');
    expect(screen.getByRole('textbox', { name: 'New note' })).toHaveFocus();
    // Typing in the note does not trigger shortcuts.
    await userEvent.keyboard('c');
    expect(screen.queryByRole('dialog', { name: /^Complete ticket/ })).not.toBeInTheDocument();
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard('c');
    expect(await screen.findByRole('dialog', { name: 'Complete ticket #1001?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Complete ticket #1001?' })).not.toBeInTheDocument());
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/complete`)).toHaveLength(0);
  });
});

describe('QueueArea — below 1600 px (R-042)', () => {
  it('switches tickets with a compact picker and previous/next instead of the side list', { timeout: 20_000 }, async () => {
    const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    const narrow = (query: string) => ({
      matches: query.includes('1599'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    });
    Object.defineProperty(window, 'matchMedia', { writable: true, value: narrow });
    try {
      startFakeQueueServer({ working: [queueTicket(1, { state: 'working' }), queueTicket(2, { state: 'claimed' })] });
      renderWithProviders(<QueueArea user={technician} />);
      await screen.findByRole('heading', { level: 2, name: /^#1001 / });
      expect(screen.queryByRole('navigation', { name: 'My tickets' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Previous ticket' })).toBeDisabled();
      // The picker and the note box each have their own plain name (the picker was just "Ticket").
      const picker = screen.getByRole('combobox', { name: 'Active ticket' });
      expect(screen.getByRole('textbox', { name: 'New note' })).toBeInTheDocument();
      expect(screen.getAllByLabelText(/ticket/i).filter((field) => field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement)).toEqual([picker]);
      await userEvent.selectOptions(picker, '#1002 Printer 2 is offline');
      expect(await screen.findByRole('heading', { level: 2, name: /^#1002 / })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Next ticket in the list' })).toBeDisabled();
    } finally {
      if (original) Object.defineProperty(window, 'matchMedia', original);
    }
  });
});

describe('QueueArea — in a narrow area of a wide window (Jarvis open beside it)', () => {
  it('follows the width it has, not the window: compact picker, stacked toolbar (the ticket was squeezed into a one-letter column under the timer)', { timeout: 20_000 }, async () => {
    // The window is wide (every media query false); the area measures 350 px.
    class NarrowAreaObserver {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        const entry = { target, borderBoxSize: [{ inlineSize: 350, blockSize: 600 }], contentBoxSize: [{ inlineSize: 350, blockSize: 600 }], contentRect: { x: 0, y: 0, top: 0, left: 0, bottom: 600, right: 350, width: 350, height: 600 } };
        this.callback([entry as unknown as ResizeObserverEntry], this);
      }
      unobserve() {}
      disconnect() {}
    }
    vi.stubGlobal('ResizeObserver', NarrowAreaObserver);
    startFakeQueueServer({ working: [queueTicket(1, { state: 'working' }), queueTicket(2, { state: 'claimed' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'My tickets' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Previous ticket' })).toBeDisabled();
    expect(screen.getByRole('radiogroup', { name: 'Ticket area mode' })).toHaveAttribute('data-orientation', 'vertical');
  });
});

describe('QueueArea — All Tickets', () => {
  it('lists 30 a page, a filter resets to page 1, rows expand, and a search switches to All Tickets', { timeout: 20_000 }, async () => {
    const tickets = Array.from({ length: 45 }, (_, index) => queueTicket(index + 1, { boardId: index % 2 === 0 ? 1 : 2, boardName: index % 2 === 0 ? 'Service Desk' : 'Projects' }));
    const server = startFakeQueueServer({ queued: tickets });
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('45 tickets')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'All tickets' })).getAllByRole('listitem')).toHaveLength(30);

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(server.callsTo('/db/api/ticketQueue/getAll').at(-1)?.query.get('page')).toBe('2'));
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const filters = await screen.findByRole('group', { name: 'Ticket filters' });
    expect(within(filters).getByLabelText('Board')).toHaveDisplayValue('All Boards');
    expect(within(filters).getByLabelText('Priority')).toHaveDisplayValue('All Priorities');
    await userEvent.selectOptions(within(filters).getByLabelText('Board'), 'Service Desk');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Ticket filters' })).not.toBeInTheDocument());
    const filtered = server.callsTo('/db/api/ticketQueue/getAll').at(-1);
    expect(filtered?.query.get('boardId')).toBe('1');
    expect(filtered?.query.get('page')).toBe('1');
    expect(filtered?.query.get('sort')).toBe('newest');
    expect(await screen.findByText('23 tickets')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Rows' }));
    const table = screen.getByRole('table', { name: 'All tickets' });
    const toggle = within(table).getAllByRole('button', { name: /^Show details of ticket/ })[0] as HTMLElement;
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(table).getByText(/shows offline\./)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'My Ticket' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search tickets' }), 'Printer 7 ');
    await waitFor(() => expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked());
    await waitFor(() => expect(server.callsTo('/db/api/ticketQueue/getAll').at(-1)?.query.get('search')).toBe('Printer 7'));
  });

  it('marks a completed ticket incomplete (decisions #18: persisted)', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1)], completed: [queueTicket(2, { completed: true, state: 'completed', completedAt: '2026-11-20T10:00:00Z' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('1 ticket')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Include completed' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark ticket #1002 incomplete' }));
    expect(await screen.findByText('Marked incomplete')).toBeInTheDocument();
    const call = server.callsTo('/db/api/ticketQueue/markIncomplete')[0];
    expect(call?.method).toBe('POST');
    expect(call?.query.get('ticketId')).toBe('1002');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark ticket #1002 incomplete' })).not.toBeInTheDocument());
  });

  it('going full screen and back keeps a half-written note and the focus on its button (the area was remounted: the note was lost, the focus fell to the page behind)', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    const form = screen.getByRole('form', { name: 'Add a note to ticket #1001' });
    await userEvent.type(within(form).getByRole('textbox'), 'half-written note about the call');
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    const full = screen.getByRole('dialog', { name: 'Tickets, full screen' });
    await waitFor(() => expect(within(full).getByRole('button', { name: 'Exit full screen' })).toHaveFocus());
    expect(within(within(full).getByRole('form', { name: 'Add a note to ticket #1001' })).getByRole('textbox')).toHaveValue('half-written note about the call');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Tickets, full screen' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Full screen' })).toHaveFocus();
    expect(within(screen.getByRole('form', { name: 'Add a note to ticket #1001' })).getByRole('textbox')).toHaveValue('half-written note about the call');
  });

  it('full screen turns card view off', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ queued: [queueTicket(1)] });
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByRole('list', { name: 'All tickets' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    const full = screen.getByRole('dialog', { name: 'Tickets, full screen' });
    expect(await within(full).findByRole('table', { name: 'All tickets' })).toBeInTheDocument();
    await userEvent.click(within(full).getByRole('button', { name: 'Exit full screen' }));
    expect(await screen.findByRole('list', { name: 'All tickets' })).toBeInTheDocument();
  });
});

/** Completes the active ticket #1001, then marks it incomplete in All Tickets and comes back to My Ticket with it. */
async function completeThenMarkIncomplete() {
  await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));
  expect(await screen.findByRole('heading', { name: 'No tickets' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
  await userEvent.click(screen.getByRole('radio', { name: 'Include completed' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Mark ticket #1001 incomplete' }));
  expect(await screen.findByText('Marked incomplete')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('radio', { name: 'My Ticket' }));
  await screen.findByRole('heading', { level: 2, name: /^#1001 / });
}

/** The z-index Mantine gives a modal dialog (on its root, as a CSS variable). */
function modalZIndex(dialog: HTMLElement): number {
  for (let node: HTMLElement | null = dialog; node !== null; node = node.parentElement) {
    const value = node.style.getPropertyValue('--mb-z-index');
    if (value !== '') return Number(value);
  }
  throw new Error('not in a Mantine modal');
}

describe('QueueArea — fixed bugs', () => {
  it('completes a ticket marked incomplete, whose timer was completed (Complete answered "There is no timer on this ticket" and stopped)', { timeout: 30_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1)] });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    await completeThenMarkIncomplete();
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.queue.closed);
    expect(await screen.findByRole('heading', { name: 'No tickets' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.queue.timer.noTimer)).not.toBeInTheDocument();
    expect(server.callsTo('/db/api/ticketQueue/completeticket')).toHaveLength(2);
  });

  it('resumes the timer of a ticket marked incomplete (Resume answered "There is no timer on this ticket")', { timeout: 30_000 }, async () => {
    startFakeQueueServer({ queued: [queueTicket(1)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    await completeThenMarkIncomplete();
    await userEvent.click(await screen.findByRole('button', { name: 'Resume' }));
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Work sessions' })).getByText('Running')).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.queue.timer.noTimer)).not.toBeInTheDocument();
  });

  it('in full screen the dialogs open above it, and Escape closes a dialog without leaving full screen (they opened hidden behind it; Escape left both)', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    const full = screen.getByRole('dialog', { name: 'Tickets, full screen' });
    const fullZIndex = Number(full.style.zIndex);

    await userEvent.click(within(full).getByRole('button', { name: 'Requeue' }));
    const requeue = await screen.findByRole('dialog', { name: 'Requeue ticket #1001' });
    expect(modalZIndex(requeue)).toBeGreaterThan(fullZIndex);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Requeue ticket #1001' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Tickets, full screen' })).toBeInTheDocument();

    await userEvent.click(within(full).getByRole('button', { name: 'Complete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Complete ticket #1001?' });
    expect(modalZIndex(confirm)).toBeGreaterThan(fullZIndex);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Complete ticket #1001?' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Tickets, full screen' })).toBeInTheDocument();
  });

  it('keeps a half-written note with its ticket: the next ticket\'s note box is empty and the note is there again on return (it followed the technician and was sent to the other ticket)', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' }), queueTicket(2, { state: 'claimed' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    const first = screen.getByRole('form', { name: 'Add a note to ticket #1001' });
    await userEvent.click(within(first).getByRole('radio', { name: 'Resolution' }));
    await userEvent.type(within(first).getByRole('textbox', { name: 'New note' }), 'Toner replaced, waiting for the test page');

    await userEvent.click(screen.getByRole('button', { name: 'Next in list' }));
    await screen.findByRole('heading', { level: 2, name: /^#1002 / });
    const second = screen.getByRole('form', { name: 'Add a note to ticket #1002' });
    expect(within(second).getByRole('textbox', { name: 'New note' })).toHaveValue('');
    expect(within(second).getByRole('button', { name: 'Add Internal note' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    const again = screen.getByRole('form', { name: 'Add a note to ticket #1001' });
    expect(within(again).getByRole('textbox', { name: 'New note' })).toHaveValue('Toner replaced, waiting for the test page');
    await userEvent.click(within(again).getByRole('button', { name: 'Add Resolution note' }));
    await waitFor(() => expect(server.callsTo('/psa/addNotesToTicket')).toHaveLength(1));
    expect(server.callsTo('/psa/addNotesToTicket')[0]?.query.get('ticketId')).toBe('1001');
  });

  it('sends a requeue once when Requeue is pressed again during the pause that runs first (the button was not busy yet)', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    await userEvent.click(screen.getByRole('button', { name: 'Requeue' }));
    const dialog = await screen.findByRole('form', { name: 'Requeue ticket' });
    const release = server.holdNext(`/db/api/ticketActivities/${MSP}/pause`);
    const submit = within(dialog).getByRole('button', { name: 'Requeue' });
    await userEvent.click(submit);
    await userEvent.click(submit);
    expect(submit).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.queue.requeued);
    expect(server.callsTo('/db/api/ticketQueue/requeueticket')).toHaveLength(1);
    expect(screen.queryByText('Ticket not requeued')).not.toBeInTheDocument();
  });

  it('edit: Save waits for the statuses, a failed status list is said in words, and only what changed is sent (the status was blanked)', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    const releaseStatuses = server.holdNext('/psa/getConnectWiseStatuses');
    server.failNext('/psa/getConnectWiseStatuses', { status: 502, detail: 'The PSA did not answer.' });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await userEvent.click(screen.getByRole('button', { name: 'Edit ticket' }));
    const form = await screen.findByRole('form', { name: 'Edit ticket' });
    expect(within(form).getByRole('button', { name: 'Save ticket' })).toBeDisabled();

    releaseStatuses();
    expect(await within(form).findByText(/statuses of this ticket's board could not be loaded/)).toBeInTheDocument();
    expect(within(form).getByLabelText('Status')).toBeDisabled();
    expect(within(form).getByLabelText('Status')).toHaveDisplayValue('New');
    await userEvent.click(within(form).getByRole('button', { name: 'Save ticket' }));
    expect(await within(form).findByText(MESSAGES.queue.nothingToUpdate)).toBeInTheDocument();
    expect(server.callsTo('/psa/updateTicket/1001')).toHaveLength(0);

    const title = within(form).getByLabelText(/^Title/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Printer 1 is offline again');
    await userEvent.click(within(form).getByRole('button', { name: 'Save ticket' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit ticket' })).not.toBeInTheDocument());
    expect(server.callsTo('/psa/updateTicket/1001')[0]?.body).toEqual({ title: 'Printer 1 is offline again' });
  });

  it('All Tickets comes back with the same list and page ("No tickets match." showed beside "75 tickets": the page stayed, the list reset)', { timeout: 30_000 }, async () => {
    const done = Array.from({ length: 30 }, (_, index) => queueTicket(101 + index, { completed: true, state: 'completed', completedAt: '2026-11-20T10:00:00Z' }));
    startFakeQueueServer({ queued: Array.from({ length: 45 }, (_, index) => queueTicket(index + 1)), completed: done });
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('45 tickets')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Include completed' }));
    expect(await screen.findByText('75 tickets')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'All tickets' })).getAllByRole('listitem')).toHaveLength(15));

    await userEvent.click(screen.getByRole('radio', { name: 'My Ticket' }));
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('75 tickets')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Include completed' })).toBeChecked();
    expect(within(await screen.findByRole('list', { name: 'All tickets' })).getAllByRole('listitem')).toHaveLength(15);
    expect(screen.queryByText('No tickets match.')).not.toBeInTheDocument();
  });

  it('All Tickets shows the last page when the list has become shorter than the page shown (an empty page beside the count)', { timeout: 30_000 }, async () => {
    const server = startFakeQueueServer({ queued: Array.from({ length: 45 }, (_, index) => queueTicket(index + 1)) });
    renderWithProviders(<QueueArea user={technician} />);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('45 tickets')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'All tickets' })).getAllByRole('listitem')).toHaveLength(15));

    await userEvent.click(screen.getByRole('radio', { name: 'My Ticket' }));
    server.removeQueued(20);
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByText('25 tickets')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'All tickets' })).getAllByRole('listitem')).toHaveLength(25));
    expect(screen.queryByText('No tickets match.')).not.toBeInTheDocument();
  });

  it('shortcuts do nothing while a dialog is open, and N pressed twice while next tickets are coming claims once', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { name: 'No tickets' });
    const release = server.holdNext('/db/api/ticketQueue/nextTickets');
    await userEvent.keyboard('nn');
    release();
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    await screen.findByRole('button', { name: 'Pause' });
    expect(server.callsTo('/db/api/ticketQueue/nextTickets')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Requeue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Requeue ticket #1001' });
    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('npc]');
    expect(screen.queryByRole('dialog', { name: /^Complete ticket/ })).not.toBeInTheDocument();
    expect(server.callsTo('/db/api/ticketQueue/nextTickets')).toHaveLength(1);
    expect(server.callsTo(`/db/api/ticketActivities/${MSP}/pause`)).toHaveLength(0);
    expect(screen.getByRole('heading', { level: 2, name: /^#1001 / })).toBeInTheDocument();
  });
});

// Regression (visual review s27): on a phone the Rows view drew a 640 px table and an opened row's details past the
// right edge of the screen; full screen forced rows there too.
describe('QueueArea — on a phone', () => {
  it('lists tickets as cards, offers no Rows choice, and keeps cards in full screen', { timeout: 20_000 }, async () => {
    const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    const phone = (query: string) => ({ matches: query.includes('1599') || query.includes('61.99em') || query.includes('36em'), media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false });
    Object.defineProperty(window, 'matchMedia', { writable: true, configurable: true, value: phone });
    try {
      startFakeQueueServer({ queued: [queueTicket(1), queueTicket(2)] });
      renderWithProviders(<QueueArea user={technician} />);
      await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
      expect(await screen.findByRole('list', { name: 'All tickets' })).toBeInTheDocument();
      expect(screen.queryByRole('radio', { name: 'Rows' })).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
      const full = screen.getByRole('dialog', { name: 'Tickets, full screen' });
      expect(await within(full).findByRole('list', { name: 'All tickets' })).toBeInTheDocument();
      expect(within(full).queryByRole('table', { name: 'All tickets' })).not.toBeInTheDocument();
    } finally {
      if (original) Object.defineProperty(window, 'matchMedia', original);
    }
  });
});

// Bugs (axe sweep s28): the signed-in screens had no h1 and the tab always read "Switchboard" (WCAG 1.3.1, 2.4.2); the
// Cards/Rows toggle showed on My Ticket, Knowledge Base, Dashboards and Dispatch, which ignore it; the work timer's
// "Running" was teal.6 on white (2.55:1, WCAG 1.4.3 asks 4.5:1).
describe('QueueArea — accessibility (axe sweep s28)', () => {
  it('heads the screen with an h1 "Tickets" and titles the tab "Tickets · <MSP>"', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ queued: [queueTicket(1)] });
    const session: TSessionCheckResponse = { authenticated: true, user: technician };
    renderWithProviders(<QueueArea user={technician} />, { prepareCache: (queryClient) => queryClient.setQueryData(sessionKeys.current(), session) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeInTheDocument();
    expect(document.title).toBe(`Tickets · ${technician.mspName}`);
  });

  it('offers Cards/Rows on All Tickets only', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ queued: [queueTicket(1)] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { name: 'No tickets' });
    expect(screen.queryByRole('radiogroup', { name: 'Ticket view' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Rows' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'All Tickets' }));
    expect(await screen.findByRole('radio', { name: 'Rows' })).toBeInTheDocument();
    for (const mode of ['Knowledge Base', 'Dashboards', 'Dispatch']) {
      await userEvent.click(screen.getByRole('radio', { name: mode }));
      expect(screen.queryByRole('radio', { name: 'Rows' }), mode).not.toBeInTheDocument();
    }
  });

  it('says "Running" on the work timer in a colour that reads at 4.5:1 on white', { timeout: 20_000 }, async () => {
    startFakeQueueServer({ queued: [queueTicket(1)] });
    renderWithProviders(<QueueArea user={technician} />);
    await getNextTickets();
    const timer = screen.getByRole('region', { name: 'Work timer' });
    const running = within(timer).getByText('Running', { selector: 'p' });
    expect(contrastRatio(resolveColour(running.style.color, '#000000'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});
