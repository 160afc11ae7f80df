import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { getNextTickets, openTickets } from '../queue-helpers';

const SCREENS_DIR = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

/** How far the table reaches past the box that scrolls it sideways (0 or less when it fits). */
async function sidewaysScroll(table: Locator): Promise<number> {
  return table.evaluate((element) => {
    for (let box = element.parentElement; box !== null; box = box.parentElement) {
      const overflowX = getComputedStyle(box).overflowX;
      if (overflowX === 'auto' || overflowX === 'scroll') return box.scrollWidth - box.clientWidth;
    }
    return 0;
  });
}

async function openJarvis(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Jarvis', exact: true }).click();
  const jarvis = page.getByRole('complementary', { name: 'Jarvis assistant' });
  await expect(jarvis).toBeVisible();
  return jarvis;
}

async function closeJarvis(page: Page, jarvis: Locator): Promise<void> {
  await jarvis.getByRole('button', { name: 'Close the assistant' }).click();
  await expect(page.getByRole('button', { name: 'Jarvis', exact: true })).toHaveAttribute('aria-expanded', 'false');
}

/**
 * Issue #10 screens at 1440 px (desktop; the queue's mobile layout starts below 1600 px, R-042)
 * and 390 px (a phone), saved under test-results/screens/ to be looked at. Each shot also checks
 * that nothing spills sideways out of the page.
 */
for (const width of [1440, 390]) {
  test(`queue screens at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await openTickets(page, 'Tier2');
    const shot = async (name: string, fullPage = false) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SCREENS_DIR}queue-${name}-${width}.png`, fullPage });
    };

    if ((await page.getByRole('heading', { name: 'No tickets' }).count()) > 0) await shot('my-ticket-empty');
    await getNextTickets(page);
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    await shot('my-ticket', true);
    // My Ticket with Jarvis open: beside it at 1440 px, covering the page on a phone.
    const jarvisOnTicket = await openJarvis(page);
    // The panel slides in (Mantine's AppShell transition): let it settle before the shot.
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENS_DIR}queue-my-ticket-jarvis-${width}.png` });
    await closeJarvis(page, jarvisOnTicket);

    // Bug (visual review s28): Hand back's filled orange button had white text at 2.6:1 (WCAG AA asks 4.5:1).
    await page.getByRole('button', { name: 'Hand back', exact: true }).click();
    const handBack = page.getByRole('form', { name: 'Hand back ticket' });
    await expect(handBack).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.passes.length, 'axe looked at the dialog').toBeGreaterThan(0);
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join(', ')}`)).toEqual([]);
    await shot('hand-back-dialog');
    await handBack.getByRole('button', { name: 'Cancel' }).click();
    await expect(handBack).toBeHidden();

    await page.getByRole('button', { name: 'Requeue', exact: true }).click();
    await expect(page.getByRole('form', { name: 'Requeue ticket' })).toBeVisible();
    await shot('requeue-dialog');
    await page.getByRole('button', { name: 'Cancel' }).click();
    // A closing dialog still holds the page's scroll lock: a click during its exit can land elsewhere.
    await expect(page.getByRole('form', { name: 'Requeue ticket' })).toBeHidden();

    await page.getByRole('button', { name: 'Edit ticket' }).click();
    await expect(page.getByRole('form', { name: 'Edit ticket' })).toBeVisible();
    await shot('edit-dialog');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('form', { name: 'Edit ticket' })).toBeHidden();

    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await expect(page.getByText('Keyboard shortcuts', { exact: true })).toBeVisible();
    await shot('shortcuts');
    await page.keyboard.press('Escape');
    await expect(page.getByText('Keyboard shortcuts', { exact: true })).toBeHidden();

    await page.getByText('Eligible tickets', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Eligible tickets' })).toBeChecked();
    await expect(page.getByRole('button', { name: /^Pick ticket/ }).first()).toBeVisible();
    await shot('eligible');

    await page.getByText('All Tickets', { exact: true }).click();
    await expect(page.getByRole('list', { name: 'All tickets' })).toBeVisible();
    await shot('all-cards');
    if (width > 1000) {
      // With Jarvis open the list has about 340 px: one column of whole cards (three a word wide before).
      await page.getByRole('button', { name: 'Jarvis', exact: true }).click();
      const jarvis = page.getByRole('complementary', { name: 'Jarvis assistant' });
      await expect(jarvis).toBeVisible();
      const cards = page.getByRole('list', { name: 'All tickets' }).getByRole('listitem');
      await expect.poll(async () => (await cards.first().boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(280);
      await shot('all-cards-beside-jarvis');
      await jarvis.getByRole('button', { name: 'Close the assistant' }).click();
      await expect(page.getByRole('button', { name: 'Jarvis', exact: true })).toHaveAttribute('aria-expanded', 'false');
    }
    if (width > 1000) {
      await page.getByText('Rows', { exact: true }).click();
      await page.getByRole('button', { name: /^Show details of ticket/ }).first().click();
      const table = page.getByRole('table', { name: 'All tickets' });
      expect(await sidewaysScroll(table), 'the rows scroll sideways inside their box').toBeLessThanOrEqual(0);
      // Bug (visual review s28): beside an open Jarvis the ~600 px list scrolled its 640 px table sideways, the
      // actions out of sight. The board line and the date now fold under the title there.
      const jarvis = await openJarvis(page);
      await expect.poll(() => sidewaysScroll(table), { message: 'the rows beside Jarvis scroll sideways inside their box' }).toBeLessThanOrEqual(0);
      await expect(table.getByRole('columnheader', { name: 'Created' })).toHaveCount(0);
      await shot('all-rows-beside-jarvis');
      await closeJarvis(page, jarvis);
    } else {
      // A phone lists cards only: the rows' table was wider than the screen (visual review s27).
      await expect(page.getByRole('radio', { name: 'Rows' })).toHaveCount(0);
    }
    await shot('all-rows');
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByRole('group', { name: 'Ticket filters' })).toBeVisible();
    await shot('filters');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Full screen' }).click();
    await expect(page.getByRole('dialog', { name: 'Tickets, full screen' })).toBeVisible();
    await shot('full-screen');
    await page.getByRole('button', { name: 'Exit full screen' }).click();

    await page.getByText('Dashboards', { exact: true }).click();
    // The day's figures, not the loader: the shot shows the dashboard itself.
    await expect(page.getByRole('region', { name: 'My day' }).getByRole('group', { name: 'Minutes worked' })).toBeVisible();
    // The day is the MSP's: today there, midnight to midnight in its time zone (UTC until an admin picks one).
    await expect(page.getByRole('textbox', { name: 'Day' })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByText('Midnight to midnight, UTC time')).toBeVisible();
    await shot('dashboards', true);
    if (width > 1000) {
      // Beside an open Jarvis no tile of the day's figures spills its label out (at ~340 px they were 90 px tiles with
      // "Tickets completed" spilling out). Jarvis now leaves the page ~600 px, where three tiles of ~180 px hold
      // their figures side by side; a width of 200 px, asked when the page had ~340 px, no longer says anything.
      await openJarvis(page);
      const day = page.getByRole('region', { name: 'My day' });
      for (const name of ['Minutes worked', 'Tickets completed', 'SLA met']) {
        const tile = day.getByRole('group', { name, exact: true });
        await expect(tile).toBeVisible();
        await expect.poll(() => tile.evaluate((element) => element.scrollWidth - element.clientWidth), { message: `the ${name} tile spills sideways` }).toBeLessThanOrEqual(0);
      }
      await shot('dashboards-beside-jarvis');
    }
  });
}
