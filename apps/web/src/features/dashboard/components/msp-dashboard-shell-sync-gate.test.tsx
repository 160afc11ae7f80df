import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { BoardSyncPage } from '../../imports/pages/board-sync-page';
import { sessionKeys } from '../../session/api/session-queries';

// Bug: the shell showed the sync screen to anyone with an admin tab; its API is for technicians with mspIntegrations.
describe('the sync screen inside the dashboard shell', () => {
  beforeEach(() => {
    window.localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('sends a technician without mspIntegrations who opens its address to their home instead', { timeout: 20_000 }, async () => {
    const technician = buildAdminTechnician({ permissions: { ...buildAdminTechnician().permissions, mspIntegrations: false } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/technicianUsers/getById')) return new Response(JSON.stringify(technician), { status: 200 });
        if (url.startsWith('/psa/getConnectWiseBoards')) return new Response(JSON.stringify([{ id: 1, name: 'Help Desk', isActive: true }]), { status: 200 });
        return new Response(JSON.stringify({ roles: [] }), { status: 200 });
      }),
    );
    const session: TSessionCheckResponse = { authenticated: true, user: technician };
    const router = createMemoryRouter(
      [
        { path: '/:msp/admin/board/sync', element: <BoardSyncPage /> },
        { path: '/:msp/dashboard/:id/tickets', element: <p>the dashboard</p> },
      ],
      { initialEntries: ['/northwind/admin/board/sync'] },
    );
    renderWithProviders(<RouterProvider router={router} />, { prepareCache: (queryClient) => queryClient.setQueryData(sessionKeys.current(), session) });
    expect(await screen.findByText('the dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/northwind/dashboard/${technician.id}/tickets`);
    expect(screen.queryByRole('heading', { name: 'Sync boards and tickets' })).not.toBeInTheDocument();
  });
});
