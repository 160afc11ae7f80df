import { afterEach, describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
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
