import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { BATCH_SYNC_INITIAL_WAIT_MS, INTEGRATION_FORM_MESSAGES, MESSAGES, WIZARD_MESSAGES } from '@switchboard/contracts';
import { FABRIKAM_MSP, FABRIKAM_SIGN_INS } from '../../apps/server/src/demo/seed-demo-fabrikam';
import { DEMO_PASSWORD, expect, signInThroughApi, test } from '../fixtures';
import { IMPORT_JOURNEY, simulatorPort } from '../scenario';
import { simulatorClient } from '../simulator-client';
import { createJourneyMsp } from './new-msp';

const SHOTS = process.env.WIZARD_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // On a phone the navigation panel covers the screen; a person closes it first.
    const close = page.getByRole('button', { name: 'Close navigation panel' });
    if (width < 800 && (await close.isVisible())) {
      await close.click();
      // Let the panel finish sliding away before the shot.
      await page.waitForTimeout(400);
    }
    // The header is fixed: from the top, a full-page shot shows it where a person sees it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  // The panel closed for the phone shot stays closed on the wide screen: open it again, as the journey goes on with it.
  const open = page.getByRole('button', { name: 'Open navigation panel' });
  if (await open.isVisible()) await open.click();
}

/** Counts as the screens show them (the browser's locale in these journeys is en-US). */
const shown = (count: number) => count.toLocaleString('en-US');
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Issue #7: a brand-new MSP's admin connects the simulator's ConnectWise on the MSP integrations
 * screen and walks all six wizard steps to the finish, adding a type and a subtype to its board on the way
 * (created at the PSA, R-168–R-169); a refresh keeps the step, the
 * contacts import is cancelled and resumed, a batch sync of the board runs to COMPLETED
 * with its toast, and disconnecting sends the wizard back to step 1.
 */
