import { expect, readLatestCode, test } from '../fixtures';

/**
 * A new MSP signs up in two steps (02 §2, R-087–R-092), lands on its own login page, and its
 * first technician signs in with the mailed 2FA code and reaches the tickets dashboard.
 */
test('MSP sign-up → first technician → sign-in with 2FA → dashboard', async ({ page }) => {
  const suffix = Date.now().toString(36);
  const customDomain = `e2e-msp-${suffix}`;
  const mspName = `Journey IT ${suffix}`;
  const email = `ada.${suffix}@journey-it.example`;
  const password = 'Journey!Admin1';

  await page.goto('/msp/signup');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields.');

  await page.getByLabel('Custom domain').fill(customDomain);
  await page.getByLabel('MSP name').fill(mspName);
  await page.getByLabel('Website URL').fill('https://journey-it.example');
  await page.getByLabel('Company phone number').fill('2065550142');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByLabel('Role')).toHaveValue('Admin');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Admin');
  await page.getByLabel('Phone number').fill('2065550143');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create MSP' }).click();

  await expect(page).toHaveURL(new RegExp(`/${customDomain}$`));
  await expect(page.getByRole('heading', { name: `Sign in to ${mspName}` })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Your MSP is ready.');

  await page.getByText('Technician', { exact: true }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const since = new Date(Date.now() - 1000);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/We sent a 6-digit verification code to a•••@journey-it\.example/)).toBeVisible();

  const code = await readLatestCode(page.request, email, since);
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(code);

  await expect(page).toHaveURL(new RegExp(`/${customDomain}/dashboard/[^/]+/tickets$`));
  await expect(page.getByRole('heading', { name: 'Welcome, Ada' })).toBeVisible();
});
