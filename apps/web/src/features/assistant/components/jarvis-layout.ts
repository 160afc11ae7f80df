import { useEffect } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { ASSISTANT_MOBILE_BELOW_PX } from '../lib/chat-layout';
import { useAssistantUiStore } from '../state/assistant-ui-store';

/**
 * Where Jarvis sits in the dashboard: an AppShell aside of the chosen width, open at start only
 * above 1023 px, full width below 1023 px (R-041, decisions #13).
 */
export function useJarvisLayout(opensAtStart: boolean) {
  const isMobile = useMediaQuery(`(max-width: ${ASSISTANT_MOBILE_BELOW_PX - 0.02}px)`) === true;
  const { isOpen, width, setOpen } = useAssistantUiStore();
  useEffect(() => {
    // A client comes to talk to Jarvis; a technician works the queue beside it and opens it from the header.
    setOpen(opensAtStart && window.innerWidth > ASSISTANT_MOBILE_BELOW_PX);
  }, [setOpen, opensAtStart]);
  return {
    isMobile,
    isOpen,
    setOpen,
    aside: { width, breakpoint: `${ASSISTANT_MOBILE_BELOW_PX}px`, collapsed: { desktop: !isOpen, mobile: !isOpen } },
  };
}

