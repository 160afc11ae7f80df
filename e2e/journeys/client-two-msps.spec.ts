import { DEMO_SIGN_INS, expect, readLatestCode, test } from '../fixtures';
import { E2E_PASSWORD, SECOND_MSP } from '../scenario';

/**
 * A client whose email belongs to two MSPs (the demo MSP and the scenario's second one) is shown
 * a choice after the email step, picks the second MSP and signs in there with 2FA.
 */
test('a client with two MSPs chooses one and signs in', async ({ page }) => {
  const client = DEMO_SIGN_INS.find((signIn) => signIn.kind === 'client');
  if (!client) throw new Error('the demo seed has no client');

  await page.goto('/auth/login/client');
  await page.getByLabel('Email').fill(client.email);
  await page.getByRole('button', { name: 'Continue' }).click();

  const choices = page.getByRole('list', { name: 'Service providers' });
  await expect(choices.getByRole('button')).toHaveCount(2);
  await expect(choices.getByRole('button', { name: new RegExp(SECOND_MSP.name) })).toBeVisible();
  await expect(choices.getByRole('button', { name: new RegExp(`/${client.mspCustomDomain}`) })).toBeVisible();
  await choices.getByRole('button', { name: new RegExp(SECOND_MSP.name) }).click();

  await expect(page.getByText(`Signing in to ${SECOND_MSP.name}`)).toBeVisible();
  const since = new Date(Date.now() - 1000);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = await readLatestCode(page.request, client.email, since);
  await page.getByRole('textbox', { name: 'Verification code' }).first().click();
  await page.keyboard.type(code);

  await expect(page).toHaveURL(new RegExp(`/${SECOND_MSP.customDomain}/dashboard/[^/]+/tickets$`));
  // A client lands in their ticket area, with Jarvis beside it.
  await expect(page.getByRole('heading', { name: 'Tickets', exact: true })).toBeVisible();
  const lastActiveUser = await page.evaluate(() => window.localStorage.getItem('lastActiveUser'));
  expect(lastActiveUser).toContain(`"mspCustomDomain":"${SECOND_MSP.customDomain}"`);
  expect(lastActiveUser).not.toMatch(/password/i);
});
