import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES } from '@switchboard/contracts';
import { setMainLoading, useLoadingStore } from '../../../lib/loading-store';
import { ScreenErrorBoundary, ScreenLoading, lazyScreen } from './lazy-screen';

function Roles() {
  return <h1>Roles</h1>;
}

function renderScreen(ui: React.ReactNode) {
  const queryClient = new QueryClient();
  const wrap = (node: React.ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <MantineProvider>{node}</MantineProvider>
    </QueryClientProvider>
  );
  const view = render(wrap(ui));
  return { rerender: (node: React.ReactNode) => view.rerender(wrap(node)) };
}

afterEach(() => vi.restoreAllMocks());

// Review s29: offline after sign-in, a screen's chunk failed to load and took the whole app; React.lazy would also keep
// the failure for ever, so a "Try again" needs a fresh import.
describe('lazy screens of the dashboard', () => {
  it('says the server could not be reached when a chunk fails to load, and "Try again" loads it again without a page load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setMainLoading(true);
    const load = vi
      .fn<() => Promise<typeof Roles>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/roles-screen.js'))
      .mockResolvedValue(Roles);
    const LazyRoles = lazyScreen(load);
    renderScreen(
      <ScreenErrorBoundary resetKey="roles" title="This screen could not be shown">
        <Suspense fallback={null}>
          <LazyRoles />
        </Suspense>
      </ScreenErrorBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.networkError);
    expect(useLoadingStore.getState().isMainLoading).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('clears the error when another screen is chosen (a new reset key)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): React.ReactNode {
      throw new Error('a bug');
    }
    const view = renderScreen(
      <ScreenErrorBoundary resetKey="roles" title="This screen could not be shown">
        <Broken />
      </ScreenErrorBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.unexpectedError);
    view.rerender(
      <ScreenErrorBoundary resetKey="teams" title="This screen could not be shown">
        <h1>Teams</h1>
      </ScreenErrorBoundary>,
    );
    expect(await screen.findByRole('heading', { name: 'Teams' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  // Review s29: the tab kept the page before's title until the queue's screen had loaded and rendered.
  it('names the tab after the chosen screen while that screen still loads', async () => {
    document.title = 'Switchboard';
    const StillLoading = lazyScreen<object>(() => new Promise(() => undefined));
    renderScreen(
      <Suspense fallback={<ScreenLoading title="Tickets" />}>
        <StillLoading />
      </Suspense>,
    );
    expect(await screen.findByLabelText('Loading screen')).toBeInTheDocument();
    expect(document.title).toBe('Tickets · Switchboard');
  });
});
