import { MspDashboardShell } from '../../dashboard/components/msp-dashboard-shell';
import { DashboardProviders } from '../../dashboard/components/dashboard-providers';
import { useSessionUser } from '../../session/api/session-queries';

/** Route `/:msp/admin/board/sync` (lazy): the sync screen inside the dashboard shell (header, navigation), under Board. */
export function BoardSyncPage() {
  const user = useSessionUser();
  // The route's loader admitted only a user of the MSP in the path.
  if (user?.principal !== 'user') return null;
  return (
    <DashboardProviders>
      <MspDashboardShell user={user} routeScreen="board-sync" />
    </DashboardProviders>
  );
}
