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

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`) || path.startsWith(`${prefix}#`);
}

/**
 * Where a sign-in goes back to: the `?returnTo=` path when it is one of this site's pages that the
 * signed-in user's own dashboard shows (their dashboard and their MSP's admin screens, or the
 * account's dashboard); null otherwise (another user's page, another site), and the sign-in goes to
 * the user's home.
 */
export function returnPathFor(user: TSessionUser, raw: string | null): string | null {
  const path = raw === null ? null : sameOriginPath(raw);
  if (path === null) return null;
  const prefixes =
    user.principal === 'user' ? [`/${user.mspCustomDomain}/dashboard/${user.id}`, `/${user.mspCustomDomain}/admin`, '/admin'] : [`/dashboard/${user.id}`, '/public/dashboard'];
  return prefixes.some((prefix) => isUnder(path, prefix)) ? path : null;
}
