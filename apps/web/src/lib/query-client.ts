import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** One client for the app; route loaders use it too, so they share the cache with components. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Client errors (4xx) will not change on retry; only transient failures are retried.
      retry: (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
