import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { PSA_WRITE_MESSAGES, type TEmailConnectorSettings, type TIntegrationSummary, type TWizardProgress } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MspIntegrationsPage } from './msp-integrations-page';

const MSP = 'northwind';
const CONNECTED: TIntegrationSummary = {
  psaType: 'CONNECTWISE',
  isConfigured: true,
  companyId: 'northwind',
  psaUrl: 'https://psa.example',
  username: null,
  keyHint: '••••Key1',
  connectWiseManageIntegrator: true,
  microsoftGraphIntegrator: false,
  emailIntegrator: false,
};
const NO_MAILBOX: TEmailConnectorSettings = { isConfigured: false, address: null, imapHost: null, imapPort: null, passwordHint: null, lastCheckedAt: null, lastError: null, ticketCount: 0, updatedAt: null };
const PROGRESS: TWizardProgress = { currentStep: 2, completedSteps: [1], boardId: 7, boardName: 'Help Desk', isFinished: false, finishedAt: null };

function stubApi(summary: TIntegrationSummary = CONNECTED) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
      const path = url.split('?')[0];
      if (path === `/db/${MSP}/integrations`) return json(summary);
      if (path === '/db/api/psa-writes') return json({ writes: [] });
      if (path === `/db/${MSP}/wizard`) return json(PROGRESS);
      if (path === `/db/${MSP}/integrations/email-connector`) return json(NO_MAILBOX);
      return json({ employees: [], total: 0, page: 1, pageSize: 30 });
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('MspIntegrationsPage', () => {
  // Bug: the sync screen had a route but no way to it: no screen linked to it.
  it('leads a connected MSP from its PSA connection to the sync screen', async () => {
    stubApi();
    const router = createMemoryRouter(
      [
        { path: '/northwind/dashboard/u1', element: <MspIntegrationsPage mspCustomDomain={MSP} /> },
        { path: '/:msp/admin/board/sync', element: <p>the sync screen</p> },
      ],
      { initialEntries: ['/northwind/dashboard/u1'] },
    );
    renderWithProviders(<RouterProvider router={router} />);
    await userEvent.click(await screen.findByRole('link', { name: 'Sync boards and tickets' }));
    expect(await screen.findByText('the sync screen')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/northwind/admin/board/sync');
  });

  // the mailbox is its own card, beside the PSA connection, and a PSA connection does not connect it.
  it('shows the email connector card beside the PSA connection', { timeout: 20_000 }, async () => {
    stubApi();
    const router = createMemoryRouter([{ path: '/northwind/dashboard/u1', element: <MspIntegrationsPage mspCustomDomain={MSP} /> }], { initialEntries: ['/northwind/dashboard/u1'] });
    renderWithProviders(<RouterProvider router={router} />);
    const card = await screen.findByRole('region', { name: 'Email connector' });
    expect(await within(card).findByText('Not connected')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Connect mailbox' })).toBeInTheDocument();
  });

  // Decision 013: the changes waiting for the PSA show only where there is a PSA to send them to.
  it('shows the changes waiting for the PSA only while the PSA is connected', { timeout: 20_000 }, async () => {
    stubApi();
    const connected = renderWithProviders(<RouterProvider router={createMemoryRouter([{ path: '/', element: <MspIntegrationsPage mspCustomDomain={MSP} /> }])} />);
    const card = await screen.findByRole('region', { name: PSA_WRITE_MESSAGES.title });
    expect(await within(card).findByText(PSA_WRITE_MESSAGES.empty)).toBeInTheDocument();
    connected.unmount();

    stubApi({ ...CONNECTED, isConfigured: false, connectWiseManageIntegrator: false, psaType: null });
    renderWithProviders(<RouterProvider router={createMemoryRouter([{ path: '/', element: <MspIntegrationsPage mspCustomDomain={MSP} /> }])} />);
    expect(await screen.findByRole('region', { name: 'Email connector' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: PSA_WRITE_MESSAGES.title })).not.toBeInTheDocument();
  });
});
