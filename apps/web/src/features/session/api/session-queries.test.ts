import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TSessionCheckResponse, TSessionUser } from '@switchboard/contracts';
import { useLoadingStore } from '../../../lib/loading-store';
import { saveLastActiveUser } from '../../../lib/local-storage';
import { clearAllClientState, logoutRedirectPath, performLogout } from './logout';
import { sessionKeys } from './session-queries';
import { buildAdminTechnician } from '../../../test/build-session-user';

const technician: TSessionUser = buildAdminTechnician();

const account: TSessionUser = {
  principal: 'account',
  id: '9a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11',
  accountKind: 'public',
  firstName: 'Pat',
  lastName: 'Lee',
  email: 'pat@example.com',
  phoneNumber: '',
  companyName: null,
};

describe('logoutRedirectPath (R-037)', () => {
  it('sends an MSP user to their MSP login page, opened on their side (regression: a technician\'s opened on Client)', () => {
    expect(logoutRedirectPath(technician, `/northwind/dashboard/${technician.id}/tickets`)).toBe('/northwind?as=tech');
    expect(logoutRedirectPath(technician, '/admin')).toBe('/northwind?as=tech');
    expect(logoutRedirectPath({ ...technician, userKind: 'client' }, `/northwind/dashboard/${technician.id}`)).toBe('/northwind?as=client');
  });

  it('sends anyone logging out from a /public/dashboard path to /public', () => {
    expect(logoutRedirectPath(account, '/public/dashboard')).toBe('/public');
    expect(logoutRedirectPath(technician, '/public/dashboard/history')).toBe('/public');
    expect(logoutRedirectPath(null, '/public/dashboard')).toBe('/public');
  });

  it('sends a general account, or an unknown user, to /auth/login', () => {
    expect(logoutRedirectPath(account, `/dashboard/${account.id}`)).toBe('/auth/login');
    expect(logoutRedirectPath(null, '/admin')).toBe('/auth/login');
    expect(logoutRedirectPath(null, '/public/dashboardish')).toBe('/auth/login');
  });

  it('falls back to the MSP named in the path when the user is not known', () => {
    expect(logoutRedirectPath(null, '/contoso/dashboard/123')).toBe('/contoso');
  });
});

describe('performLogout (R-109..R-111)', () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  async function logOutWith(fetchImpl: () => Promise<Response>, pathname: string, cachedUser: TSessionUser | null) {
    const fetchMock = vi.fn(fetchImpl);
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = new QueryClient();
    if (cachedUser) {
      const session: TSessionCheckResponse = { authenticated: true, user: cachedUser };
      queryClient.setQueryData(sessionKeys.current(), session);
    }
    queryClient.setQueryData(['roles', 'northwind', 'list'], []);
    saveLastActiveUser(technician);
    window.sessionStorage.setItem('draft', 'x');
    useLoadingStore.setState({ isMainLoading: true });
    const redirect = vi.fn();
    await performLogout({ queryClient, pathname, redirect });
    return { fetchMock, queryClient, redirect };
  }

  it('calls the logout endpoint, clears storage, cache and stores, then redirects', async () => {
    const { fetchMock, queryClient, redirect } = await logOutWith(
      async () => new Response(JSON.stringify({ success: true, skipMicrosoftLogout: true, redirectUrl: '/northwind', microsoftLogoutUrl: null }), { status: 200 }),
      `/northwind/dashboard/${technician.id}`,
      technician,
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/auth/api/auth/logout');
    expect(init.method).toBe('POST');
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(useLoadingStore.getState().isMainLoading).toBe(false);
    expect(redirect).toHaveBeenCalledWith('/northwind?as=tech');
  });

  it('still clears and redirects when the logout call fails', async () => {
    const { redirect, queryClient } = await logOutWith(async () => Promise.reject(new TypeError('offline')), `/northwind/dashboard/${technician.id}`, technician);
    expect(window.localStorage.length).toBe(0);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(redirect).toHaveBeenCalledWith('/northwind?as=tech');
  });

  it('still redirects on a server error, using the saved last user when the cache is empty', async () => {
    const { redirect } = await logOutWith(async () => new Response('boom', { status: 500 }), '/admin', null);
    expect(redirect).toHaveBeenCalledWith('/northwind?as=tech');
  });
});

describe('clearAllClientState (R-109)', () => {
  it('empties local and session storage and expires script-visible cookies', () => {
    saveLastActiveUser(technician);
    window.sessionStorage.setItem('draft', 'x');
    document.cookie = 'clientId=abc; path=/';
    document.cookie = 'authMethod=microsoft; path=/';
    clearAllClientState();
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(document.cookie).toBe('');
  });
});
