import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, type TMergedCategorization, type TTicketingConfiguration } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { BoardsPage } from './boards-page';

const MSP = 'northwind';

const merged: TMergedCategorization = {
  boardId: 1,
  boardName: 'Help Desk',
  newCreatingTicketStatus: 'New',
  newCreatingTicketStatusId: 10,
  closingTicketStatus: 'Closed',
  closingTicketStatusId: 11,
  priorities: [{ priorityId: 1, priority: 'Priority 1 - Critical', priorityScore: 0 }],
  mspConnectWiseBoardTypes: [
    {
      typeId: 5,
      typeName: 'Email',
      isNew: false,
      mspConnectWiseBoardSubTypes: [{ subTypeId: 50, subTypeName: 'Outlook', priorityId: null, priority: null, priorityScore: 0, subTypeScore: 0, tier: 'Tier1', slaDeadLineInHours: 1, isNew: false, typeAssociationIds: [5] }],
    },
  ],
  psaType: 'CONNECTWISE',
  isConfigured: false,
  statuses: [
    { id: 10, name: 'New', isClosed: false },
    { id: 11, name: 'Closed', isClosed: true },
  ],
  canCreate: { types: true, subTypes: true, statuses: true, boards: true },
};

function configuration(boardDetails: TMergedCategorization[]): TTicketingConfiguration {
  return {
    mspCustomDomain: MSP,
    psaType: 'CONNECTWISE',
    isConfigured: boardDetails.length > 0,
    connectWiseConfig: {
      boardDetails: boardDetails.map(({ psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail }) => detail),
      defaultCompanyId: null,
      defaultCompanyName: null,
      boardTicketSync: [],
      syncClientsTypeId: null,
    },
  };
}

type TCall = { url: string; method: string; body: unknown };

