import { useSessionUser } from '../../session/api/session-queries';
import { AccountDashboardShell } from '../components/account-dashboard-shell';
import { DashboardProviders } from '../components/dashboard-providers';

/** `/dashboard/{id}`; the route loader has checked the session. */
export function AccountDashboardPage() {
  const user = useSessionUser();
  if (user?.principal !== 'account') return null;
  return (
    <DashboardProviders>
      <AccountDashboardShell user={user} />
    </DashboardProviders>
  );
}

export default AccountDashboardPage;
