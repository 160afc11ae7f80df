import { create } from 'zustand';
import { registerStoreReset } from './store-reset';

type TLoadingState = {
  /** 01 §2: the full-screen dots overlay shows while this is set (also from technician login to the dashboard). */
  isMainLoading: boolean;
  setMainLoading: (isMainLoading: boolean) => void;
};

export const useLoadingStore = create<TLoadingState>()((set) => ({
  isMainLoading: false,
  setMainLoading: (isMainLoading) => set({ isMainLoading }),
}));

registerStoreReset(() => useLoadingStore.setState({ isMainLoading: false }));

/** For code outside React (sign-in handlers) that hands over to the dashboard. */
export function setMainLoading(isMainLoading: boolean): void {
  useLoadingStore.getState().setMainLoading(isMainLoading);
}
