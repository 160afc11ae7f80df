import { useRef } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { ActionIcon, Box, Button, Group, Tabs, Title, Tooltip } from '@mantine/core';
import { clampAssistantWidth } from '../lib/chat-layout';
import { useAssistantUiStore } from '../state/assistant-ui-store';
import type { TAssistantTab } from '../state/assistant-ui-store';

/** Where the page beside Jarvis starts: right of the dashboard's navigation panel when it is open (a closed one has slid off to the left). */
function pageLeftPx(): number {
  const navbar = document.querySelector('.mantine-AppShell-navbar');
  return navbar ? Math.max(0, navbar.getBoundingClientRect().right) : 0;
}

/** A width for Jarvis that leaves the page between the navigation and Jarvis its minimum. */
const clampToRoom = (width: number) => clampAssistantWidth(width, window.innerWidth - pageLeftPx());

type TAssistantPanelProps = {
  defaultTab: TAssistantTab;
  isMobile: boolean;
  tickets: ReactNode;
  engineer: ReactNode;
};

/**
 * Jarvis's panel (02 §2): tabs "Tickets" and "Engineer"; 800 px wide by default, resizable by
 * dragging or the arrow keys on its edge, "Reset width" goes back to 600. Below 1023 px
 * it takes the whole width and has no edge to drag.
 */
export function AssistantPanel({ defaultTab, isMobile, tickets, engineer }: TAssistantPanelProps) {
  const { width, tab, setTab, setWidth, resetWidth, setOpen } = useAssistantUiStore();
  const dragStart = useRef<{ x: number; width: number } | null>(null);
  const activeTab = tab ?? defaultTab;

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    dragStart.current = { x: event.clientX, width };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function handlePointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!dragStart.current) return;
    // The panel sits on the right: dragging its left edge leftwards widens it.
    setWidth(clampToRoom(dragStart.current.width + dragStart.current.x - event.clientX));
  }
  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 100 : 20;
    if (event.key === 'ArrowLeft') setWidth(clampToRoom(width + step));
    else if (event.key === 'ArrowRight') setWidth(clampToRoom(width - step));
    else return;
    event.preventDefault();
  }

  return (
    <Box h="100%" style={{ display: 'flex', position: 'relative' }}>
      {!isMobile && (
        <Box
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the assistant panel"
          aria-valuenow={width}
          tabIndex={0}
          onPointerDown={handlePointerDown}
          onPointerMove={handlePointerMove}
          onPointerUp={() => {
            dragStart.current = null;
          }}
          onKeyDown={handleKeyDown}
          style={{ width: 6, cursor: 'col-resize', flexShrink: 0, background: 'var(--mantine-color-default-border)' }}
        />
      )}
      <Box style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }} p="sm">
        <Group justify="space-between" wrap="nowrap" mb="xs">
          <Title order={2} size="h4">
            Jarvis
          </Title>
          <Group gap="xs" wrap="nowrap">
            {!isMobile && (
              <Tooltip label={`Width ${width} px`}>
                <Button size="compact-xs" variant="subtle" onClick={resetWidth}>
                  Reset width
                </Button>
              </Tooltip>
            )}
            <ActionIcon variant="subtle" aria-label="Close the assistant" onClick={() => setOpen(false)}>
              <span aria-hidden="true">✕</span>
            </ActionIcon>
          </Group>
        </Group>
        <Tabs
          value={activeTab}
          onChange={(value) => {
            if (value === 'Tickets' || value === 'Engineer') setTab(value);
          }}
          keepMounted
          style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}
        >
          <Tabs.List aria-label="Assistant tabs">
            <Tabs.Tab value="Tickets">Tickets</Tabs.Tab>
            <Tabs.Tab value="Engineer">Engineer</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="Tickets" pt="xs" style={{ flex: 1, minHeight: 0, display: activeTab === 'Tickets' ? 'flex' : 'none', flexDirection: 'column' }}>
            {tickets}
          </Tabs.Panel>
          <Tabs.Panel value="Engineer" pt="xs" style={{ flex: 1, minHeight: 0, display: activeTab === 'Engineer' ? 'flex' : 'none', flexDirection: 'column' }}>
            {engineer}
          </Tabs.Panel>
        </Tabs>
      </Box>
    </Box>
  );
}
