import { afterEach, describe, expect, it } from 'vitest';
import { renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { AssistantPanel } from './assistant-panel';
import { resetAllStores } from '../../../lib/store-reset';
import { ASSISTANT_WIDTH_DEFAULT, ASSISTANT_WIDTH_MIN, DASHBOARD_NAVBAR_PX, MAIN_MIN_PX, MAIN_OPENING_PX, startingAssistantWidth } from '../lib/chat-layout';
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

describe('the starting width of Jarvis (review s25 #4, visual review s27)', () => {
  it('opens at min(800, window − navigation − 640): the page keeps 640 px where it can, and 800 where there is room', () => {
    expect(MAIN_OPENING_PX).toBe(640);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1440)).toBe(1440 - DASHBOARD_NAVBAR_PX - MAIN_OPENING_PX);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1920)).toBe(ASSISTANT_WIDTH_DEFAULT);
    // Where 640 cannot be kept, Jarvis opens at its minimum and the page keeps at least its own minimum.
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1092)).toBe(ASSISTANT_WIDTH_MIN);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1024)).toBe(ASSISTANT_WIDTH_MIN);
    expect(1024 - DASHBOARD_NAVBAR_PX - startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 1024)).toBeGreaterThanOrEqual(MAIN_MIN_PX);
    expect(startingAssistantWidth(ASSISTANT_WIDTH_DEFAULT, 700)).toBe(ASSISTANT_WIDTH_MIN);
  });

  it('keeps a width the person chose, within what leaves the page its minimum', () => {
    expect(startingAssistantWidth(700, 1440)).toBe(700);
    expect(startingAssistantWidth(900, 1600)).toBe(900);
    expect(startingAssistantWidth(900, 1280)).toBe(1280 - DASHBOARD_NAVBAR_PX - MAIN_MIN_PX);
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

  // Regression (visual review s27): at 1440 px the navigation (260) and Jarvis (800) left the page ~340 px.
  it('on a 1440 px window opens narrow enough to leave the page 640 px', () => {
    setWindowWidth(1440);
    renderHook(() => useJarvisLayout(true));
    expect(1440 - DASHBOARD_NAVBAR_PX - useAssistantUiStore.getState().width).toBe(MAIN_OPENING_PX);
  });

  it('a width the person dragged stays theirs when the dashboard opens again', () => {
    setWindowWidth(1440);
    useAssistantUiStore.getState().setWidth(760);
    renderHook(() => useJarvisLayout(true));
    expect(useAssistantUiStore.getState().width).toBe(760);
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
