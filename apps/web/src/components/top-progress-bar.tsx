import { Box } from '@mantine/core';
import { useNavigation } from 'react-router';
import { PROGRESS_BAR_COLOUR } from '@switchboard/contracts';
import { showsRouteProgress } from '../lib/route-progress';

/** a dark-blue 3 px bar across the top while a route change loads. */
export function TopProgressBar() {
  const navigation = useNavigation();
  const isVisible = navigation.state !== 'idle' && navigation.location !== undefined && showsRouteProgress(navigation.location.pathname);
  if (!isVisible) return null;
  return (
    <Box
      role="progressbar"
      aria-label="Loading page"
      data-testid="top-progress-bar"
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        zIndex: 1000,
        backgroundColor: PROGRESS_BAR_COLOUR,
        transformOrigin: 'left',
        animation: 'switchboard-progress 1.2s ease-out infinite',
      }}
    />
  );
}
