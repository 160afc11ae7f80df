import { expect, signInThroughApi, test } from '../fixtures';
import { createJourneyMsp } from './new-msp';

/** Logout: an MSP user lands on their MSP's login page, a public user on /public. */
test('an MSP user signs out to /{msp} and the dashboard is closed to them', async ({ page }) => {
  const msp = await createJourneyMsp(page.request, 'logout');
  const { redirectTo } = await signInThroughApi(page, { msp: msp.customDomain, email: msp.adminEmail, password: msp.adminPassword, kind: 'technician' });
  await page.goto(redirectTo);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();

  await page.getByRole('button', { name: 'Account menu for Ada Admin' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();

  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}$`));
  await expect(page.getByRole('heading', { name: `Sign in to ${msp.mspName}` })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('lastActiveUser'))).toBeNull();
  await page.goto(redirectTo);
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}$`));
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
