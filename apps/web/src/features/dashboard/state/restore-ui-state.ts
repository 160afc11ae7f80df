import type { TLastUiState, TTopLevelTab } from '../../../lib/local-storage';

function isRewstPath(pathname: string): boolean {
  return pathname.startsWith('/rewst/') || pathname === '/rewst';
}

function isDashboardPath(pathname: string): boolean {
  return pathname.includes('/dashboard/') || pathname.endsWith('/dashboard');
}

/** employees, or copilots for a /rewst/ path outside the dashboard. */
export function defaultNavOption(pathname: string): string {
  return isRewstPath(pathname) && !isDashboardPath(pathname) ? 'copilots' : 'employees';
}

/**
 * A technician's iTAgent screen when the navigation option is none of theirs (R-032's default, employees, is an admin
 * screen): the one their address names, so the screen and the menu match it: the queue ("tickets") at
 * `…/dashboard/{id}/tickets`, where sign-in lands, else the Overview. The stored option stays R-032's.
 */
export function technicianScreenForPath(pathname: string): 'tickets' | 'overview' {
  return /\/dashboard\/[^/]+\/tickets\/?$/.test(pathname) ? 'tickets' : 'overview';
}

/**
 * the UI state to open with. On the recognised /admin (and /{msp}/admin/…), /dashboard/ and /rewst/ paths
 * the saved state is restored, and /admin always selects the admin tab; elsewhere the defaults
 * apply (iTAgent tab, employees or copilots).
 */
export function restoreUiState(pathname: string, saved: TLastUiState | null): TLastUiState {
  const fallbackOption = defaultNavOption(pathname);
  // `/admin` (the spec's) and an MSP's routed admin screens (`/{msp}/admin/board/sync`, R-206), which open in the admin tab.
  const isAdminPath = /^\/([^/]+\/)?admin(\/|$)/.test(pathname);
  const restored = isAdminPath || isDashboardPath(pathname) || isRewstPath(pathname) ? saved : null;
  const activeTab: TTopLevelTab = isAdminPath ? 'admin' : (restored?.activeTab ?? 'iTAgent');
  return {
    activeTab,
    currentOption: restored?.currentOption ?? fallbackOption,
    navOption: restored?.navOption ?? fallbackOption,
    introScreen: restored?.introScreen ?? false,
  };
}

/** Decisions #13: panels start open only when the window is wider than 1023 px. */
export function panelsStartOpen(windowWidth: number): boolean {
  return windowWidth > 1023;
}
