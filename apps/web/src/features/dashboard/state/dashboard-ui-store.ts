import { create } from 'zustand';
import { loadLastUiState, saveLastUiState } from '../../../lib/local-storage';
import type { TLastUiState, TTopLevelTab } from '../../../lib/local-storage';
import { registerStoreReset } from '../../../lib/store-reset';
import { panelsStartOpen, restoreUiState } from './restore-ui-state';

export const PANELS = ['nav', 'admin'] as const;
export type TPanel = (typeof PANELS)[number];

type TDashboardUiStore = {
  ui: TLastUiState;
  openPanels: Record<TPanel, boolean>;
  /** Set from the path and the saved state when a dashboard mounts. */
  initialise: (pathname: string, windowWidth: number) => void;
  setUiState: (ui: TLastUiState) => void;
  setActiveTab: (tab: TTopLevelTab) => void;
  togglePanel: (panel: TPanel) => void;
};

function initialPanels(isOpen: boolean): Record<TPanel, boolean> {
  return { nav: isOpen, admin: isOpen };
}

const INITIAL_UI: TLastUiState = { activeTab: 'iTAgent', currentOption: null, navOption: null, introScreen: false };

export const useDashboardUiStore = create<TDashboardUiStore>()((set, get) => ({
  ui: INITIAL_UI,
  openPanels: initialPanels(false),
  initialise: (pathname, windowWidth) => {
    const ui = restoreUiState(pathname, loadLastUiState());
    saveLastUiState(ui);
    set({ ui, openPanels: initialPanels(panelsStartOpen(windowWidth)) });
  },
  setUiState: (ui) => {
    saveLastUiState(ui);
    set({ ui });
  },
  setActiveTab: (activeTab) => get().setUiState({ ...get().ui, activeTab }),
  togglePanel: (panel) => set((state) => ({ openPanels: { ...state.openPanels, [panel]: !state.openPanels[panel] } })),
}));

registerStoreReset(() => useDashboardUiStore.setState({ ui: INITIAL_UI, openPanels: initialPanels(false) }));
