import type { TSessionMspUser } from '@switchboard/contracts';
import { defaultAssistantTab, useAssistantUiStore } from '../state/assistant-ui-store';
import type { useTicketFlow } from '../state/use-ticket-flow';
import { AssistantPanel } from './assistant-panel';
import { EngineerChat } from './engineer-chat';
import { TicketChat } from './ticket-chat';

type TTicketFlow = ReturnType<typeof useTicketFlow>;

export function JarvisAside({ user, flow, isMobile, psaType }: { user: TSessionMspUser; flow: TTicketFlow; isMobile: boolean; psaType: 'CONNECTWISE' | 'AUTOTASK' | null }) {
  // A client's ticket draft shows in the ticket area's "My Ticket" beside the chat; on a phone
  // (and for technicians, whose ticket area is the queue) it shows in the chat itself.
  const isTicketAreaRoomy = useAssistantUiStore((state) => state.isTicketAreaRoomy);
  const showDraftInChat = isMobile || user.userKind === 'technician' || !isTicketAreaRoomy;
  return (
    <AssistantPanel
      isMobile={isMobile}
      defaultTab={user.userKind === 'client' ? 'Tickets' : defaultAssistantTab(psaType)}
      tickets={<TicketChat user={user} flow={flow} showDraft={showDraftInChat} />}
      engineer={<EngineerChat user={user} />}
    />
  );
}
