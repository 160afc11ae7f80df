import './styles/mantine-base';
import './global.css';
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
        <RouterProvider router={router} />
      </BrandedMantineProvider>
    </QueryClientProvider>
  );
}
