import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { TIntegrationSummary, TWizardProgress } from '@switchboard/contracts';
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
const PROGRESS: TWizardProgress = { currentStep: 2, completedSteps: [1], boardId: 7, boardName: 'Help Desk', isFinished: false, finishedAt: null };

function stubApi() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
      const path = url.split('?')[0];
      if (path === `/db/${MSP}/integrations`) return json(CONNECTED);
      if (path === `/db/${MSP}/wizard`) return json(PROGRESS);
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
});
