import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { MESSAGES, permissionMap } from '@switchboard/contracts';
import type { TSessionCheckResponse, TSessionMspUser } from '@switchboard/contracts';
import { apiFetch } from '../../lib/api-client';
import { renderWithProviders } from '../../lib/render-with-providers';
import { resetAllStores } from '../../lib/store-reset';
import { buildAdminTechnician } from '../../test/build-session-user';
import { MspDashboardPage } from '../dashboard/pages/msp-dashboard-page';
import { SESSION_CHECK_PATH, sessionKeys } from './api/session-queries';
import { watchForEndedSession } from './session-end';

const admin = buildAdminTechnician();
const REFUSED_PATH = '/db/northwind/roles';

/** The server: the user as it now knows them (A-072 and A-001 answer it), and a 403 for the Roles list. */
function stubServer(server: { user: TSessionMspUser }) {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchMock = vi.fn(async (input: string) => {
    const path = input.split('?')[0] ?? '';
    if (path === SESSION_CHECK_PATH) return json({ authenticated: true, user: server.user });
    if (path.endsWith('/technicianUsers/getById')) return json(server.user);
    if (path === REFUSED_PATH) return json({ type: 'about:blank', title: 'forbidden', status: 403, detail: MESSAGES.forbidden, code: 'forbidden', requestId: 'r' }, 403);
    return json({ roles: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { callsTo: (path: string) => fetchMock.mock.calls.filter(([url]) => url.split('?')[0] === path) };
}

let stopWatching: (() => void) | undefined;
beforeEach(() => {
  window.localStorage.clear();
  resetAllStores();
});
afterEach(() => {
  stopWatching?.();
  vi.unstubAllGlobals();
});

// Review s29: a permission removed while signed in kept its navigation item until a full reload; the session (read
// once, staleTime Infinity) was refreshed only after a 401.
describe('a call refused with 403 while signed in', () => {
  it('re-reads the session once, however many calls were refused, and the shell drops what the role no longer allows', { timeout: 20_000 }, async () => {
    const server = { user: admin };
    const api = stubServer(server);
    const router = createMemoryRouter([{ path: '/:msp/dashboard/:id', Component: MspDashboardPage }], { initialEntries: [`/northwind/dashboard/${admin.id}`] });
    const session: TSessionCheckResponse = { authenticated: true, user: admin };
    const { queryClient } = renderWithProviders(<RouterProvider router={router} />, { prepareCache: (cache) => cache.setQueryData(sessionKeys.current(), session) });
    stopWatching = watchForEndedSession({ queryClient, router });
    const navigation = await screen.findByRole('navigation', { name: 'Navigation panel' });
    expect(await within(navigation).findByRole('button', { name: 'Roles' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(`/db/northwind/technicianUsers/getById`)).toHaveLength(1));

    // An administrator takes role management away; the next calls the screens make are refused.
    server.user = { ...admin, roleName: 'Client managers', permissions: permissionMap(['clientDocuments', 'clientUserManagement']) };
    await Promise.all([1, 2, 3].map(() => apiFetch(REFUSED_PATH).catch(() => undefined)));

    await waitFor(() => expect(within(navigation).queryByRole('button', { name: 'Roles' })).not.toBeInTheDocument());
    expect(within(navigation).getByRole('button', { name: 'Contacts' })).toBeInTheDocument();
    expect(api.callsTo(SESSION_CHECK_PATH)).toHaveLength(1);
  });
});
