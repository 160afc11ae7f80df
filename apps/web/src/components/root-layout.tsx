import { Outlet } from 'react-router';
import { MainLoadingOverlay } from './main-loading-overlay';
import { TopProgressBar } from './top-progress-bar';

export function RootLayout() {
  return (
    <>
      <TopProgressBar />
      <MainLoadingOverlay />
      <Outlet />
    </>
  );
}
