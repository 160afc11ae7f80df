/** Every zustand store registers how to return to its initial state, so logout can reset them all. */
const storeResetters = new Set<() => void>();

export function registerStoreReset(reset: () => void): void {
  storeResetters.add(reset);
}

export function resetAllStores(): void {
  for (const reset of storeResetters) reset();
}