test('a new MSP admin connects ConnectWise and walks the setup wizard to the end', async ({ page }) => {
  test.setTimeout(240_000);
  const psaTimeout = { timeout: 45_000 };
  page.setDefaultTimeout(45_000);
  const msp = await createJourneyMsp(page.request, 'wizard');
  const { redirectTo } = await signInThroughApi(page, { msp: msp.customDomain, email: msp.adminEmail, password: msp.adminPassword, kind: 'technician' });
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'MSP integrations' })).toBeVisible();
  // The PSA card's own status: the email connector's card below says "Not connected" too.
  const psaCard = page.getByRole('region', { name: 'PSA connection' });
  await expect(psaCard.getByText('Not connected')).toBeVisible();
  await expect(page.getByText(WIZARD_MESSAGES.notConnected)).toBeVisible();

  // Empty required fields are named; nothing is sent.
  const form = page.getByRole('form', { name: 'Connect your PSA' });
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(form.getByText('Enter the company id.')).toBeVisible();
  await expect(form.getByText('Enter the private key.')).toBeVisible();
  await shoot(page, '01-connect-form');

  // Wrong keys: the PSA's refusal reaches the admin as a message.
  const siteUrl = `http://127.0.0.1:${simulatorPort(Number(process.env.E2E_PORT ?? 4317))}`;
  const keys = DEMO_CREDENTIALS.connectWise;
  await form.getByLabel('Company ID').fill(keys.companyId);
  await form.getByLabel('Site URL').fill(siteUrl);
  await form.getByLabel('Public key').fill(keys.publicKey);
  await form.getByLabel('Private key').fill('WrongPrivateKey');
  await form.getByLabel('Client ID').fill(keys.clientId);
  await form.getByRole('button', { name: 'Connect' }).click();
  // The PSA's own reason and what to do on this form (not "Check them under Integrations": this is Integrations).
  await expect(form.getByRole('alert')).toContainText(`ConnectWise rejected the API keys. ${INTEGRATION_FORM_MESSAGES.badKeysHere}`, psaTimeout);

  await form.getByLabel('Private key').fill(keys.privateKey);
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText(INTEGRATION_FORM_MESSAGES.connected)).toBeVisible(psaTimeout);
  await expect(page.getByText('Connected to ConnectWise Manage')).toBeVisible();

  // Step 1: the board, saved, then continue. Later steps cannot be opened yet.
  const wizard = page.getByRole('region', { name: 'Setup wizard' });
  await expect(wizard.getByText('Step 1 of 6')).toBeVisible();
  await expect(wizard.getByRole('button', { name: /^3\s*Teams$/ })).toBeDisabled();
  await wizard.getByRole('combobox', { name: 'Board', exact: true }).click();
  await page.getByRole('option', { name: 'Help Desk' }).click();
  await expect(wizard.getByRole('button', { name: 'Save board' }).first()).toBeVisible(psaTimeout);
  await wizard.getByRole('button', { name: 'Continue to technicians' }).click();
  await expect(wizard.getByText(WIZARD_MESSAGES.boardNotReady)).toBeVisible();
  await shoot(page, '02-step1-board');
  // The same new MSP edits its board: a new type and subtype are created at the PSA on save.
  const typeName = `Cloud Backup ${Date.now().toString(36)}`;
  await wizard.getByLabel('New type', { exact: true }).fill(typeName);
  await wizard.getByRole('button', { name: 'Add type' }).click();
  const typeCard = wizard.getByRole('region', { name: `Type ${typeName}` });
  await expect(typeCard.getByText('New — created at the PSA on save')).toBeVisible();
  await typeCard.getByLabel(`New subtype of ${typeName}`).fill('Restore Request');
  await typeCard.getByRole('button', { name: 'Add subtype' }).click();
  await wizard.getByRole('button', { name: 'Save board' }).first().click();
  await expect(wizard.getByText('Board saved.')).toBeVisible(psaTimeout);
  await expect(typeCard.getByText('New — created at the PSA on save')).toHaveCount(0);
  // What the PSA itself now holds (read straight from the simulator, not through Switchboard).
  const psaAtStep1 = simulatorClient();
  const helpDesk = (await psaAtStep1.listBoards()).find((board) => board.name === 'Help Desk');
  if (!helpDesk) throw new Error('the simulator has no Help Desk board');
  const createdTypes = (await psaAtStep1.listTypes(helpDesk.id)).filter((type) => type.name === typeName);
  expect(createdTypes).toHaveLength(1);
  const createdSubtypes = (await psaAtStep1.listSubtypes(helpDesk.id)).filter((subtype) => subtype.name === 'Restore Request' && subtype.typeIds.includes(createdTypes[0]?.id ?? -1));
  expect(createdSubtypes).toHaveLength(1);
  await wizard.getByRole('button', { name: 'Continue to technicians' }).click();

  // Step 2: two members, one at Tier2; the other keeps Tier1 and the Technician role.
  await expect(wizard.getByText('Step 2 of 6')).toBeVisible(psaTimeout);
  const members = wizard.getByRole('table', { name: 'PSA members' });
  await expect(members).toBeVisible(psaTimeout);
  const memberBoxes = members.getByRole('checkbox', { disabled: false });
  const firstLabel = (await memberBoxes.nth(0).getAttribute('aria-label')) ?? '';
  const secondLabel = (await memberBoxes.nth(1).getAttribute('aria-label')) ?? '';
  const firstName = firstLabel.replace(/^Import /, '');
  const secondName = secondLabel.replace(/^Import /, '');
  await wizard.getByRole('button', { name: 'Continue to teams' }).click();
  await expect(wizard.getByText(WIZARD_MESSAGES.technicianRequired)).toBeVisible();
  await members.getByRole('checkbox', { name: firstLabel }).check();
  await members.getByRole('checkbox', { name: secondLabel }).check();
  await expect(members.getByRole('combobox', { name: `Tier of ${secondName}` })).toHaveValue('Tier1');
  await expect(members.getByRole('combobox', { name: `Role of ${secondName}` }).locator('option:checked')).toHaveText('Technician');
  await members.getByRole('combobox', { name: `Tier of ${firstName}` }).selectOption('Tier2');
  await shoot(page, '03-step2-technicians');
  await wizard.getByRole('button', { name: 'Import 2 selected' }).click();
  await expect(wizard.getByText('2 technicians imported.')).toBeVisible(psaTimeout);
  await wizard.getByRole('button', { name: 'Continue to teams' }).click();

  // A refresh shows the same step: the progress is on the server.
  await expect(wizard.getByText('Step 3 of 6')).toBeVisible(psaTimeout);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Setup wizard' }).getByText('Step 3 of 6')).toBeVisible(psaTimeout);

  // Step 3: a member starts at Tier3 (decisions #8); an empty tier blocks the team.
  const teamForm = wizard.getByRole('form', { name: 'New team' });
  await teamForm.getByLabel('Team name').fill('First line');
  await teamForm.getByRole('checkbox', { name: `Add ${firstName} to the team` }).check();
  await teamForm.getByRole('checkbox', { name: `Add ${secondName} to the team` }).check();
  await expect(teamForm.getByRole('combobox', { name: `Team tier of ${firstName}` })).toHaveValue('Tier3');
  await teamForm.getByRole('combobox', { name: `Team tier of ${secondName}` }).selectOption('');
  await teamForm.getByRole('button', { name: 'Create team' }).click();
  await expect(wizard.getByText(MESSAGES.teams.tierRequired)).toBeVisible();
  await teamForm.getByRole('combobox', { name: `Team tier of ${secondName}` }).selectOption('Tier1');
  await teamForm.getByRole('button', { name: 'Create team' }).click();
  await expect(wizard.getByText(`${firstName} · Tier3`)).toBeVisible(psaTimeout);
  await expect(wizard.getByText(`${secondName} · Tier1`)).toBeVisible();
  await shoot(page, '04-step3-teams');
  await wizard.getByRole('button', { name: 'Continue to clients' }).click();

  // Steps 4 and 5: progressive loads; saving the selection completes the step.
  await expect(wizard.getByText('Step 4 of 6')).toBeVisible(psaTimeout);
  await wizard.getByRole('button', { name: 'Load clients' }).click();
  await expect(wizard.getByRole('button', { name: 'Select all' })).toBeVisible(psaTimeout);
  await wizard.getByRole('checkbox').first().check();
  await wizard.getByRole('checkbox').nth(1).check();
  // The company whose 1,100 contacts make the directory larger than one PSA page (IMPORT_JOURNEY).
  await wizard.getByRole('checkbox', { name: `Select ${IMPORT_JOURNEY.companyName}` }).check();
  await shoot(page, '05-step4-clients');
  await wizard.getByRole('button', { name: 'Save 3 selected' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.imports.savedClientsTitle })).toContainText('3 saved.', psaTimeout);
  await expect(wizard.getByText('Step 5 of 6')).toBeVisible(psaTimeout);

  // Step 5: contacts, cancelled part way and resumed (issue #7). The PSA's directory is more than one page of 1,000;
  // the simulator answers slowly for a moment, so the second page is still on its way when the admin cancels.
  const psa = simulatorClient();
  const psaContacts = await psa.countContacts();
  expect(psaContacts).toBeGreaterThan(1_000);
  const simFaults = `${siteUrl}/__sim/faults`;
  // Long enough that the second page is still on its way when the click lands, even on a loaded 2-core machine (with
  // 3 s the second page once arrived first: loading ended, Cancel went away, and the click waited for it in vain).
  expect((await page.request.post(simFaults, { data: { latencyMs: 10_000 } })).ok()).toBe(true);
  try {
    await wizard.getByRole('button', { name: 'Load contacts' }).click();
    await expect(wizard.getByText(new RegExp(`^1,000 loaded of ${shown(psaContacts)} `))).toBeVisible(psaTimeout);
    await wizard.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    expect((await page.request.post(simFaults, { data: { latencyMs: 0 } })).ok()).toBe(true);
  }
  await expect(wizard.getByRole('status').filter({ hasText: `Stopped at 1,000 of ${shown(psaContacts)}. Resume to load the rest.` })).toBeVisible(psaTimeout);
  await expect(wizard.getByText(/^1,000 loaded of /)).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Load again' })).toBeVisible();
  await shoot(page, '05b-step5-contacts-stopped');
  await wizard.getByRole('button', { name: 'Resume' }).click();
  await expect(wizard.getByText(new RegExp(`^${shown(psaContacts)} loaded of ${shown(psaContacts)} `))).toBeVisible(psaTimeout);
  await expect(wizard.getByText(/Stopped at/)).toHaveCount(0);
  await expect(wizard.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await wizard.getByRole('button', { name: 'Select all' }).click();
  await shoot(page, '05c-step5-contacts-resumed');
  // Select-all over the resumed list: only the contacts of the three companies saved in step 4 are saved, and the
  // toast says how many were not and why; the import company's count below shows each was saved once.
  await wizard.getByRole('button', { name: `Save ${shown(psaContacts)} selected` }).click();
  const contactsToast = page.getByRole('alert').filter({ hasText: MESSAGES.imports.savedContactsTitle });
  await expect(contactsToast).toContainText(/[\d,]+ saved\./, psaTimeout);
  await expect(contactsToast).toContainText(MESSAGES.imports.notSavedNoCompany.replace('{count} ', ''));

  // Step 6: the client type's auto-sync, then the finish.
  await expect(wizard.getByText('Step 6 of 6')).toBeVisible(psaTimeout);
  // The saved contacts are Switchboard's own copies now (before the finish's auto-sync copies the rest).
  const companies = await page.request.get(`/db/${msp.customDomain}/psaClients`, { params: { search: IMPORT_JOURNEY.companyName } });
  expect(companies.ok(), await companies.text()).toBe(true);
  const [importCompany] = ((await companies.json()) as { items: { psaCompanyId: string; name: string }[] }).items;
  expect(importCompany?.name).toBe(IMPORT_JOURNEY.companyName);
  const saved = await page.request.get(`/db/${msp.customDomain}/psaContactsByClientId`, { params: { psaCompanyId: importCompany?.psaCompanyId ?? '', pageSize: 1 } });
  expect(saved.ok(), await saved.text()).toBe(true);
  expect(((await saved.json()) as { total: number }).total).toBe(IMPORT_JOURNEY.contacts);
  await expect(wizard.getByLabel('Client company type')).not.toHaveValue('', psaTimeout);
  await shoot(page, '06-step6-finish');
  await wizard.getByRole('button', { name: 'Finish setup' }).click();
  await expect(wizard.getByText(WIZARD_MESSAGES.finished)).toBeVisible(psaTimeout);
  await shoot(page, '07-finished');

  // A batch sync of the board over the last 30 days runs to COMPLETED and the finished toast shows.
  const board = (await psa.listBoards()).find((entry) => entry.name === 'Help Desk');
  if (!board) throw new Error('the simulator has no Help Desk board');
  const today = new Date();
  const from = new Date(today.getTime() - 30 * 86_400_000);
  // The screen's clock is the page's: its 10-second first wait is fast-forwarded once the run is over, not waited out.
  await page.clock.install();
  await page.getByRole('link', { name: 'Sync boards and tickets' }).click();
  const sync = page.getByRole('region', { name: 'Sync boards and tickets' });
  await expect(sync).toBeVisible();
  await sync.getByRole('button', { name: 'Sync' }).click();
  await expect(sync.getByRole('alert')).toHaveText(MESSAGES.batchSync.datesRequired);
  await sync.getByLabel('Start date').fill(isoDay(from));
  await sync.getByLabel('End date').fill(isoDay(today));
  await sync.getByLabel('Boards').click();
  await page.getByRole('option', { name: 'Help Desk', exact: true }).click();
  await page.keyboard.press('Escape');
  await sync.getByRole('button', { name: 'Sync' }).click();
  const started = sync.getByRole('status').filter({ hasText: 'Board sync started successfully. Parent Run ID: ' });
  await expect(started).toBeVisible(psaTimeout);
  const parentRunId = ((await started.textContent()) ?? '').split('Parent Run ID: ')[1]?.trim() ?? '';
  await expect(sync.getByText('Initializing…')).toBeVisible();
  await expect
    .poll(async () => ((await (await page.request.get('/psa/api/batch/status', { params: { parentRunId } })).json()) as { phase2?: { status: string } }).phase2?.status, psaTimeout)
    .toBe('COMPLETED');
  // The count the screen must show: the PSA's tickets on the board entered from the start day through the whole end day (read once the run is over).
  const ticketIds = new Set<number>();
  const range = { boardIds: [board.id], createdFrom: new Date(`${isoDay(from)}T00:00:00Z`), createdBefore: new Date(new Date(`${isoDay(today)}T00:00:00Z`).getTime() + 86_400_000) };
  for await (const ticket of psa.streamTickets(range)) ticketIds.add(ticket.id);
  const inRange = ticketIds.size;
  expect(inRange).toBeGreaterThan(0);
  await page.clock.fastForward(BATCH_SYNC_INITIAL_WAIT_MS);
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.batchSync.finished })).toBeVisible();
  await expect(sync.getByTestId('sync-status')).toHaveText(`Boards: 1 board read · Tickets: ${shown(inRange)} ticket${inRange === 1 ? '' : 's'} copied`);
  await expect(sync.getByText('Initializing…')).toHaveCount(0);
  await shoot(page, '09-sync-completed');
  await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click();

  // Disconnecting (confirmed) clears the connection and sends the wizard back to step 1.
  await page.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect the PSA' });
  await expect(dialog.getByText(INTEGRATION_FORM_MESSAGES.disconnectConfirm)).toBeVisible();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText(INTEGRATION_FORM_MESSAGES.disconnected)).toBeVisible(psaTimeout);
  await expect(psaCard.getByText('Not connected')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Setup wizard' }).getByText('Step 1 of 6')).toBeVisible();
});

