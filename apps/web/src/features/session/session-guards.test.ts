import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import type { TSessionUser } from '@switchboard/contracts';
import { queryClient } from '../../lib/query-client';
import { saveLastActiveUser } from '../../lib/local-storage';
import { returnPathFor } from './return-path';
import { requireAccountLoader, requireAdminLoader, requireBoardSyncLoader, requireMspUserLoader } from './session-guards';
import { buildAdminTechnician } from '../../test/build-session-user';
import { routes } from '../../app/router';

const technician: TSessionUser = buildAdminTechnician();

function sessionAnswers(user: TSessionUser | null) {
  const body = user === null ? { authenticated: false } : { authenticated: true, user };
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function args(params: Record<string, string>, path = '/'): LoaderFunctionArgs {
  return { params, request: new Request(`http://localhost${path}`), context: undefined } as unknown as LoaderFunctionArgs;
}

function location(result: Response | null): string | null {
  return result === null ? null : result.headers.get('Location');
}

beforeEach(() => {
  queryClient.clear();
  window.localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('dashboard route guards', () => {
  it('sends a signed-out visitor of an MSP dashboard to that MSP login page, with the page to come back to', async () => {
    sessionAnswers(null);
    const path = `/northwind/dashboard/${technician.id}`;
    expect(location(await requireMspUserLoader(args({ msp: 'northwind', id: technician.id }, path)))).toBe(`/northwind?returnTo=${encodeURIComponent(path)}`);
  });

  it('sends signed-out visitors of /dashboard/{id} to /auth/login, with the page to come back to', async () => {
    sessionAnswers(null);
    expect(location(await requireAccountLoader(args({ id: 'x' }, '/dashboard/x')))).toBe('/auth/login?returnTo=%2Fdashboard%2Fx');
    expect(location(await requireAdminLoader(args({}, '/admin')))).toBe('/auth/login?returnTo=%2Fadmin');
  });

  it("sends a signed-out visitor of /admin to the MSP login page of the user this browser last saw (regression: /auth/login, where an MSP user cannot sign in)", async () => {
    sessionAnswers(null);
    saveLastActiveUser(technician);
    expect(location(await requireAdminLoader(args({}, '/admin')))).toBe('/northwind?returnTo=%2Fadmin');
  });

  it("lets the MSP's own user in, and sends them home from another user's or MSP's dashboard", async () => {
    const fetchMock = sessionAnswers(technician);
    expect(await requireMspUserLoader(args({ msp: 'northwind', id: technician.id }))).toBeNull();
    expect(location(await requireMspUserLoader(args({ msp: 'contoso-it', id: technician.id })))).toBe(`/northwind/dashboard/${technician.id}/tickets`);
    expect(location(await requireMspUserLoader(args({ msp: 'northwind', id: 'someone-else' })))).toBe(`/northwind/dashboard/${technician.id}/tickets`);
    // the session is asked for once, then served from the cache.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  // Bug: the sync screen's route (/:msp/admin/board/sync, no :id) used the dashboard guard, which
  // compared the missing id with the user's and sent every admin back to the overview.
  it("opens the MSP's sync screen to its own signed-in user, and sends others home or to the MSP login", async () => {
    sessionAnswers(technician);
    const syncRoute = routes[0]?.children?.find((route) => route.path === '/:msp/admin/board/sync');
    expect(syncRoute?.loader).toBe(requireBoardSyncLoader);
    expect(await requireBoardSyncLoader(args({ msp: 'northwind' }))).toBeNull();
    expect(location(await requireBoardSyncLoader(args({ msp: 'contoso-it' })))).toBe(`/northwind/dashboard/${technician.id}/tickets`);
    queryClient.clear();
    sessionAnswers(null);
    expect(location(await requireBoardSyncLoader(args({ msp: 'northwind' }, '/northwind/admin/board/sync')))).toBe('/northwind?returnTo=%2Fnorthwind%2Fadmin%2Fboard%2Fsync');
  });

  // Bug: the guard checked MSP membership only, so a technician without mspIntegrations (or a client) opened the sync screen by URL.
  it('sends a technician without mspIntegrations, and a client, from the sync screen to their home', async () => {
    const withoutIntegrations = buildAdminTechnician({ permissions: { ...technician.permissions, mspIntegrations: false } });
    sessionAnswers(withoutIntegrations);
    expect(location(await requireBoardSyncLoader(args({ msp: 'northwind' })))).toBe(`/northwind/dashboard/${withoutIntegrations.id}/tickets`);
    queryClient.clear();
    const client = buildAdminTechnician({ userKind: 'client' });
    sessionAnswers(client);
    expect(location(await requireBoardSyncLoader(args({ msp: 'northwind' })))).toBe(`/northwind/dashboard/${client.id}/tickets`);
  });
});

describe('returnPathFor: where a sign-in goes back to', () => {
  const account: TSessionUser = { principal: 'account', id: 'acc-1', accountKind: 'account', firstName: 'Pat', lastName: 'Lee', email: 'pat@example.com', phoneNumber: '', companyName: null };

  it("accepts this site's pages of the user's own area, with their query", () => {
    expect(returnPathFor(technician, `/northwind/dashboard/${technician.id}?x=1`)).toBe(`/northwind/dashboard/${technician.id}?x=1`);
    expect(returnPathFor(technician, '/northwind/admin/board/sync')).toBe('/northwind/admin/board/sync');
    expect(returnPathFor(technician, '/admin')).toBe('/admin');
    expect(returnPathFor(account, '/dashboard/acc-1')).toBe('/dashboard/acc-1');
    expect(returnPathFor(account, '/public/dashboard')).toBe('/public/dashboard');
  });

  it('refuses other origins, protocol-relative and backslash tricks, other MSPs and pages outside the dashboards', () => {
    for (const raw of ['https://evil.example/northwind/dashboard', '//evil.example/northwind/dashboard', '/\\evil.example', 'javascript:alert(1)', '/northwind/dashboard\n', '/contoso-it/dashboard/x', '/northwind', '/auth/login', '/northwindx/dashboard', null]) {
      expect(returnPathFor(technician, raw)).toBeNull();
    }
    expect(returnPathFor(account, '/northwind/dashboard/x')).toBeNull();
    expect(returnPathFor(account, '/dashboard/acc-2')).toBeNull();
    expect(returnPathFor(technician, '/northwind/dashboard/someone-else/tickets')).toBeNull();
    expect(returnPathFor(technician, '/dashboard/acc-1')).toBeNull();
  });

  // Review s29: returnTo=/northwind/admin/nope was accepted, and the sign-in landed on the 404 page under its loading dots.
  it('accepts only pages the app has, not any path under them', () => {
    expect(returnPathFor(technician, `/northwind/dashboard/${technician.id}/tickets#top`)).toBe(`/northwind/dashboard/${technician.id}/tickets#top`);
    for (const raw of ['/northwind/admin/nope', '/northwind/admin', `/northwind/dashboard/${technician.id}/nope`, '/admin/roles', '/northwind/admin/board/sync/x']) {
      expect(returnPathFor(technician, raw)).toBeNull();
    }
    expect(returnPathFor(account, '/dashboard/acc-1/x')).toBeNull();
    expect(returnPathFor(account, '/public/dashboard/x')).toBeNull();
  });
});
