import { Anchor } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DashboardProviders } from '../../dashboard/components/dashboard-providers';
import { homePathFor } from '../../session/session-guards';
import { useSessionUser } from '../../session/api/session-queries';
import { BoardSyncScreen } from '../components/board-sync-screen';

/** Route `/:msp/admin/board/sync` (lazy): the sync screen for the MSP in the path; its toasts need the dashboard providers. */
export function BoardSyncPage() {
  const user = useSessionUser();
  return (
    <DashboardProviders>
      {/* The screen stands outside the dashboard shell: this is the way back (the dashboard reopens its last admin option). */}
      {user && (
        <Anchor component={Link} to={homePathFor(user)} px="md" pt="md" display="inline-block">
          ← Back to the dashboard
        </Anchor>
      )}
      <BoardSyncScreen mspCustomDomain={useParams().msp ?? ''} />
    </DashboardProviders>
  );
}
