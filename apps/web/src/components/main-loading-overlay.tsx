import { Center, Loader } from '@mantine/core';
import { useLocation, useNavigation } from 'react-router';
import { useLoadingStore } from '../lib/loading-store';
import { isLoginToDashboard } from '../lib/route-progress';

/** full-screen dots while the main loading flag is set, and while a login hands over to the dashboard. */
export function MainLoadingOverlay() {
  const isMainLoading = useLoadingStore((state) => state.isMainLoading);
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const isEnteringDashboard = navigation.state !== 'idle' && navigation.location !== undefined && isLoginToDashboard(pathname, navigation.location.pathname);
  if (!isMainLoading && !isEnteringDashboard) return null;
  // A plain fixed layer, not Mantine's LoadingOverlay: that one brings Overlay and Transition onto every page's first load (issue #6 §5).
  return (
    <Center
      pos="fixed"
      inset={0}
      style={{ zIndex: 2000, backgroundColor: 'rgba(255, 255, 255, 0.6)', backdropFilter: 'blur(2px)' }}
    >
      <Loader type="dots" size="xl" aria-label="Loading" />
    </Center>
  );
}
