import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { ASSISTANT_MOBILE_BELOW_PX, startingAssistantWidth } from '../lib/chat-layout';
import { useAssistantUiStore } from '../state/assistant-ui-store';

/**
 * Where Jarvis sits in the dashboard: an AppShell aside of the chosen width, open at start only
 * above 1023 px, full width below 1023 px (R-041, decisions #13).
 */
export function useJarvisLayout(opensAtStart: boolean) {
  const isMobile = useMediaQuery(`(max-width: ${ASSISTANT_MOBILE_BELOW_PX - 0.02}px)`) === true;
  const { isOpen, width, setOpen } = useAssistantUiStore();
  useEffect(() => {
    const isWide = window.innerWidth > ASSISTANT_MOBILE_BELOW_PX;
    // Beside the open navigation, Jarvis starts no wider than leaves the page its minimum (review s25 #4).
    if (isWide) {
      const store = useAssistantUiStore.getState();
      store.setWidth(startingAssistantWidth(store.width, window.innerWidth));
    }
    // A client comes to talk to Jarvis; a technician works the queue beside it and opens it from the header.
    setOpen(opensAtStart && isWide);
  }, [setOpen, opensAtStart]);
  return {
    isMobile,
    isOpen,
    setOpen,
    aside: { width, breakpoint: `${ASSISTANT_MOBILE_BELOW_PX}px`, collapsed: { desktop: !isOpen, mobile: !isOpen } },
  };
}


/**
 * Below 1023 px Jarvis covers the whole screen, so it acts as a dialog there: the page under it is
 * inert (the tab order went through controls hidden behind it), opening moves the focus into it,
 * Escape closes it, and closing gives the focus back to the header's Jarvis button.
 */
export function useJarvisOverlay(isCovering: boolean, setOpen: (isOpen: boolean) => void) {
  const toggleRef = useRef<HTMLButtonElement>(null);
  const asideRef = useRef<HTMLElement>(null);
  const wasCovering = useRef(false);
  useEffect(() => {
    if (isCovering) asideRef.current?.querySelector<HTMLElement>('button:not([disabled]), textarea, input')?.focus();
    else if (wasCovering.current) toggleRef.current?.focus();
    wasCovering.current = isCovering;
  }, [isCovering]);
  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (!isCovering || event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    setOpen(false);
  }
  return { toggleRef, asideRef, handleKeyDown };
}
