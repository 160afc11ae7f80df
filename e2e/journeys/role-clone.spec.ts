import { cloneRoleName } from '@switchboard/contracts';
import type { Locator } from '@playwright/test';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/** The permission boxes of the open role dialog, as the person sees them: label → ticked. */
async function tickedPermissions(dialog: Locator): Promise<string[]> {
  const boxes = dialog.getByRole('checkbox');
  await expect(boxes).toHaveCount(12);
  const ticked: string[] = [];
  for (const box of await boxes.all()) {
    if (await box.isChecked()) ticked.push((await box.evaluate((input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? '')).trim());
  }
  return ticked;
}

/**
 * An MSP admin opens Roles from the dashboard, clones a role ("{base} - Clone {n}", 02 §4), sees
 * the clone survive a reload with the admin tab restored, and deletes it after confirming.
 */
test('an admin clones a role and deletes the clone', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  // The Overview's path: …/tickets opens the queue.
  await page.goto(redirectTo.replace(/\/tickets$/, ''));
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.getByRole('navigation').getByRole('button', { name: 'Roles' }).click();
  await expect(page.getByRole('tab', { name: 'Admin' })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table');
  await expect(table.getByRole('rowheader', { name: 'Dispatcher', exact: true })).toBeVisible();

  // What the admin sees of a role: its count in the table and its ticked boxes (regression: every box showed empty).
  await expect(table.getByRole('row', { name: /Admin/ }).first()).toContainText('12 of 12');
  await page.getByRole('button', { name: 'View Admin', exact: true }).click();
  const adminDialog = page.getByRole('dialog', { name: /Admin/ });
  expect(await tickedPermissions(adminDialog)).toHaveLength(12);
  // The footer's Close: the dialog's X is named "Close" too.
  await adminDialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(adminDialog).toBeHidden();

  const namesBefore = await table.getByRole('rowheader').allTextContents();
  const cloneName = cloneRoleName('Dispatcher', namesBefore);
  await page.getByRole('button', { name: 'Clone Dispatcher', exact: true }).click();
  await expect(page.getByText(`Role cloned. ${cloneName}`)).toBeVisible();
  await expect(table.getByRole('rowheader', { name: cloneName, exact: true })).toBeVisible();

  // The clone shows the same ticked boxes as Dispatcher, and a click ticks a box visibly.
  await page.getByRole('button', { name: `Edit ${cloneName}`, exact: true }).click();
  const editDialog = page.getByRole('dialog', { name: new RegExp(cloneName) });
  expect(await tickedPermissions(editDialog)).toEqual(['Technician user management', 'Board view']);
  const roleManagement = editDialog.getByRole('checkbox', { name: 'Role management' });
  await roleManagement.click();
  await expect(roleManagement).toBeChecked();
  await editDialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Role updated.')).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(cloneName) })).toContainText('3 of 12');

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
