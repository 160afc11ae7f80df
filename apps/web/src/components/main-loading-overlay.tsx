import { LoadingOverlay } from '@mantine/core';
import { useLocation, useNavigation } from 'react-router';
import { useLoadingStore } from '../lib/loading-store';
import { isLoginToDashboard } from '../lib/route-progress';

/** full-screen dots while the main loading flag is set, and while a login hands over to the dashboard. */
export function MainLoadingOverlay() {
  const isMainLoading = useLoadingStore((state) => state.isMainLoading);
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const isEnteringDashboard = navigation.state !== 'idle' && navigation.location !== undefined && isLoginToDashboard(pathname, navigation.location.pathname);
  return (
    <LoadingOverlay
      visible={isMainLoading || isEnteringDashboard}
      pos="fixed"
      zIndex={2000}
      loaderProps={{ type: 'dots', size: 'xl', 'aria-label': 'Loading' }}
      overlayProps={{ blur: 2 }}
    />
  );
}
