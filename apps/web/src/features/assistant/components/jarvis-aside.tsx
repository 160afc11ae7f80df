import { useEffect } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import type { TSessionMspUser } from '@switchboard/contracts';
import { ASSISTANT_MOBILE_BELOW_PX } from '../lib/chat-layout';
import { defaultAssistantTab, useAssistantUiStore } from '../state/assistant-ui-store';
import type { useTicketFlow } from '../state/use-ticket-flow';
import { AssistantPanel } from './assistant-panel';
import { EngineerChat } from './engineer-chat';
import { TicketChat } from './ticket-chat';

type TTicketFlow = ReturnType<typeof useTicketFlow>;

/**
 * Where Jarvis sits in the dashboard: an AppShell aside of the chosen width, open at start only
 * above 1023 px, full width below 1023 px (R-041, decisions #13).
 */
export function useJarvisLayout() {
  const isMobile = useMediaQuery(`(max-width: ${ASSISTANT_MOBILE_BELOW_PX - 0.02}px)`) === true;
  const { isOpen, width, setOpen } = useAssistantUiStore();
  useEffect(() => {
    setOpen(window.innerWidth > ASSISTANT_MOBILE_BELOW_PX);
  }, [setOpen]);
  return {
    isMobile,
    isOpen,
    setOpen,
    aside: { width, breakpoint: `${ASSISTANT_MOBILE_BELOW_PX}px`, collapsed: { desktop: !isOpen, mobile: !isOpen } },
  };
}

export function JarvisAside({ user, flow, isMobile, psaType }: { user: TSessionMspUser; flow: TTicketFlow; isMobile: boolean; psaType: 'CONNECTWISE' | 'AUTOTASK' | null }) {
  // A client's ticket draft shows in the ticket area's "My Ticket" beside the chat; on a phone
  // (and for technicians, whose ticket area is the queue) it shows in the chat itself.
  const showDraftInChat = isMobile || user.userKind === 'technician';
  return (
    <AssistantPanel
      isMobile={isMobile}
      defaultTab={user.userKind === 'client' ? 'Tickets' : defaultAssistantTab(psaType)}
      tickets={<TicketChat user={user} flow={flow} showDraft={showDraftInChat} />}
      engineer={<EngineerChat user={user} />}
    />
  );
}
