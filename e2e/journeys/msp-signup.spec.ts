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

  // Step 1 refuses what step 2 used to discover: a taken domain, a website that is no address, a short phone.
  await page.getByLabel('Custom domain').fill('northwind');
  await page.getByLabel('MSP name').fill(mspName);
  await page.getByLabel('Website URL').fill('not a url');
  await page.getByLabel('Company phone number').fill('12');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter the website as a web address, for example https://example.com.');
  await page.getByLabel('Website URL').fill('https://journey-it.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter the company phone number with 9 or 10 digits, for example 206 555 0142.');
  await page.getByLabel('Company phone number').fill('2065550142');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert')).toHaveText('That custom domain is already in use.');
  await expect(page.getByLabel('First name')).toBeHidden();
  await page.getByLabel('Custom domain').fill(customDomain);
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

  // the new admin is a technician, so the technician side is the one shown (it opened on Client before).
  await expect(page.getByRole('radio', { name: 'Technician' })).toBeChecked();

  // The general sign-in does not tell the new admin to sign up: it links to the MSP's page, technician side.
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toContainText("Sign in on the service provider's page instead");
  await expect(page.getByRole('alert')).not.toContainText('Please sign up');
  await page.getByRole('link', { name: new RegExp(`${mspName} — technician sign-in`) }).click();
  await expect(page).toHaveURL(new RegExp(`/${customDomain}$`));
  await expect(page.getByRole('radio', { name: 'Technician' })).toBeChecked();
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
  // They land on their queue, which stays empty until the setup is finished, and are told so.
  await expect(page.getByRole('heading', { name: 'Tickets', level: 1, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Finish setting up' })).toBeVisible();
});
