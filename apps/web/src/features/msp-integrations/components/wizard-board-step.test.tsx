import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BOARD_STATE_CLEAR_MS, MESSAGES, type TMergedCategorization, type TTicketingConfiguration } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { HELP_DESK_MERGED } from '../../../test/help-desk-board';
import { WizardBoardStep } from './wizard-board-step';

const MSP = 'northwind';
// Not configured yet, and no closing status chosen: the wizard's first save.
const merged: TMergedCategorization = { ...HELP_DESK_MERGED, closingTicketStatus: null, closingTicketStatusId: null };

function stubApi() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url.startsWith('/psa/getConnectWiseBoards')) return json(200, [{ id: 1, name: 'Help Desk', isActive: true }]);
      if (url.startsWith('/psa/getMergedConnectWiseCategorizationWithoutGPT')) return json(200, merged);
      if (url === `/db/${MSP}/addUpdatePSATicketingConfiguration`) {
        const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = merged;
        const saved: TTicketingConfiguration = {
          mspCustomDomain: MSP,
          psaType: 'CONNECTWISE',
          isConfigured: true,
          connectWiseConfig: { boardDetails: [{ ...detail, closingTicketStatus: 'Closed', closingTicketStatusId: 11 }], defaultCompanyId: null, defaultCompanyName: null, boardTicketSync: [], syncClientsTypeId: null },
        };
        return json(200, saved);
      }
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' });
    }),
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Bug: the wizard's board save messages stayed on screen for good; clear them after 5 seconds.
describe('WizardBoardStep', { timeout: 30_000 }, () => {
  it('clears the save error and "Board saved." after 5 seconds, as the Board screen does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    stubApi();
    renderWithProviders(<WizardBoardStep mspCustomDomain={MSP} initialBoardId={1} onComplete={() => undefined} isCompleting={false} />);
    const saveButton = async () => (await screen.findAllByRole('button', { name: 'Save board' }))[0] ?? document.body;

    await user.click(await saveButton());
    expect(await screen.findByText(MESSAGES.boards.statusesRequired)).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(BOARD_STATE_CLEAR_MS);
    });
    expect(screen.queryByText(MESSAGES.boards.statusesRequired)).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Closed status' }));
    await user.click(within(await screen.findByRole('listbox', { name: 'Closed status', hidden: true })).getByRole('option', { name: 'Closed (closes)', hidden: true }));
    await user.click(await saveButton());
    expect(await screen.findByText(MESSAGES.boards.saved)).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(BOARD_STATE_CLEAR_MS - 1000);
    });
    expect(screen.getByText(MESSAGES.boards.saved)).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.queryByText(MESSAGES.boards.saved)).not.toBeInTheDocument();
  });
});
