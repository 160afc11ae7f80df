import { createPsaClient } from '@switchboard/psa';
import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';

const CSRF = { 'x-switchboard-csrf': '1' };

// The simulator's fixed demo keys (packages/psa-sim/src/context.ts); its address is the demo integration's psaUrl.
const SIM_KEYS = { companyId: 'northwind', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1', clientId: '00000000-0000-4000-8000-000000000001' };

/**
 * An MSP admin finds a company by search, opens its employees, adds a contact and the contact is at
 * the PSA (read from the simulator over its HTTP API); then changes the branding and the MSP's own
 * sign-in page shows the new button colour before anyone signs in.
 */
test('an admin adds a contact to a company found by search, and rebrands the sign-in page', async ({ page, browser }) => {
  const admin = demoUser('admin');
  const { redirectTo } = await signInThroughApi(page, admin);
  await page.goto(redirectTo);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.getByRole('navigation').getByRole('button', { name: 'Companies' }).click();
  await expect(page.getByRole('heading', { name: 'Companies' })).toBeVisible();
  await page.getByLabel('Search companies').fill('brightwater');
  const companyLink = page.getByRole('button', { name: 'Brightwater Family Dental' });
  await expect(companyLink).toBeVisible();
  await expect(page.getByText('1 companies')).toBeVisible();
  await screenshots(page, 'companies');
  await companyLink.click();
  await expect(page.getByRole('cell', { name: /Helen Marchetti/ })).toBeVisible();

  const email = `e2e.contact.${Date.now()}@brightwaterdental.example`;
  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('First name').fill('Journey');
  await dialog.getByLabel('Last name').fill('Tester');
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByText('Contact added')).toBeVisible();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await screenshots(page, 'company-employees');

  const integration = await page.request.get(`/db/${admin.msp}/integrations`);
  const { psaUrl } = (await integration.json()) as { psaUrl: string };
  const psa = createPsaClient({ psaType: 'connectwise', siteUrl: psaUrl, ...SIM_KEYS }, { tenantKey: 'e2e-companies' });
  const atPsa = await psa.findContactsByEmail(email);
  expect(atPsa.map((contact) => `${contact.firstName} ${contact.lastName} @ ${contact.company?.name ?? ''}`)).toEqual(['Journey Tester @ Brightwater Family Dental']);

  // Branding: a blue primary button colour, applied on the MSP's sign-in page before sign-in.
  await page.getByRole('navigation').getByRole('button', { name: 'Branding' }).click();
  await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();
  const picker = page.getByRole('textbox', { name: 'Primary button colour' });
  await picker.fill('#ffd43b');
  await expect(page.getByText('Hard to read on white')).toBeVisible();
  await screenshots(page, 'branding');
  await picker.fill('#1c7ed6');
  await picker.press('Enter');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Branding saved')).toBeVisible();

  const visitor = await browser.newContext();
  try {
    const landing = await visitor.newPage();
    await landing.goto(`/${admin.msp}`);
    const continueButton = landing.getByRole('button', { name: 'Continue' });
    await expect(continueButton).toBeVisible();
    await expect(continueButton).toHaveCSS('background-color', 'rgb(28, 126, 214)');

    await landing.screenshot({ path: 'test-results/screens/msp-login-rebranded-1440.png' });
  } finally {
    await visitor.close();
    // Put the demo's colours back for the other journeys.
    await page.request.post(`/db/${admin.msp}/branding`, { headers: CSRF, data: { primaryColour: '#e03131', primaryButtonColour: '#e03131', secondaryButtonColour: '#e03131' } });
  }
});
