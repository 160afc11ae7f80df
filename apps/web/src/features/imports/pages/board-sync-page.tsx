import { useParams } from 'react-router';
import { BoardSyncScreen } from '../components/board-sync-screen';

/** Route `/:msp/admin/board/sync` (lazy): the sync screen for the MSP in the path. */
export function BoardSyncPage() {
  return <BoardSyncScreen mspCustomDomain={useParams().msp ?? ''} />;
}
