import type { TSessionMspUser } from '@switchboard/contracts';
import '../../../app/styles/mantine-queue';
import { QueueArea } from '../components/queue-area';

/** The "tickets" navigation option for technicians (issue #10): loaded on first use. */
export function QueuePage({ user }: { user: TSessionMspUser }) {
  return <QueueArea user={user} />;
}
