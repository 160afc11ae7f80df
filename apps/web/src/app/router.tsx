import { Center, Loader } from '@mantine/core';
import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { RootLayout } from '../components/root-layout';
import { RouteErrorPage } from '../components/route-error-page';
import { authRoutes } from '../features/auth/routes';
import { requireAccountLoader, requireAdminLoader, requireBoardSyncLoader, requireMspUserLoader } from '../features/session/session-guards';

function FirstLoadFallback() {
  return (
    <Center h="100vh">
      <Loader type="dots" aria-label="Loading" />
    </Center>
  );
}

const lazyMspDashboard = async () => ({ Component: (await import('../features/dashboard/pages/msp-dashboard-page')).MspDashboardPage });
const lazyBoardSync = async () => ({ Component: (await import('../features/imports/pages/board-sync-page')).BoardSyncPage });
// The 404 page reads the session and titles the tab: out of the sign-in pages' first load (issue #6 §5).
const lazyNotFound = async () => ({ Component: (await import('../components/not-found-page')).NotFoundPage });
const lazyAccountDashboard = async () => ({ Component: (await import('../features/dashboard/pages/account-dashboard-page')).AccountDashboardPage });

/**
 * Both spec documents' routes. React Router ranks static segments (/admin, /auth/..., /public/...,
 * /dashboard/...) above the one-segment `/:msp` landing, which is what R-030 asks for.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: FirstLoadFallback,
    children: [
      ...authRoutes,
      { path: '/admin', loader: requireAdminLoader, lazy: lazyMspDashboard },
      { path: '/dashboard/:id', loader: requireAccountLoader, lazy: lazyAccountDashboard },
      { path: '/:msp/dashboard/:id', loader: requireMspUserLoader, lazy: lazyMspDashboard },
      { path: '/:msp/dashboard/:id/tickets', loader: requireMspUserLoader, lazy: lazyMspDashboard },
      // The sync screen (01 §2), reached from MSP integrations. Its path has no user id: its guard checks the MSP and the sync permission.
      { path: '/:msp/admin/board/sync', loader: requireBoardSyncLoader, lazy: lazyBoardSync },
      { path: '*', lazy: lazyNotFound },
    ],
  },
];

export const router = createBrowserRouter(routes);
