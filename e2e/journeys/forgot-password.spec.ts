import { expect, readLatestCode, test } from '../fixtures';
import { createJourneyMsp } from './new-msp';

/**
 * Forgot password in three steps: email → mailed code (a wrong one is refused) →
 * new password, back to the MSP login, where the new password signs in and the old one does not.
 */
test('a technician resets a forgotten password and signs in with the new one', async ({ page }) => {
  const msp = await createJourneyMsp(page.request, 'forgot');
  const newPassword = 'Renewed!Pass2';

  await page.goto(`/${msp.customDomain}`);
  await page.getByRole('link', { name: 'Forgot password' }).click();
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}/forgot$`));
  await page.getByText('Technician', { exact: true }).click();
  await page.getByLabel('Email').fill(msp.adminEmail);
  const since = new Date(Date.now() - 1000);
  await page.getByRole('button', { name: 'Send code' }).click();

  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}/forgot/verification$`));
  const code = await readLatestCode(page.request, msp.adminEmail, since);
  const wrongCode = code === '000000' ? '111111' : '000000';
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(wrongCode);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}/forgot/verification$`));
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(code);

  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}/forgot/verification/createpassword$`));
  expect(page.url()).not.toContain(code);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Verify password').fill(`${newPassword}x`);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
  await page.getByLabel('Verify password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();

  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}$`));
  await expect(page.getByRole('status')).toContainText('Your password was changed.');

  await page.getByText('Technician', { exact: true }).click();
  await page.getByLabel('Email').fill(msp.adminEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(msp.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');

  const signInSince = new Date(Date.now() - 1000);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signInCode = await readLatestCode(page.request, msp.adminEmail, signInSince);
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(signInCode);
  await expect(page).toHaveURL(new RegExp(`/${msp.customDomain}/dashboard/[^/]+/tickets$`));
});
