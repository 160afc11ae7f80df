import { test as base, expect, type APIRequestContext, type Cookie, type Page } from '@playwright/test';
import { SESSION_COOKIE } from '@switchboard/contracts';
import { DEMO_PASSWORD, DEMO_SIGN_INS } from '../apps/server/src/demo/seed-demo';

export { expect };
export { DEMO_PASSWORD, DEMO_SIGN_INS };

const CSRF = { 'x-switchboard-csrf': '1' };

/** The newest 6-digit code mailed to an address after `since` (codes land in the dev outbox). */
export async function readLatestCode(request: APIRequestContext, email: string, since = new Date(0)): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await request.get(`/dev/outbox?to=${encodeURIComponent(email)}`);
    if (response.ok()) {
      const { items } = (await response.json()) as { items: Array<{ text: string; createdAt: string }> };
      const fresh = items.find((item) => new Date(item.createdAt) >= since);
      const code = fresh?.text.match(/^\s*(\d{6})\s*$/m)?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification code mailed to ${email}`);
}

/**
 * The demo admin's session, signed in once and reused by the next journeys of this worker while the
 * server still accepts it: a dozen journeys act as the demo admin, and an account may sign in only
 * 20 times in 5 minutes (issue #2), a limit the journeys must not come near.
 */
let demoAdminSession: { cookie: Cookie; redirectTo: string } | undefined;

/** Puts the kept demo admin session into the page's context when the server still accepts it. */
async function reuseDemoAdminSession(page: Page, email: string): Promise<{ redirectTo: string } | undefined> {
  if (!demoAdminSession) return undefined;
  const { cookie, redirectTo } = demoAdminSession;
  await page.context().addCookies([cookie]);
  const check = await page.request.get('/auth/api/auth/microsoft-user');
  const body = check.ok() ? ((await check.json()) as { authenticated?: boolean; user?: { email?: string } }) : undefined;
  if (body?.authenticated && body.user?.email?.toLowerCase() === email.toLowerCase()) return { redirectTo };
  // Ended (a journey logged out, or it expired): sign in afresh.
  demoAdminSession = undefined;
  await page.context().clearCookies({ name: SESSION_COOKIE });
  return undefined;
}

/**
 * Signs a page's browser context in through the API (email → password → mailed code), the way
 * the Epic Stack fixtures do: journeys that are not about sign-in skip the sign-in screens. The demo
 * admin's session is kept and reused across journeys (see `demoAdminSession`).
 */
export async function signInThroughApi(
  page: Page,
  user: { msp: string; email: string; password: string; kind: 'technician' | 'client' },
): Promise<{ redirectTo: string }> {
  const admin = demoUser('admin');
  const isDemoAdmin = user.kind === 'technician' && user.msp === admin.msp && user.email.toLowerCase() === admin.email.toLowerCase();
  if (isDemoAdmin) {
    const reused = await reuseDemoAdminSession(page, user.email);
    if (reused) return reused;
  }
  const users = user.kind === 'client' ? 'clientUsers' : 'technicianUsers';
  const since = new Date(Date.now() - 1000);
  const signIn = await page.request.post(`/db/${user.msp}/${users}/signin`, { headers: CSRF, data: { emailId: user.email, password: user.password } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const { challengeId } = (await signIn.json()) as { challengeId: string };
  const code = await readLatestCode(page.request, user.email, since);
  const verify = await page.request.post(`/db/${user.msp}/${users}/verifyCode`, { headers: CSRF, data: { challengeId, code } });
  expect(verify.ok(), await verify.text()).toBe(true);
  const { redirectTo } = (await verify.json()) as { redirectTo: string };
  if (isDemoAdmin) {
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
    if (cookie) demoAdminSession = { cookie, redirectTo };
  }
  return { redirectTo };
}

export function demoUser(kind: 'admin' | 'technician' | 'client'): { msp: string; email: string; password: string; kind: 'technician' | 'client' } {
  const entry =
    kind === 'admin'
      ? DEMO_SIGN_INS[0]
      : kind === 'client'
        ? DEMO_SIGN_INS.find((s) => s.kind === 'client')
        : DEMO_SIGN_INS.find((s, i) => s.kind === 'technician' && i > 0);
  if (!entry) throw new Error(`no demo ${kind}`);
  return { msp: 'northwind', email: entry.email, password: DEMO_PASSWORD, kind: entry.kind };
}

export const test = base;

/**
 * Screenshots under test-results/screens at desktop and phone widths (the phone one with the navigation panel closed, as a phone starts),
 * for people to look at; the page ends at 1280 px with the navigation panel open.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `test-results/screens/${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Close navigation panel' }).click();
  await page.screenshot({ path: `test-results/screens/${name}-390.png`, fullPage: true });
  await page.getByRole('button', { name: 'Open navigation panel' }).click();
  await page.setViewportSize({ width: 1280, height: 860 });
}

