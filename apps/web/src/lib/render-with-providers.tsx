import type { ReactElement } from 'react';
import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createBrandTheme } from '../app/brand/brand-theme';

/**
 * jsdom lays nothing out (every rect and the viewport are 0×0), so floating-ui's `hide` reports every popover's target
 * as clipped and Mantine's Popover (hideDetached) gives an open dropdown `display: none` once placed: a test then saw an
 * open popover only by querying before that, and a "closed" check passed on a popover still open (review s29). Off
 * here, so a dropdown in the document is an open one, as in a browser; the app's theme is otherwise the same.
 */
const testTheme = () => mergeThemeOverrides(createBrandTheme(), { components: { Popover: { defaultProps: { hideDetached: false } } } });

/** Test helper: the app's providers around one component, with a fresh query cache per test. */
export function renderWithProviders(ui: ReactElement, options: { prepareCache?: (queryClient: QueryClient) => void } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  options.prepareCache?.(queryClient);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={testTheme()}>
        <ModalsProvider>
          <Notifications />
          {ui}
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
