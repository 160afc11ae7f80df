import { MESSAGES } from '@switchboard/contracts';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

const FORM_MESSAGES = [MESSAGES.employee.names, MESSAGES.employee.email, MESSAGES.employee.phone, MESSAGES.employee.password];

/**
 * Issue #8 Employees: the add-employee form shows each 01 §5 message and sends
 * nothing while one shows; the new employee's tier and role are edited, then they are deleted
 * and move to the Inactive list; the last admin cannot demote themself and is told why.
 */
test('an admin adds an employee, edits their tier and role, and deletes them', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Employees' }).click();
  await expect(page.getByRole('heading', { name: 'Employees' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Active', exact: true })).toBeChecked();
  await expect(page.getByRole('table', { name: 'Active employees' })).toBeVisible();

  let addCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/technicianUsers/add')) addCalls += 1;
  });
  await page.getByRole('button', { name: 'Add employee' }).click();
  const form = page.getByRole('form', { name: 'Add employee' });
  const submit = form.getByRole('button', { name: 'Add employee' });
  await submit.click();
  for (const message of FORM_MESSAGES) await expect(form.getByText(message, { exact: true })).toHaveCount(1);

  // Each fix clears its own message; the rest stay, and still nothing is sent.
  const stamp = Date.now().toString(36);
  const email = `e2e.${stamp}@northwind-it.example`;
  await form.getByLabel('First name').fill('Erin');
  await form.getByLabel('Last name').fill(`Tester${stamp}`);
  await submit.click();
  await expect(form.getByText(MESSAGES.employee.names)).toHaveCount(0);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone number').fill('(303) 555-0142');
  await form.getByLabel('Password', { exact: true }).fill('password');
  await submit.click();
  await expect(form.getByText(MESSAGES.employee.email)).toHaveCount(0);
  await expect(form.getByText(MESSAGES.employee.phone)).toHaveCount(0);
  await expect(form.getByText(MESSAGES.employee.password)).toHaveCount(1);
  expect(addCalls).toBe(0);

  await form.getByLabel('Password', { exact: true }).fill('Passw0rd!');
  await submit.click();
  await expect(page.getByText(MESSAGES.employees.added)).toBeVisible();
  expect(addCalls).toBe(1);

  await page.getByLabel('Search', { exact: true }).fill(`Tester${stamp}`);
  const name = `Erin Tester${stamp}`;
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Technician');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Tier1');

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: 'Edit employee' });
  await edit.getByLabel('Role', { exact: true }).selectOption({ label: 'Dispatcher' });
  await edit.getByLabel('Tier').selectOption({ label: 'Tier3' });
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(MESSAGES.employees.updated)).toBeVisible();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Dispatcher');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Tier3');

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirm).toContainText(MESSAGES.employees.deleteConfirm);
  await confirm.getByRole('button', { name: 'Delete employee' }).click();
  await expect(page.getByText(MESSAGES.employees.deleted)).toBeVisible();
  await expect(page.getByText('No active employees match.')).toBeVisible();
  await page.getByText('Inactive', { exact: true }).click();
  const inactive = page.getByRole('table', { name: 'Inactive employees' });
  await expect(inactive.getByRole('rowheader', { name })).toBeVisible();

  // The Inactive list's way back (addition): restored, the employee is active again.
  await inactive.getByRole('button', { name: `Restore ${name}` }).click();
  await expect(page.getByText(MESSAGES.employees.restored)).toBeVisible();
  await expect(page.getByText('No inactive employees match.')).toBeVisible();
  await page.getByText('Active', { exact: true }).click();
  await expect(page.getByRole('table', { name: 'Active employees' }).getByRole('rowheader', { name })).toBeVisible();

  // The demo admin is the MSP's only active person who can manage roles: demoting themself is refused, and the form says why (decision 025).
  await page.getByLabel('Search', { exact: true }).fill('Samuel Whitaker');
  const self = page.getByRole('row', { name: /Samuel Whitaker/ });
  await expect(self.getByRole('button', { name: 'Delete Samuel Whitaker' })).toHaveCount(0);
  await self.getByRole('button', { name: 'Edit Samuel Whitaker' }).click();
  const editSelf = page.getByRole('form', { name: 'Edit employee' });
  await editSelf.getByLabel('Role', { exact: true }).selectOption({ label: 'Technician' });
  await editSelf.getByRole('button', { name: 'Save changes' }).click();
  await expect(editSelf.getByText(MESSAGES.employees.lastRoleManager)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(self.getByRole('cell').nth(2)).toHaveText('Admin');
});

