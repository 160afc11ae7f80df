import { useSessionUser } from '../../session/api/session-queries';
import { DashboardProviders } from '../components/dashboard-providers';
import { MspDashboardShell } from '../components/msp-dashboard-shell';

/** `/{msp}/dashboard/{id}`, `/{msp}/dashboard/{id}/tickets` and `/admin`; the route loader has checked the session. */
export function MspDashboardPage() {
  const user = useSessionUser();
  if (user?.principal !== 'user') return null;
  return (
    <DashboardProviders>
      <MspDashboardShell user={user} />
    </DashboardProviders>
  );
}

export default MspDashboardPage;
