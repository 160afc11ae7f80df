import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
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
  return (
    <QueryClientProvider client={queryClient}>
      <BrandedMantineProvider locationSource={routerLocation}>
        <ModalsProvider>
          <Notifications position="bottom-right" />
          <RouterProvider router={router} />
        </ModalsProvider>
      </BrandedMantineProvider>
    </QueryClientProvider>
  );
}