/** Issue #8 Teams: create a team on a PSA board, add a technician at Tier1, change their tier. */
test('an admin creates a team, adds a member and changes the member’s tier', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { name: 'Teams' })).toBeVisible();

  await page.getByRole('button', { name: 'Create team' }).click();
  const create = page.getByRole('form', { name: 'Create team' });
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(create.getByText(MESSAGES.teams.boardRequired)).toBeVisible();
  await expect(create.getByText(MESSAGES.teams.nameRequired)).toBeVisible();
  const board = create.getByLabel('Board', { exact: true });
  await expect(board.locator('option')).not.toHaveCount(1);
  await board.selectOption({ index: 1 });
  const teamName = `E2E ${Date.now().toString(36).slice(-6)}`;
  await create.getByLabel('Team name').fill(teamName);
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText(MESSAGES.teams.created)).toBeVisible();
  await expect(page.getByLabel('Team', { exact: true }).locator('option:checked')).toHaveText(new RegExp(teamName));
  await expect(page.getByText('This team has no members yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Add members' }).click();
  const add = page.getByRole('form', { name: 'Add members' });
  await add.getByRole('button', { name: /Add .*member/ }).click();
  await expect(add.getByText(MESSAGES.teams.selectMembers)).toBeVisible();
  await add.getByLabel('Search technicians').fill('Jordan');
  await add.getByRole('checkbox', { name: /Jordan Avila/ }).check();
  await add.getByRole('button', { name: 'Add 1 member' }).click();
  await expect(page.getByText(MESSAGES.teams.membersAdded)).toBeVisible();

  const members = page.getByRole('table', { name: `Members of ${teamName}` });
  const row = members.getByRole('row', { name: /Jordan Avila/ });
  await expect(row.getByRole('cell').nth(1)).toHaveText('Tier1');
  await row.getByRole('button', { name: 'Edit Jordan Avila' }).click();
  const edit = page.getByRole('form', { name: 'Edit member' });
  await edit.getByLabel('Tier').selectOption({ label: 'Tier3' });
  await edit.getByRole('button', { name: 'Save tier' }).click();
  await expect(page.getByText(MESSAGES.teams.tiersSaved)).toBeVisible();
  await expect(row.getByRole('cell').nth(1)).toHaveText('Tier3');

  // The member's tier is stored: it is still Tier3 after a reload.
  await page.reload();
  const teamSelect = page.getByLabel('Team', { exact: true });
  const value = await teamSelect.locator('option', { hasText: teamName }).getAttribute('value');
  await teamSelect.selectOption(value ?? '');
  await expect(page.getByRole('table', { name: `Members of ${teamName}` }).getByRole('row', { name: /Jordan Avila/ }).getByRole('cell').nth(1)).toHaveText('Tier3');
});

/** a PSA member who is not an employee yet is imported with Tier1 and the Technician role. */
test('an admin imports a PSA member as an employee', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Employees' }).click();
  await page.getByRole('button', { name: 'Import from PSA' }).click();
  const form = page.getByRole('form', { name: 'Import from PSA' });
  await form.getByRole('button', { name: /^Import/ }).click();
  await expect(form.getByText(MESSAGES.employees.selectMembers)).toBeVisible();
  await form.getByLabel('Filter PSA members').fill('Marcus');
  await form.getByRole('checkbox', { name: /Marcus Bell/ }).check();
  await form.getByRole('button', { name: 'Import 1 member' }).click();
  await expect(page.getByText(MESSAGES.employees.imported)).toBeVisible();
  await page.getByLabel('Search', { exact: true }).fill('Marcus Bell');
  const row = page.getByRole('row', { name: /Marcus Bell/ });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Technician');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Tier1');
  await expect(row.getByText('PSA', { exact: true })).toBeVisible();
});
