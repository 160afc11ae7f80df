import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/**
 * DESIGN §9: every screen works with a screen reader — no WCAG 2 A/AA violations that axe can
 * find, on the signed-out screens and on the signed-in dashboard, admin area and Roles screen.
 */
async function expectNoViolations(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `${screen} has accessibility violations`).toEqual([]);
}

const SIGNED_OUT_SCREENS: Array<[string, string, string | RegExp]> = [
  ['MSP sign-in', '/northwind', /Sign in to Northwind IT Partners/],
  ['general sign-in', '/auth/login', 'Sign in'],
  ['account sign-up', '/auth/signup', /sign up|create/i],
  ['MSP sign-up', '/msp/signup', 'Sign up your MSP'],
  ['forgot password', '/northwind/forgot', 'Forgot password'],
  ['activation', '/northwind/activate', /Activate/],
  ['public sign-up', '/public/signup', /sign up/i],
];

for (const [screen, path, heading] of SIGNED_OUT_SCREENS) {
  test(`${screen} (${path}) has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
    await expectNoViolations(page, screen);
  });
}

test('the signed-in dashboard, admin area and Roles screen have no axe violations', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await expectNoViolations(page, 'dashboard');
  await page.getByRole('navigation').getByRole('button', { name: 'Roles' }).click();
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoViolations(page, 'Roles screen');
});

test('the Employees, Teams and MSP integrations screens, their forms and the invitation page have no axe violations', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Employees' }).click();
  await expect(page.getByRole('table', { name: 'Active employees' })).toBeVisible();
  await expectNoViolations(page, 'Employees screen');
  await page.getByRole('button', { name: 'Add employee' }).click();
  const form = page.getByRole('form', { name: 'Add employee' });
  await form.getByRole('button', { name: 'Add employee' }).click();
  await expect(form.getByRole('alert').first()).toBeVisible();
  await expectNoViolations(page, 'add-employee form with its messages');
  await page.keyboard.press('Escape');
  await page.getByRole('navigation').getByRole('button', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { name: 'Teams' })).toBeVisible();
  await expect(page.getByLabel('Loading teams')).toHaveCount(0);
  await expectNoViolations(page, 'Teams screen');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByRole('form', { name: 'Create team' })).toBeVisible();
  await expectNoViolations(page, 'create-team form');
  await page.keyboard.press('Escape');
  // The MSP integrations screen with its setup wizard, in the same session (the demo admin may sign in 20 times in 5 minutes).
  await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click();
  await expect(page.getByRole('heading', { name: 'MSP integrations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Setup wizard' })).toBeVisible();
  await expectNoViolations(page, 'MSP integrations screen');
  await page.goto('/northwind/invitation?token=not-a-real-invitation');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expectNoViolations(page, 'invitation page');
});
