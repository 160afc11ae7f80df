import type { APIRequestContext } from '@playwright/test';
import { MESSAGES } from '@switchboard/contracts';
import { demoUser, expect, readLatestCode, signInThroughApi, test } from '../fixtures';

const CSRF = { 'x-switchboard-csrf': '1' };

/** The link in the newest invitation mailed to `email` after `since` (mail lands in the dev outbox). */
async function readInvitationLink(request: APIRequestContext, email: string, since: Date): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const outbox = await request.get(`/dev/outbox?to=${encodeURIComponent(email)}`);
    const { items } = (await outbox.json()) as { items: Array<{ subject: string; text: string; createdAt: string }> };
    const mail = items.find((item) => item.subject === MESSAGES.invitations.mailSubject && new Date(item.createdAt) >= since);
    const link = mail?.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no invitation mailed to ${email}`);
}

/**
 * Decision 019: an admin invites an imported technician who has no account; the technician opens
 * the link from the mail, sets a password, signs in and sees their ticket queue.
 */
test('an admin invites an imported technician, who sets a password from the mailed link and sees their queue', async ({ page, browser }) => {
  const admin = demoUser('admin');
  const { redirectTo } = await signInThroughApi(page, admin);

  // A PSA member not yet an employee, imported through the API (the import screen has its own journey).
  const candidates = await page.request.get(`/db/${admin.msp}/psaMembers`);
  expect(candidates.ok(), await candidates.text()).toBe(true);
  const { members } = (await candidates.json()) as { members: Array<{ psaMemberId: string; firstName: string; lastName: string; email: string | null }> };
  const member = members.find((candidate) => candidate.email !== null && !/Marcus/.test(candidate.firstName));
  if (!member?.email) throw new Error('the demo PSA has no member left to import');
  const imported = await page.request.post(`/psa/${admin.msp}/addPSAMembers`, { headers: CSRF, data: { members: [{ psaMemberId: member.psaMemberId }] } });
  expect(imported.ok(), await imported.text()).toBe(true);
  const name = `${member.firstName} ${member.lastName}`;

  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Employees' }).click();
  await page.getByLabel('Search', { exact: true }).fill(name);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row.getByRole('cell').nth(4)).toHaveText('No account');
  const since = new Date(Date.now() - 1000);
  await row.getByRole('button', { name: `Invite ${name}` }).click();
  await expect(page.getByText(MESSAGES.invitations.sent)).toBeVisible();
  await expect(row.getByRole('cell').nth(4)).toHaveText('Invited');

  // The technician, in a browser of their own, opens the link from the captured mail.
  const link = await readInvitationLink(page.request, member.email, since);
  const technicianContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const technician = await technicianContext.newPage();
  const url = new URL(link);
  await technician.goto(`${url.pathname}${url.search}`);
  await expect(technician.getByText(`invited you, ${member.firstName}.`)).toBeVisible();
  await expect(technician.getByLabel('Email')).toHaveValue(member.email);
  const password = 'Invited!Pass26';
  await technician.getByLabel('New password').fill(password);
  await technician.getByLabel('Verify password').fill(`${password}x`);
  await technician.getByRole('button', { name: 'Set password' }).click();
  await expect(technician.getByRole('alert')).toHaveText('Passwords do not match.');
  await technician.getByLabel('Verify password').fill(password);
  await technician.getByRole('button', { name: 'Set password' }).click();
  await expect(technician).toHaveURL(new RegExp(`/${admin.msp}$`));
  await expect(technician.getByRole('status')).toContainText(MESSAGES.invitations.accepted);

  // They sign in with the new password (and the mailed code) and land in their queue.
  await technician.getByText('Technician', { exact: true }).click();
  await technician.getByLabel('Email').fill(member.email);
  await technician.getByRole('button', { name: 'Continue' }).click();
  const signInSince = new Date(Date.now() - 1000);
  await technician.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await technician.getByRole('button', { name: 'Sign in' }).click();
  const code = await readLatestCode(technician.request, member.email, signInSince);
  await technician.getByRole('textbox', { name: 'Verification code' }).first().click();
  await technician.keyboard.type(code);
  await expect(technician).toHaveURL(new RegExp(`/${admin.msp}/dashboard/[^/]+/tickets$`));
  await expect(technician.getByRole('heading', { name: 'Tickets', level: 1, exact: true })).toBeVisible();
  await expect(technician.getByRole('navigation', { name: 'Navigation panel' }).getByRole('button', { name: 'Tickets' })).toHaveAttribute('aria-current', 'page');
  await technicianContext.close();

  // The admin's list now shows the account as Active.
  await page.reload();
  await page.getByRole('navigation').getByRole('button', { name: 'Employees' }).click();
  await page.getByLabel('Search', { exact: true }).fill(name);
  await expect(page.getByRole('row', { name: new RegExp(name) }).getByRole('cell').nth(4)).toHaveText('Active');
});