/** A fake API for the board screen's calls; `failSave` answers A-034 with the server's problem+json. */
function stubBoardsApi(options: { failSave?: boolean; withoutClosedStatus?: boolean } = {}) {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ url, method, body });
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url.startsWith('/psa/getConnectWiseBoards')) {
        return json(200, [
          { id: 1, name: 'Help Desk', isActive: true },
          { id: 2, name: 'Projects', isActive: true },
          { id: 3, name: 'Alerts', isActive: false },
        ]);
      }
      if (url === `/db/${MSP}/getPSATicketingConfiguration`) return json(200, configuration([{ ...merged, boardId: 3, boardName: 'Alerts' }]));
      if (url.startsWith('/psa/getMergedConnectWiseCategorizationWithoutGPT')) return json(200, options.withoutClosedStatus ? { ...merged, closingTicketStatus: null, closingTicketStatusId: null } : merged);
      if (url.startsWith(`/db/${MSP}/psaTicketingConfiguration/defaultCompanyOptions`)) return json(200, { companies: [] });
      if (url === `/db/${MSP}/addUpdatePSATicketingConfiguration` && options.failSave) {
        return json(422, { type: 'about:blank', title: 'Unprocessable', status: 422, detail: 'The PSA refused the request. Name too long', code: 'psa_validation', requestId: 'r1' });
      }
      if (url === `/db/${MSP}/addUpdatePSATicketingConfiguration`) {
        const saved: TMergedCategorization = {
          ...merged,
          mspConnectWiseBoardTypes: [
            ...merged.mspConnectWiseBoardTypes,
            { typeId: 6, typeName: 'Backup', isNew: false, mspConnectWiseBoardSubTypes: [{ subTypeId: 60, subTypeName: 'Restore', priorityId: null, priority: null, priorityScore: 0, subTypeScore: 0, tier: 'Tier1', slaDeadLineInHours: 1, isNew: false, typeAssociationIds: [6] }] },
          ],
        };
        return json(200, configuration([saved]));
      }
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r2' });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('BoardsPage', { timeout: 30_000 }, () => {
  it('lists the PSA boards with search and the configured filter (R-163)', async () => {
    stubBoardsApi();
    renderWithProviders(<BoardsPage mspCustomDomain={MSP} />);
    const list = await screen.findByRole('navigation', { name: 'Boards' });
    expect(await within(list).findByRole('button', { name: /Help Desk/ })).toBeInTheDocument();
    await userEvent.type(within(list).getByLabelText('Search boards'), 'proj');
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual([expect.stringContaining('Projects')]);
    await userEvent.clear(within(list).getByLabelText('Search boards'));
    await userEvent.click(within(list).getByRole('combobox', { name: 'Filter' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Configured', hidden: true }));
    await waitFor(() => expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual([expect.stringContaining('Alerts')]));
  });

  it('marks edits unsaved, saves new types at the PSA through A-034, and clears the success state after 5 seconds (R-166–R-169)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    const calls = stubBoardsApi();
    renderWithProviders(<BoardsPage mspCustomDomain={MSP} />);
    await user.click(await screen.findByRole('button', { name: /Help Desk/ }));
    await user.type(await screen.findByLabelText('New type'), 'Backup');
    await user.click(screen.getByRole('button', { name: 'Add type' }));
    await user.type(screen.getByLabelText('New subtype of Backup'), 'Restore');
    await user.click(screen.getAllByRole('button', { name: 'Add subtype' })[1] ?? document.body);
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.boards.unsaved);

    await user.click(screen.getAllByRole('button', { name: 'Save board' })[0] ?? document.body);
    expect(await screen.findByText(MESSAGES.boards.saved)).toBeInTheDocument();
    const save = calls.find((call) => call.url === `/db/${MSP}/addUpdatePSATicketingConfiguration`);
    const sentTypes = (save?.body as { connectWiseConfig: { boardDetails: { mspConnectWiseBoardTypes: { typeName: string; isNew: boolean; tempIndex: string | null; mspConnectWiseBoardSubTypes: { subTypeName: string; isNew: boolean }[] }[] }[] } }).connectWiseConfig.boardDetails[0]?.mspConnectWiseBoardTypes;
    expect(sentTypes?.[1]).toMatchObject({ typeName: 'Backup', isNew: true, mspConnectWiseBoardSubTypes: [{ subTypeName: 'Restore', isNew: true }] });
    expect(sentTypes?.[1]?.tempIndex).toMatch(/^tmp-/);
    // The saved board is real now: no "New" badges, and no unsaved flag.
    expect(screen.queryByText('New — created at the PSA on save')).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.boards.unsaved, { selector: '[role="status"] *, [role="status"]' })).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(screen.queryByText(MESSAGES.boards.saved)).not.toBeInTheDocument();
  });

  it('refuses to save without a closed status and shows the server refusal, each clearing after 5 seconds (R-167, R-171)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    const calls = stubBoardsApi({ failSave: true, withoutClosedStatus: true });
    renderWithProviders(<BoardsPage mspCustomDomain={MSP} />);
    await user.click(await screen.findByRole('button', { name: /Help Desk/ }));
    await user.type(await screen.findByLabelText('Subtype score for Email / Outlook'), '5');
    await user.click(screen.getAllByRole('button', { name: 'Save board' })[0] ?? document.body);
    expect(await screen.findByText(MESSAGES.boards.statusesRequired)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(screen.queryByText(MESSAGES.boards.statusesRequired)).not.toBeInTheDocument();
    // The unsaved edit is still there to fix.
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.boards.unsaved);

    await user.click(screen.getByRole('combobox', { name: 'Closed status' }));
    await user.click(within(await screen.findByRole('listbox', { name: 'Closed status', hidden: true })).getByRole('option', { name: 'Closed (closes)', hidden: true }));
    await user.click(screen.getAllByRole('button', { name: 'Save board' })[0] ?? document.body);
    expect(await screen.findByRole('alert')).toHaveTextContent('The PSA refused the request. Name too long');
  });
});
