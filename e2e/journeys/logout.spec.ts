import { MESSAGES } from '@switchboard/contracts';
import { expect, readLatestCode, signInThroughApi, test } from '../fixtures';
import { createJourneyMsp } from './new-msp';

/** Logout: an MSP user lands on their MSP's login page, a public user on /public. */
test('an MSP user signs out to /{msp} and the dashboard is closed to them', async ({ page }) => {
  const msp = await createJourneyMsp(page.request, 'logout');
  const { redirectTo } = await signInThroughApi(page, { msp: msp.customDomain, email: msp.adminEmail, password: msp.adminPassword, kind: 'technician' });
  await page.goto(redirectTo);
  await expect(page.getByRole('heading', { name: 'Tickets', level: 1, exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Account menu for Ada Admin' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();

  // The page opens on the technician side although logout cleared the stored user type (regression: it opened on Client).
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}\\?as=tech$`));
  await expect(page.getByRole('heading', { name: `Sign in to ${msp.mspName}` })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Technician' })).toBeChecked();
  expect(await page.evaluate(() => window.localStorage.getItem('lastActiveUser'))).toBeNull();
  await page.goto(redirectTo);
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}\\?returnTo=${encodeURIComponent(redirectTo)}$`));
});

// Regression: a session that ended while the page was open was never noticed; every action said "Please sign in." and nothing offered to.
test('a session that ends mid-work sends the user to sign in with a notice, then back where they were, in the same page', async ({ page }) => {
  const msp = await createJourneyMsp(page.request, 'ended');
  const { redirectTo } = await signInThroughApi(page, { msp: msp.customDomain, email: msp.adminEmail, password: msp.adminPassword, kind: 'technician' });
  const dashboardPath = redirectTo.replace(/\/tickets$/, '');
  await page.goto(dashboardPath);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
  await page.getByRole('navigation').getByRole('button', { name: 'Roles' }).click();
  await expect(page.getByRole('table').getByRole('rowheader', { name: 'Technician', exact: true })).toBeVisible();
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));

  // Signed out elsewhere (another tab): the server ends the session; the page still shows the Roles screen.
  const ended = await page.request.post('/auth/api/auth/logout', { headers: { 'x-switchboard-csrf': '1' } });
  expect(ended.ok()).toBe(true);
  // The page's next call notices: this click's, or a background one's if that goes first (CI once saw the page leave
  // for the sign-in page before the click landed, so the click may find its button gone; the checks below still hold).
  await page
    .getByRole('button', { name: 'Clone Technician', exact: true })
    .click({ timeout: 10_000 })
    .catch(() => undefined);

  await expect(page.getByRole('heading', { name: `Sign in to ${msp.mspName}` })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(MESSAGES.auth.sessionEnded);
  await expect(page.getByRole('radio', { name: 'Technician' })).toBeChecked();
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}\\?returnTo=${encodeURIComponent(dashboardPath)}$`));

  const since = new Date(Date.now() - 1000);
  await page.getByLabel('Email').fill(msp.adminEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(msp.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = await readLatestCode(page.request, msp.adminEmail, since);
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(code);

  // Back on the page they were on (not the tickets landing), on the screen they had chosen, without a page load.
  await expect(page).toHaveURL(new RegExp(`${dashboardPath}$`));
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test('a public user signs up, sees their dashboard and signs out to /public', async ({ page }) => {
  const email = `pat.${Date.now().toString(36)}@public-user.example`;
  await page.goto('/public');
  await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  await expect(page).toHaveURL(/\/public\/signup$/);
  await page.getByLabel('First name').fill('Pat');
  await page.getByLabel('Last name').fill('Public');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone number').fill('2065550160');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Public!Pass1');
  await page.getByRole('button', { name: 'Sign up' }).click();

  await expect(page).toHaveURL(/\/public\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Pat' })).toBeVisible();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/public$/);
  await expect(page.getByRole('link', { name: 'Sign up', exact: true })).toBeVisible();
});
