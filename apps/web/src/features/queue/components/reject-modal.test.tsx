import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { queueTicket } from '../test/fake-queue-server';
import { EditTicketModal } from './edit-ticket-modal';
import { RejectModal } from './reject-modal';
import { RequeueModal } from './requeue-modal';

const ticket = queueTicket(25);

// Bug (visual review s28, axe button-name): the queue's dialogs had an unnamed ✕ button; a screen reader heard "button".
describe('the queue dialogs', () => {
  it('name the close button of Hand back, and it closes the dialog', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<RejectModal ticket={ticket} isSaving={false} onConfirm={() => {}} onClose={onClose} />);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('name the close button of Requeue and Edit ticket', { timeout: 20_000 }, async () => {
    const view = renderWithProviders(<RequeueModal ticket={ticket} isSaving={false} onConfirm={() => {}} onClose={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Close' })).toBeInTheDocument();
    view.unmount();
    renderWithProviders(<EditTicketModal ticket={ticket} choices={null} statuses={[]} isLoading={false} loadError={null} isSaving={false} error={null} onSave={() => {}} onCancel={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
