import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { PROGRESS_BAR_COLOUR } from '@switchboard/contracts';
import { TopProgressBar } from './top-progress-bar';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<null>((done) => {
    resolve = () => done(null);
  });
  return { promise, resolve };
}

function renderRoutes() {
  const slow = deferred();
  const router = createMemoryRouter(
    [
      {
        Component: TopProgressBar,
        children: [
          { path: '/start', Component: () => null },
          { path: '/northwind/dashboard/:id', loader: () => slow.promise, Component: () => null },
          { path: '/auth/login', loader: () => slow.promise, Component: () => null },
        ],
      },
    ],
    { initialEntries: ['/start'] },
  );
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { router, slow };
}

describe('TopProgressBar (R-034, R-036)', () => {
  it('shows a 3 px dark-blue bar while a dashboard route loads, and hides it after', async () => {
    const { router, slow } = renderRoutes();
    await act(async () => {
      void router.navigate('/northwind/dashboard/1');
      await Promise.resolve();
    });
    const bar = screen.getByRole('progressbar', { name: 'Loading page' });
    expect(bar).toHaveStyle({ height: '3px', backgroundColor: PROGRESS_BAR_COLOUR });
    await act(async () => {
      slow.resolve();
      await slow.promise;
    });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows nothing while an auth route loads', async () => {
    const { router } = renderRoutes();
    await act(async () => {
      void router.navigate('/auth/login');
      await Promise.resolve();
    });
    expect(router.state.navigation.state).toBe('loading');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
