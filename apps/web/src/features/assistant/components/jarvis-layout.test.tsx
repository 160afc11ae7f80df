import { afterEach, describe, expect, it } from 'vitest';
import { renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { AssistantPanel } from './assistant-panel';
import { resetAllStores } from '../../../lib/store-reset';
import { ASSISTANT_WIDTH_DEFAULT, ASSISTANT_WIDTH_MIN, DASHBOARD_NAVBAR_PX, MAIN_MIN_PX, startingAssistantWidth } from '../lib/chat-layout';
import { useAssistantUiStore } from '../state/assistant-ui-store';
import { useJarvisLayout } from './jarvis-layout';

const originalWidth = window.innerWidth;
function setWindowWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}
afterEach(() => {
  setWindowWidth(originalWidth);
  resetAllStores();
});

describe('the starting width of Jarvis (review s25 #4)', () => {
  it('leaves the page its minimum beside the open navigation, and keeps 800 where there is room', () => {
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1024)).toBe(1024 - DASHBOARD_NAVBAR_PX - MAIN_MIN_PX);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1092)).toBe(1092 - DASHBOARD_NAVBAR_PX - MAIN_MIN_PX);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1440)).toBe(ASSISTANT_WIDTH_DEFAULT);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 700)).toBe(ASSISTANT_WIDTH_MIN);
  });

  // Regression: at 1024–1092 px the navigation (260) and Jarvis (800) left the client's ticket area 0 px wide.
  it('a client dashboard opening at 1024 px starts Jarvis narrow enough for the ticket area', () => {
    setWindowWidth(1024);
    const { result } = renderHook(() => useJarvisLayout(true));
    expect(result.current.isOpen).toBe(true);
    const { width } = useAssistantUiStore.getState();
    expect(1024 - DASHBOARD_NAVBAR_PX - width).toBeGreaterThanOrEqual(MAIN_MIN_PX);
    expect(result.current.aside.width).toBe(width);
  });

  it('keeps the default 800 px on a 1440 px window', () => {
    setWindowWidth(1440);
    renderHook(() => useJarvisLayout(true));
    expect(useAssistantUiStore.getState().width).toBe(ASSISTANT_WIDTH_DEFAULT);
  });
});

// Regression: dragging (or the arrow keys on) Jarvis's edge kept only the window's width in mind, so with the navigation
// panel open the page between them could be squeezed to 60 px.
describe('resizing Jarvis beside the open navigation panel', () => {
  it('stops widening where the page between the navigation and Jarvis keeps its minimum', async () => {
    setWindowWidth(1280);
    const navbar = document.createElement('nav');
    navbar.className = 'mantine-AppShell-navbar';
    navbar.getBoundingClientRect = () => ({ left: 0, right: DASHBOARD_NAVBAR_PX, top: 0, bottom: 800, width: DASHBOARD_NAVBAR_PX, height: 800, x: 0, y: 0, toJSON: () => ({}) });
    document.body.append(navbar);
    try {
      renderWithProviders(<AssistantPanel defaultTab="Tickets" isMobile={false} tickets={<p>tickets</p>} engineer={<p>engineer</p>} />);
      const edge = screen.getByRole('separator', { name: 'Resize the assistant panel' });
      edge.focus();
      for (let press = 0; press < 8; press += 1) await userEvent.keyboard('{Shift>}{ArrowLeft}{/Shift}');
      expect(Number(edge.getAttribute('aria-valuenow'))).toBe(1280 - DASHBOARD_NAVBAR_PX - MAIN_MIN_PX);
    } finally {
      navbar.remove();
    }
  });
});
