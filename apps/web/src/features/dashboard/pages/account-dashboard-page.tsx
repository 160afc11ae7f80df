import { useSessionUser } from '../../session/api/session-queries';
import { AccountDashboardShell } from '../components/account-dashboard-shell';

/** `/dashboard/{id}`; the route loader has checked the session. */
export function AccountDashboardPage() {
  const user = useSessionUser();
  if (user?.principal !== 'account') return null;
  return <AccountDashboardShell user={user} />;
}

export default AccountDashboardPage;
