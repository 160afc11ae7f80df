import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/**
 * Issue #9: the demo admin opens the Help Desk board, edits a subcategory's diagnostic questions (seeded with the
 * suggested ones), saves them, and reopening the editor shows what was saved.
 */
test('an admin edits the diagnostic questions of a subcategory in the board editor', async ({ page }) => {
  test.setTimeout(180_000);
  const psaTimeout = { timeout: 45_000 };
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Board', exact: true }).click();
  await page.getByLabel('Search boards').fill('help');
  await page.getByRole('navigation', { name: 'Boards' }).getByRole('button', { name: /Help Desk/ }).click();
  await expect(page.getByRole('heading', { name: 'Help Desk' })).toBeVisible(psaTimeout);

  await page.getByRole('button', { name: 'Diagnostic questions for Accounts & Access / Password Reset' }).click();
  const dialog = page.getByRole('dialog', { name: 'Diagnostic questions: Accounts & Access / Password Reset' });
  await expect(dialog.getByText(/These are the suggested questions/)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Question 1' })).toHaveValue('Have you forgotten your password, or has it expired?');

  await dialog.getByRole('button', { name: 'Add question' }).click();
  await dialog.getByRole('button', { name: 'Save questions' }).click();
  await expect(dialog.getByText('Type the question, or remove the empty one.')).toBeVisible();
  const own = `Did the self-service reset email arrive? (${Date.now().toString(36)})`;
  await dialog.getByRole('textbox', { name: 'Question 3' }).fill(own);
  await dialog.getByRole('button', { name: 'Save questions' }).click();
  await expect(dialog.getByText('Diagnostic questions saved.')).toBeVisible();
  await test.info().attach('saved', { body: await page.screenshot(), contentType: 'image/png' });
  // The footer's Close: the dialog's X is named "Close" too.
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: 'Diagnostic questions for Accounts & Access / Password Reset' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Question 3' })).toHaveValue(own);
  await expect(dialog.getByText(/These are the suggested questions/)).toHaveCount(0);
});
