import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import type { TSessionUser } from '@switchboard/contracts';
import { queryClient } from '../../lib/query-client';
import { requireAccountLoader, requireAdminLoader, requireMspMemberLoader, requireMspUserLoader } from './session-guards';
import { buildAdminTechnician } from '../../test/build-session-user';
import { routes } from '../../app/router';

const technician: TSessionUser = buildAdminTechnician();

function sessionAnswers(user: TSessionUser | null) {
  const body = user === null ? { authenticated: false } : { authenticated: true, user };
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function args(params: Record<string, string>): LoaderFunctionArgs {
  return { params, request: new Request('http://localhost/'), context: undefined } as unknown as LoaderFunctionArgs;
}

function location(result: Response | null): string | null {
  return result === null ? null : result.headers.get('Location');
}

beforeEach(() => queryClient.clear());
afterEach(() => vi.unstubAllGlobals());

describe('dashboard route guards', () => {
  it('sends a signed-out visitor of an MSP dashboard to that MSP login page', async () => {
    sessionAnswers(null);
    expect(location(await requireMspUserLoader(args({ msp: 'northwind', id: technician.id })))).toBe('/northwind');
  });

  it('sends signed-out visitors of /dashboard/{id} and /admin to /auth/login', async () => {
    sessionAnswers(null);
    expect(location(await requireAccountLoader(args({ id: 'x' })))).toBe('/auth/login');
    expect(location(await requireAdminLoader())).toBe('/auth/login');
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
    expect(syncRoute?.loader).toBe(requireMspMemberLoader);
    expect(await requireMspMemberLoader(args({ msp: 'northwind' }))).toBeNull();
    expect(location(await requireMspMemberLoader(args({ msp: 'contoso-it' })))).toBe(`/northwind/dashboard/${technician.id}/tickets`);
    queryClient.clear();
    sessionAnswers(null);
    expect(location(await requireMspMemberLoader(args({ msp: 'northwind' })))).toBe('/northwind');
  });
});
