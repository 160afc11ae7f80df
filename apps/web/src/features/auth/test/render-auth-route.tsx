import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { authRoutes } from '../routes';

/** Stands in for every page outside the auth feature, so a test can see where a flow navigated. */
function LandedPage() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname}</p>;
}

/** Renders the real auth routes at `path` with fresh query and router state. */
export function renderAuthRoute(path: string, routerState?: unknown) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      ...authRoutes,
      { path: '/:msp/dashboard/*', Component: LandedPage },
      { path: '/dashboard/*', Component: LandedPage },
    ],
    { initialEntries: [{ pathname: path.split('?')[0] ?? path, search: path.includes('?') ? `?${path.split('?')[1] ?? ''}` : '', state: routerState }] },
  );
  const view = render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, router, queryClient };
}

/** Finds text without collapsing whitespace: the spec's strings keep their double spaces. */
export function findExactText(text: string) {
  return screen.findByText(text, { normalizer: (value) => value });
}
