import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { MESSAGES } from '@switchboard/contracts';
import { routes } from '../app/router';
import { ApiError } from '../lib/api-client';
import { setMainLoading, useLoadingStore } from '../lib/loading-store';
import { queryClient } from '../lib/query-client';
import { buildAdminTechnician } from '../test/build-session-user';
import { RootLayout } from './root-layout';
import { RouteErrorPage } from './route-error-page';

const technician = buildAdminTechnician();

function answerSession(body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })));
}

function renderAt(path: string, routeList: RouteObject[] = routes) {
  const router = createMemoryRouter(routeList, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  queryClient.clear();
  document.title = 'Switchboard';
});
afterEach(() => {
  vi.unstubAllGlobals();
  setMainLoading(false);
});

describe('the 404 page', () => {
  // Review s29: signing in with returnTo=/northwind/admin/nope landed on the 404 page under the sign-in's loading dots for ever.
  it('clears the loading overlay a sign-in left on its way to a page that does not exist', async () => {
    answerSession({ authenticated: true, user: technician });
    setMainLoading(true);
    renderAt('/northwind/admin/nope');
    expect(await screen.findByText(MESSAGES.pageNotFound)).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
  });

  // Review s29: it offered only "Go to sign in" to someone signed in, and left the tab titled as before.
  it('leads a signed-in user back to their dashboard and names the tab', async () => {
    answerSession({ authenticated: true, user: technician });
    renderAt('/northwind/nope/x');
    expect(await screen.findByRole('link', { name: 'Back to your dashboard' })).toHaveAttribute('href', `/northwind/dashboard/${technician.id}/tickets`);
    expect(screen.queryByRole('link', { name: 'Go to sign in' })).not.toBeInTheDocument();
    expect(document.title).toBe('Page not found · Northwind IT');
  });

  it('offers a signed-out visitor the sign-in page', async () => {
    answerSession({ authenticated: false });
    renderAt('/northwind/nope/x');
    expect(await screen.findByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/auth/login');
    expect(document.title).toBe('Page not found · Switchboard');
  });
});

describe('the route error page', () => {
  it('clears the loading overlay and names the tab when the dashboard cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerSession({ authenticated: false });
    setMainLoading(true);
    const failing = new ApiError({ status: 0, code: 'network', detail: MESSAGES.networkError });
    renderAt('/northwind/dashboard/x', [{ Component: RootLayout, ErrorBoundary: RouteErrorPage, children: [{ path: '/northwind/dashboard/x', loader: () => Promise.reject(failing), Component: () => null }] }]);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.networkError);
    // The error page stands in for the root layout (and its overlay); the flag must not wait for the next page.
    expect(useLoadingStore.getState().isMainLoading).toBe(false);
    expect(document.title).toBe('Something went wrong · Switchboard');
  });
});
