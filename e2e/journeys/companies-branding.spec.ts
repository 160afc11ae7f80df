import { readFileSync } from 'node:fs';
import { createPsaClient } from '@switchboard/psa';
import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';
import { CLIENT_DESK, E2E_PASSWORD } from '../scenario';
import { simulatorClient } from '../simulator-client';

const CSRF = { 'x-switchboard-csrf': '1' };

/** WCAG 2 contrast of a #rrggbb colour against white, computed here rather than trusted from the screen. */
function contrastWithWhite(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * (channels[0] ?? 0) + 0.7152 * (channels[1] ?? 0) + 0.0722 * (channels[2] ?? 0);
  return 1.05 / (luminance + 0.05);
}

// The simulator's fixed demo keys (packages/psa-sim/src/context.ts); its address is the demo integration's psaUrl.
const SIM_KEYS = { companyId: 'northwind', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1', clientId: '00000000-0000-4000-8000-000000000001' };

/**
 * An MSP admin finds a company by search, opens its employees, adds a contact and the contact is at
 * the PSA (read from the simulator over its HTTP API); then changes the branding (taking the suggested
 * readable shade for a colour too light for white text) and the MSP's own sign-in page shows the new
 * colours before anyone signs in; the activity log shows both changes, filtered, and exports them as CSV.
 */
test('an admin adds a contact to a company found by search, rebrands the sign-in page and finds both in the activity log', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const admin = demoUser('admin');
  const { redirectTo } = await signInThroughApi(page, admin);
  // The Overview's path: …/tickets opens the queue.
  await page.goto(redirectTo.replace(/\/tickets$/, ''));
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.getByRole('navigation').getByRole('button', { name: 'Companies' }).click();
  await expect(page.getByRole('heading', { name: 'Companies' })).toBeVisible();
  await page.getByLabel('Search companies').fill('brightwater');
  const companyLink = page.getByRole('button', { name: 'Brightwater Family Dental' });
  await expect(companyLink).toBeVisible();
  await expect(page.getByText('1 company', { exact: true })).toBeVisible();
  await screenshots(page, 'companies');
  await companyLink.click();
  await expect(page.getByRole('cell', { name: 'Helen Marchetti', exact: true })).toBeVisible();

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

  // Branding: too light a colour gets a warning with a darker shade of it that reads well; then a violet
  // primary colour and a blue button colour, applied on the MSP's sign-in page before sign-in.
  await page.getByRole('navigation').getByRole('button', { name: 'Branding' }).click();
  await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();
  const picker = page.getByRole('textbox', { name: 'Primary button colour' });
  await picker.fill('#ffd43b');
  await expect(page.getByText('Hard to read on white')).toBeVisible();
  await expect(page.getByText('White text on this colour has a contrast of 1.4:1; at least 4.5:1 is needed to read it easily.')).toBeVisible();
  const suggestion = page.getByRole('button', { name: /^Use #[0-9a-f]{6} instead$/ });
  const shade = /#[0-9a-f]{6}/.exec((await suggestion.textContent()) ?? '')?.[0] ?? '';
  expect(shade).not.toBe('#ffd43b');
  expect(contrastWithWhite(shade)).toBeGreaterThanOrEqual(4.5);
  await screenshots(page, 'branding');
  await suggestion.click();
  await expect(picker).toHaveValue(shade);
  await expect(page.getByText('Hard to read on white')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#5f3dc4');
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
    await expect(landing.getByRole('link', { name: 'Forgot password' })).toHaveCSS('color', 'rgb(95, 61, 196)');

    await landing.screenshot({ path: 'test-results/screens/msp-login-rebranded-1440.png' });
  } finally {
    await visitor.close();
    // Put the demo's colours back for the other journeys.
    await page.request.post(`/db/${admin.msp}/branding`, { headers: CSRF, data: { primaryColour: '#e03131', primaryButtonColour: '#e03131', secondaryButtonColour: '#e03131' } });
  }

  // The activity log has both changes, filtered by person, kind and day, and exports them as CSV.
  await page.getByRole('navigation').getByRole('button', { name: 'Activity log' }).click();
  await expect(page.getByRole('heading', { name: 'Activity log' })).toBeVisible();
  const log = page.getByRole('table');
  await expect(log).toBeVisible();
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Other changes' }).click();
  await page.getByRole('combobox', { name: 'Person' }).click();
  await page.getByRole('option', { name: 'Samuel Whitaker' }).click();
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  const brandingRow = log.getByRole('row', { name: /msp\.branding\.save/ }).first();
  await expect(brandingRow).toContainText('Samuel Whitaker');
  // The action in words, its code beside it.
  await expect(brandingRow).toContainText('Branding saved');
  await expect(brandingRow).toContainText('Success');
  await expect(log.getByRole('row', { name: /contact\.add/ }).first()).toContainText('Samuel Whitaker');
  await expect(log.getByRole('row', { name: /auth\.sign_in/ })).toHaveCount(0);
  await page.getByLabel('From', { exact: true }).fill('2001-01-01');
  await page.getByLabel('To', { exact: true }).fill('2001-01-31');
  await expect(page.getByText('No activity matches.')).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill(today);
  await expect(brandingRow).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`activity-${admin.msp}-${today}.csv`);
  const csv = readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toBe('When (UTC),Who,Kind,Action,Target,Target id,Outcome,IP');
  expect(csv.slice(1).every((line) => line.includes(',Samuel Whitaker,change,'))).toBe(true);
  expect(csv.some((line) => line.includes(',msp.branding.save,Northwind IT Partners,northwind,success,'))).toBe(true);
  expect(csv.some((line) => line.includes(',contact.add,'))).toBe(true);
});

/**
 * The Contacts screen's add-contact form for a technician who manages client users but not
 * technicians (01 §6): they see every company's contacts, so the form asks which company first; the
 * contact lands at the PSA and in the list.
 */
test('a client desk technician adds a contact from the Contacts screen, choosing its company', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, { msp: 'northwind', email: CLIENT_DESK.email, password: E2E_PASSWORD, kind: 'technician' });
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Contacts' }).click();
  await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();

  const email = `e2e.desk.${Date.now()}@granitepeakbuilders.example`;
  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a contact' });
  await dialog.getByLabel('First name').fill('Desk');
  await dialog.getByLabel('Last name').fill('Added');
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog.getByText("Choose the contact's company.")).toBeVisible();
  const company = dialog.getByRole('combobox', { name: 'Company' });
  await company.fill('granite');
  await page.getByRole('option', { name: 'Granite Peak Builders' }).click();
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByText('Desk Added was added to Granite Peak Builders.')).toBeVisible();
  await page.getByLabel('Search contacts').fill(email);
  await expect(page.getByRole('row', { name: /Desk Added/ })).toContainText('Granite Peak Builders');

  const atPsa = await simulatorClient().findContactsByEmail(email);
  expect(atPsa.map((contact) => `${contact.firstName} ${contact.lastName} @ ${contact.company?.name ?? ''}`)).toEqual(['Desk Added @ Granite Peak Builders']);
});
