import { RESERVED_CUSTOM_DOMAINS, customDomainProblem } from '@switchboard/contracts';

/**
 * 01 §2 / R-034: route changes to the auth, activation, forgot-password and landing paths show no
 * loading indicator; every other route change shows the top progress bar.
 */
export function showsRouteProgress(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/' || path === '/auth' || path.startsWith('/auth/')) return false;
  if (path === '/public' || path === '/public/signup' || path === '/msp/signup') return false;
  if (/\/activate$/.test(path) || /\/forgot(\/verification(\/createpassword)?)?$/.test(path)) return false;
  const segments = path.split('/').filter((segment) => segment !== '');
  // One segment that is not a literal route is an MSP landing page; /public/{msp} is one too.
  if (segments.length === 1 && !RESERVED_CUSTOM_DOMAINS.has(segments[0] ?? '')) return false;
  if (segments.length === 2 && segments[0] === 'public' && segments[1] !== 'dashboard') return false;
  return true;
}

const LOGIN_PATH_PATTERN = /^\/auth\/login(\/tech|\/client)?\/?$/;
const DASHBOARD_PATH_PATTERN = /^\/([a-z0-9-]+\/)?dashboard\//;

/** leaving a login screen (the general, technician, client or MSP login) for a dashboard. */
export function isLoginToDashboard(fromPathname: string, toPathname: string): boolean {
  const segments = fromPathname.split('/').filter((segment) => segment !== '');
  const isMspLogin = segments.length === 1 && mspFromPath(fromPathname) !== null;
  return (LOGIN_PATH_PATTERN.test(fromPathname) || isMspLogin) && DASHBOARD_PATH_PATTERN.test(toPathname);
}

/** The MSP a path belongs to (`/{msp}/...`), or null for literal routes such as /auth or /admin. */
export function mspFromPath(pathname: string): string | null {
  const first = pathname.split('/').find((segment) => segment !== '');
  return first !== undefined && customDomainProblem(first) === null ? first : null;
}
