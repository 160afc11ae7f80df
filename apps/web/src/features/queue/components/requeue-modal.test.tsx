import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../lib/render-with-providers';
import type { TQueueTicketView } from '../queue-types';
import { MESSAGES } from '@switchboard/contracts';
import { RequeueModal } from './requeue-modal';

const ticket = { ticketId: 100525, tier: 'Tier1' } as TQueueTicketView;

describe('RequeueModal', () => {
  it('keeps a hold over 720 hours in the field and says why it is refused (it used to stop the typing without a word)', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderWithProviders(<RequeueModal ticket={ticket} isSaving={false} onConfirm={onConfirm} onClose={() => {}} />);
    const hold = screen.getByLabelText('Hold for (hours)');
    await user.clear(hold);
    await user.type(hold, '800');
    expect(hold).toHaveValue('800');
    await user.click(screen.getByRole('button', { name: 'Requeue' }));
    expect(await screen.findByText(MESSAGES.queue.holdHoursRange)).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();

    await user.clear(hold);
    expect(screen.queryByText(MESSAGES.queue.holdHoursRange)).not.toBeInTheDocument();
    await user.type(hold, '48');
    await user.click(screen.getByRole('checkbox', { name: 'Keep it assigned to me' }));
    await user.click(screen.getByRole('button', { name: 'Requeue' }));
    expect(onConfirm).toHaveBeenCalledWith({ holdTimeInHours: 48, assignedFlag: true, newTier: 'Tier1' });
  });

  it('sends 0 hours when the field is left empty', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderWithProviders(<RequeueModal ticket={ticket} isSaving={false} onConfirm={onConfirm} onClose={() => {}} />);
    await user.clear(screen.getByLabelText('Hold for (hours)'));
    await user.click(screen.getByRole('button', { name: 'Requeue' }));
    expect(onConfirm).toHaveBeenCalledWith({ holdTimeInHours: 0, assignedFlag: false, newTier: 'Tier1' });
  });
});
