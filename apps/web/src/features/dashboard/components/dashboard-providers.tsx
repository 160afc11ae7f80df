import type { ReactNode } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import '../../../app/styles/mantine-extra';

/**
 * Confirm dialogs and notifications exist only behind sign-in, so their providers (and their
 * stylesheets) load with the dashboards rather than with every page (issue #6 §5).
 */
export function DashboardProviders({ children }: { children: ReactNode }) {
  return (
    <ModalsProvider>
      <Notifications position="bottom-right" />
      {children}
    </ModalsProvider>
  );
}
