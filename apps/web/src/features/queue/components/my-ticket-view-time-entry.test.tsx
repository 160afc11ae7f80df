import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { MSP, TECH_ID, queueTicket, startFakeQueueServer } from '../test/fake-queue-server';
import { QueueArea } from './queue-area';

const technician = buildAdminTechnician({ id: TECH_ID, mspCustomDomain: MSP, psaMemberId: '7' });

afterEach(() => vi.unstubAllGlobals());

// Regression (review s29, finding 1): a time entry the PSA refused (400) vanished without a word: the completion said
// "Ticket #N closed" and the ticket left the list; only an admin's Integrations list showed it.
describe('My Ticket — the time entry’s delivery to the PSA', () => {
  it('a completion whose time entry the PSA refused says plainly that the time is not recorded there', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    server.setTimeEntryState({ status: 'failed', message: 'The PSA refused the request.', nextAttemptAt: null });
    await userEvent.click(screen.getByRole('button', { name: 'Complete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Complete ticket' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.queue.timeEntryNotRecordedTitle(1001));
    expect(alert).toHaveTextContent(MESSAGES.queue.timeEntryFailed);
    expect(alert).toHaveTextContent('The PSA refused the request.');
    expect(alert.getAttribute('style') ?? '').toContain('red');
    // The close itself landed, and says so.
    expect(screen.getByRole('status')).toHaveTextContent('was completed and closed.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a requeue whose time entry waits for the PSA says it will be sent when the PSA answers', { timeout: 20_000 }, async () => {
    const server = startFakeQueueServer({ working: [queueTicket(1, { state: 'working' })] });
    renderWithProviders(<QueueArea user={technician} />);
    await screen.findByRole('heading', { level: 2, name: /^#1001 / });
    server.setTimeEntryState({ status: 'pending', message: null, nextAttemptAt: null });
    await userEvent.click(screen.getByRole('button', { name: 'Requeue' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Requeue' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.queue.timeEntryPendingTitle(1001));
    expect(alert).toHaveTextContent(MESSAGES.queue.timeEntryPending);
    expect(alert.getAttribute('style') ?? '').toContain('yellow');
  });
});
