import { cloneRoleName } from '@switchboard/contracts';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/**
 * An MSP admin opens Roles from the dashboard, clones a role ("{base} - Clone {n}", 02 §4), sees
 * the clone survive a reload with the admin tab restored, and deletes it after confirming.
 */
test('an admin clones a role and deletes the clone', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.getByRole('navigation').getByRole('button', { name: 'Roles' }).click();
  await expect(page.getByRole('tab', { name: 'Admin' })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table');
  await expect(table.getByRole('rowheader', { name: 'Dispatcher', exact: true })).toBeVisible();

  const namesBefore = await table.getByRole('rowheader').allTextContents();
  const cloneName = cloneRoleName('Dispatcher', namesBefore);
  await page.getByRole('button', { name: 'Clone Dispatcher', exact: true }).click();
  await expect(page.getByText(`Role cloned. ${cloneName}`)).toBeVisible();
  await expect(table.getByRole('rowheader', { name: cloneName, exact: true })).toBeVisible();

  // The last UI state brings the admin tab and the Roles screen back after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: cloneName, exact: true })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${cloneName}`, exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Delete this role?');
  await confirm.getByRole('button', { name: 'Delete role' }).click();
  await expect(page.getByText('Role deleted.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: cloneName, exact: true })).toHaveCount(0);
});
