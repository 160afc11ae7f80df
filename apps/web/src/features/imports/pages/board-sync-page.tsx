import { useParams } from 'react-router';
import { DashboardProviders } from '../../dashboard/components/dashboard-providers';
import { BoardSyncScreen } from '../components/board-sync-screen';

/** Route `/:msp/admin/board/sync` (lazy): the sync screen for the MSP in the path; its toasts need the dashboard providers. */
export function BoardSyncPage() {
  return (
    <DashboardProviders>
      <BoardSyncScreen mspCustomDomain={useParams().msp ?? ''} />
    </DashboardProviders>
  );
}
