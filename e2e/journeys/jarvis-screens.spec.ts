import type { Page } from '@playwright/test';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/** Screenshots of Jarvis's screens at desktop (1440) and phone (390) width, for people to look at. */
const WIDTHS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '390', width: 390, height: 844 },
] as const;

async function shoot(page: Page, screen: string, width: string) {
  // Panels slide in and out (Mantine's AppShell transition): let them settle first.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `test-results/screens/jarvis-${screen}-${width}.png`, fullPage: false });
}

for (const size of WIDTHS) {
  test(`client screens at ${size.name} px`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const { redirectTo } = await signInThroughApi(page, demoUser('client'));
    await page.goto(redirectTo);
    // The first screen after sign-in loads the app and its data at once; on a loaded CI machine that took over 10 s.
    await expect(page.getByRole('heading', { name: 'Tickets', exact: true })).toBeVisible({ timeout: 30_000 });
    const jarvis = page.getByRole('complementary', { name: 'Jarvis assistant' });
    if (size.width > 1023) await expect(jarvis.getByRole('tab', { name: 'Tickets' })).toHaveAttribute('aria-selected', 'true');
    else await expect(page.getByRole('button', { name: 'Jarvis', exact: true })).toHaveAttribute('aria-expanded', 'false');
    await shoot(page, 'client-my-ticket', size.name);

    if (size.width <= 1023) {
      await page.getByRole('button', { name: 'Jarvis', exact: true }).click();
      await expect(jarvis.getByRole('textbox', { name: 'Message to Jarvis' })).toBeVisible();
      await shoot(page, 'client-jarvis-open', size.name);
      await jarvis.getByRole('button', { name: 'Close the assistant' }).click();
    }

    await page.getByRole('radiogroup', { name: 'Ticket area mode' }).getByText('All Tickets', { exact: true }).click();
    await expect(page.getByText(/^(You have no tickets yet\.|\d+ tickets?)$/)).toBeVisible();
    await shoot(page, 'client-all-tickets', size.name);

    await page.getByRole('radiogroup', { name: 'Ticket area mode' }).getByText('Knowledge Base', { exact: true }).click();
    // The articles written for client staff, by category, each to read whole; the technicians' runbooks are not among them.
    const accounts = page.getByRole('region', { name: 'Accounts & Access' });
    await accounts.getByRole('button', { name: 'Self-service password reset (SSPR): set it up once, use it any time' }).click();
    const article = page.getByRole('dialog', { name: 'Self-service password reset (SSPR): set it up once, use it any time' });
    await expect(article.getByRole('heading', { name: 'Reset a forgotten password' })).toBeVisible();
    await expect(article.getByText('Accounts & Access › Password Reset')).toBeVisible();
    await shoot(page, 'client-knowledge-article', size.name);
    await page.keyboard.press('Escape');
    await expect(article).toBeHidden();
    await expect(accounts.getByRole('button', { name: /^Finding the source of repeated account lockouts/ })).toHaveCount(0);
    const knowledge = page.getByRole('search', { name: 'Search the knowledge base' });
    await knowledge.getByLabel('Search').fill('reset password');
    await knowledge.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('list', { name: 'Knowledge results' }).getByRole('listitem').first()).toBeVisible();
    await shoot(page, 'client-knowledge-base', size.name);
  });

  test(`technician screens at ${size.name} px`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
    await page.goto(redirectTo);
    const jarvis = page.getByRole('complementary', { name: 'Jarvis assistant' });
    // A technician's Jarvis starts closed (the queue needs the width); the header button opens it.
    await page.getByRole('button', { name: 'Jarvis', exact: true }).click({ timeout: 30_000 });
    await jarvis.getByRole('tab', { name: 'Engineer' }).click();
    await expect(jarvis.getByRole('radio', { name: 'History' })).toBeChecked();
    await shoot(page, 'technician-engineer', size.name);
    await jarvis.getByRole('tab', { name: 'Tickets' }).click();
    await shoot(page, 'technician-tickets-tab', size.name);
    await jarvis.getByRole('button', { name: 'Close the assistant' }).click();

    if (size.width <= 1023) await page.getByRole('button', { name: 'Open navigation panel' }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Agents' }).click();
    await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
    await shoot(page, 'agents', size.name);
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('form', { name: 'Create agent' }).getByRole('button', { name: 'Create agent' }).click();
    await shoot(page, 'agent-form-messages', size.name);
    await page.keyboard.press('Escape');

    if (size.width <= 1023) await page.getByRole('button', { name: 'Open navigation panel' }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
    await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
    await shoot(page, 'documents', size.name);
  });
}
