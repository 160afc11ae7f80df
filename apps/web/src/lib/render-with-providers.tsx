import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createBrandTheme } from '../app/brand/brand-theme';

/** Test helper: the app's providers around one component, with a fresh query cache per test. */
export function renderWithProviders(ui: ReactElement, options: { prepareCache?: (queryClient: QueryClient) => void } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  options.prepareCache?.(queryClient);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={createBrandTheme()}>
        <ModalsProvider>
          <Notifications />
          {ui}
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