/**
 * Issue #7 "Done when": the Autotask demo MSP (fabrikam, connected but not onboarded) completes step 1 by mapping.
 * Autotask queues, statuses and issue types are picklists (decision 17): the editor offers no "create", the admin
 * maps the queue to existing statuses and sets tiers and SLA hours on the existing issue and sub-issue types.
 */
test('the Autotask demo admin completes wizard step 1 by mapping to existing picklist values', async ({ page }) => {
  test.setTimeout(180_000);
  const psaTimeout = { timeout: 45_000 };
  page.setDefaultTimeout(45_000);
  const [admin] = FABRIKAM_SIGN_INS;
  if (!admin) throw new Error('the Autotask demo MSP has no admin');
  const { redirectTo } = await signInThroughApi(page, { msp: FABRIKAM_MSP.customDomain, email: admin.email, password: DEMO_PASSWORD, kind: 'technician' });
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click({ timeout: 15_000 });
  await expect(page.getByText('Connected to Autotask')).toBeVisible();
  await expect(page.getByText(`API user ${DEMO_CREDENTIALS.autotask.username}`)).toBeVisible();

  const wizard = page.getByRole('region', { name: 'Setup wizard' });
  await expect(wizard.getByText('Step 1 of 6')).toBeVisible();
  await wizard.getByRole('combobox', { name: 'Board', exact: true }).click();
  await page.getByRole('option', { name: 'Help Desk', exact: true }).click();
  await expect(wizard.getByText('Autotask queue', { exact: true })).toBeVisible(psaTimeout);

  // Picklists: the screen says so and offers nothing to create (decision 17).
  await expect(wizard.getByText(/Autotask issue types and sub-issue types are picklists/)).toBeVisible();
  await expect(wizard.getByText(/Autotask statuses are a picklist/)).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Add type' })).toHaveCount(0);
  await expect(wizard.getByRole('button', { name: 'Add subtype' })).toHaveCount(0);
  await expect(wizard.getByRole('button', { name: 'Create status' })).toHaveCount(0);

  // Map the queue to the existing New and Closed statuses (choosing the one already shown keeps it: it used to clear it).
  const openStatus = wizard.getByRole('combobox', { name: 'Open (new ticket) status' });
  const closedStatus = wizard.getByRole('combobox', { name: 'Closed status' });
  await openStatus.click();
  await page.getByRole('option', { name: 'New', exact: true }).click();
  await closedStatus.click();
  await page.getByRole('option', { name: 'Closed (closes)', exact: true }).click();
  await expect(openStatus).toHaveValue('New');
  await expect(closedStatus).toHaveValue('Closed (closes)');

  // The existing issue type's sub-issue type gets its tier and SLA; Autotask's default SLA is 8 hours (decision 14).
  const accounts = wizard.getByRole('region', { name: 'Type Accounts & Access' });
  const reset = 'Accounts & Access / Password Reset';
  await expect(accounts.getByRole('textbox', { name: `SLA hours for ${reset}` })).toHaveValue('8');
  await accounts.getByRole('combobox', { name: `Tier for ${reset}` }).click();
  await page.getByRole('option', { name: 'Tier2' }).click();
  await accounts.getByRole('textbox', { name: `SLA hours for ${reset}` }).fill('4');
  await expect(wizard.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await shoot(page, '08-autotask-step1-mapping');

  // Continue before saving is refused with the step's rule.
  await wizard.getByRole('button', { name: 'Continue to technicians' }).click();
  await expect(wizard.getByText(WIZARD_MESSAGES.boardNotReady)).toBeVisible();
  await wizard.getByRole('button', { name: 'Save board' }).first().click();
  await expect(wizard.getByText('Board saved.')).toBeVisible(psaTimeout);

  // The mapping was stored against the Autotask picklist values, nothing was created.
  const stored = await page.request.get(`/db/${FABRIKAM_MSP.customDomain}/getPSATicketingConfiguration`);
  expect(stored.ok(), await stored.text()).toBe(true);
  const config = (await stored.json()) as { autotaskConfigV2?: { ticketQueueDetails: Array<{ queueName: string; newTicketStatusId: number | null; closingStatusId: number | null; issueTypes: Array<{ label: string; value: number | null; subIssueTypes: Array<{ label: string; value: number | null; tier: string; slaDeadlineInHours: number }> }> }> } };
  const queue = config.autotaskConfigV2?.ticketQueueDetails.find((entry) => entry.queueName === 'Help Desk');
  expect(queue?.newTicketStatusId).toBe(1);
  expect(queue?.closingStatusId).toBe(5);
  const mapped = queue?.issueTypes.find((type) => type.label === 'Accounts & Access')?.subIssueTypes.find((sub) => sub.label === 'Password Reset');
  expect(mapped).toMatchObject({ tier: 'Tier2', slaDeadlineInHours: 4 });
  expect(mapped?.value).toEqual(expect.any(Number));

  await wizard.getByRole('button', { name: 'Continue to technicians' }).click();
  await expect(wizard.getByText('Step 2 of 6')).toBeVisible(psaTimeout);
  await expect(wizard.getByRole('table', { name: 'PSA members' })).toBeVisible(psaTimeout);

  // Step 1 stays open and shows the saved mapping when the admin goes back.
  await page.reload();
  const again = page.getByRole('region', { name: 'Setup wizard' });
  await expect(again.getByText('Step 2 of 6')).toBeVisible(psaTimeout);
  await again.getByRole('button', { name: /Connect and board$/ }).click();
  await expect(again.getByRole('combobox', { name: 'Closed status' })).toHaveValue('Closed (closes)', psaTimeout);
  await expect(again.getByRole('region', { name: 'Type Accounts & Access' }).getByRole('textbox', { name: `SLA hours for ${reset}` })).toHaveValue('4');
});
