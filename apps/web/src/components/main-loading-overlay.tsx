import { LoadingOverlay } from '@mantine/core';
import { useLoadingStore } from '../lib/loading-store';

/** full-screen dots while the main loading flag is set. */
export function MainLoadingOverlay() {
  const isMainLoading = useLoadingStore((state) => state.isMainLoading);
  return (
    <LoadingOverlay
      visible={isMainLoading}
      pos="fixed"
      zIndex={2000}
      loaderProps={{ type: 'dots', size: 'xl', 'aria-label': 'Loading' }}
      overlayProps={{ blur: 2 }}
    />
  );
}
