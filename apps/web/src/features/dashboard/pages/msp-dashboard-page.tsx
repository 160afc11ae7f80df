import { useSessionUser } from '../../session/api/session-queries';
import { MspDashboardShell } from '../components/msp-dashboard-shell';

/** `/{msp}/dashboard/{id}`, `/{msp}/dashboard/{id}/tickets` and `/admin`; the route loader has checked the session. */
export function MspDashboardPage() {
  const user = useSessionUser();
  if (user?.principal !== 'user') return null;
  return <MspDashboardShell user={user} />;
}

export default MspDashboardPage;
