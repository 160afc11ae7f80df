// Read only when a sign-in ends or a session ends, so it stays out of the sign-in pages' first load (issue #6 §5).
import type { TSessionUser } from '@switchboard/contracts';

/** The sign-in page of a user whose session is gone: MSP users their MSP's page, general accounts /auth/login. */
export function signInPathFor(user: TSessionUser): string {
  return user.principal === 'user' ? `/${user.mspCustomDomain}` : '/auth/login';
}

const SAME_ORIGIN_BASE = 'https://same-origin.invalid';

const hasControlCharacter = (text: string) => [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** `raw` as a path of this site (path, query and hash), or null for anything else: other origins, `//host`, `\`, control characters. */
function sameOriginPath(raw: string): string | null {
  if (raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControlCharacter(raw)) return null;
  try {
    const url = new URL(raw, SAME_ORIGIN_BASE);
    return url.origin === SAME_ORIGIN_BASE ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/** The pages of the user's own area that the router has (app/router.tsx): anything else under them is the 404 page. */
function ownPagesOf(user: TSessionUser): string[] {
  if (user.principal !== 'user') return [`/dashboard/${user.id}`, '/public/dashboard'];
  const dashboard = `/${user.mspCustomDomain}/dashboard/${user.id}`;
  return [dashboard, `${dashboard}/tickets`, `/${user.mspCustomDomain}/admin/board/sync`, '/admin'];
}

/**
 * Where a sign-in goes back to: the `?returnTo=` path (with its query and hash) when it is one of the
 * pages of this site that the signed-in user's own area has (their dashboard, the MSP's sync screen,
 * /admin, or the account's dashboard); null otherwise (another user's page, another site, a page
 * that does not exist: review s29 landed on the 404 page under the sign-in's loading dots), and the
 * sign-in goes to the user's home.
 */
export function returnPathFor(user: TSessionUser, raw: string | null): string | null {
  const path = raw === null ? null : sameOriginPath(raw);
  if (path === null) return null;
  // React Router matches a page with or without one trailing slash.
  const pathname = new URL(path, SAME_ORIGIN_BASE).pathname.replace(/(.)\/$/, '$1');
  return ownPagesOf(user).includes(pathname) ? path : null;
}
