import './styles/mantine-base';
import './global.css';
import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { queryClient } from '../lib/query-client';
import { BrandedMantineProvider } from './brand/branded-mantine-provider';
import { router } from './router';

const routerLocation = {
  subscribe: (listener: () => void) => router.subscribe(listener),
  getPathname: () => router.state.location.pathname,
};

export function App() {
  // A call refused because the session ended sends the person to sign in, in the app (no page load). Loaded after the
  // first screen, out of the sign-in pages' first load (issue #6 §5); the guards have just checked the session then.
  useEffect(() => {
    const watching = import('../features/session/session-end').then(({ watchForEndedSession }) => watchForEndedSession({ queryClient, router }));
    return () => void watching.then((stop) => stop(), () => undefined);
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <BrandedMantineProvider locationSource={routerLocation}>
        <RouterProvider router={router} />
      </BrandedMantineProvider>
    </QueryClientProvider>
  );
}
