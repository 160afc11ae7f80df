import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { MESSAGES } from '@switchboard/contracts';
import type { TCreateTicketResponse } from '@switchboard/contracts';
import { createPsaClient } from '@switchboard/psa';
import type { PsaClient } from '@switchboard/psa';
import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';

// The simulator's fixed demo keys (packages/psa-sim/src/context.ts); its address is the demo integration's psaUrl.
const SIM_KEYS = { companyId: 'northwind', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1', clientId: '00000000-0000-4000-8000-000000000001' };

/** The simulator as ConnectWise, read directly through an admin's view of the integration: what really landed in the PSA. */
async function simulatorOf(adminPage: Page): Promise<PsaClient> {
  const integration = await adminPage.request.get(`/db/${demoUser('admin').msp}/integrations`);
  const { psaUrl } = (await integration.json()) as { psaUrl: string };
  return createPsaClient({ psaType: 'connectwise', siteUrl: psaUrl, ...SIM_KEYS }, { tenantKey: 'e2e-jarvis' });
}

/** One sign-in per account for the whole file (20 sign-ins per account per 5 minutes): its cookies and landing page. */
interface TSession {
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
  redirectTo: string;
}

async function signInOnce(browser: Browser, kind: 'admin' | 'technician' | 'client', then?: (page: Page) => Promise<void>): Promise<TSession> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const { redirectTo } = await signInThroughApi(page, demoUser(kind));
    if (then) await then(page);
    return { cookies: await context.cookies(), redirectTo };
  } finally {
    await context.close();
  }
}

async function openAs(page: Page, session: TSession): Promise<void> {
  await page.context().addCookies(session.cookies);
  await page.goto(session.redirectTo);
}

const CSRF = { 'x-switchboard-csrf': '1' };

/**
 * The demo MSP's ticket board, as an admin saves it on the Board screen: the simulator's Help Desk
 * board with its types and subtypes (A-026 → A-030 → A-034). Jarvis proposes only from it.
 */
async function configureHelpDeskBoard(page: Page): Promise<void> {
  const admin = demoUser('admin');
  const current = (await (await page.request.get(`/db/${admin.msp}/getPSATicketingConfiguration`)).json()) as { connectWiseConfig?: { boardDetails: Array<{ boardName: string }> } };
  if (!current.connectWiseConfig?.boardDetails.some((board) => board.boardName === 'Help Desk')) {
    const boards = (await (await page.request.get(`/psa/getConnectWiseBoards?mspCustomDomain=${admin.msp}`)).json()) as Array<{ id: number; name: string }>;
    const helpDesk = boards.find((board) => board.name === 'Help Desk');
    if (!helpDesk) throw new Error('the simulator has no Help Desk board');
    const merged = (await (await page.request.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${admin.msp}&boardId=${helpDesk.id}`)).json()) as Record<string, unknown> & { priorities: unknown; mspConnectWiseBoardTypes: unknown };
    const { psaType: _psaType, isConfigured: _isConfigured, statuses: _statuses, canCreate: _canCreate, ...detail } = merged;
    // The admin gives every subtype a priority, so a proposal carries one to the PSA.
    const priorities = detail.priorities as Array<{ priorityId: number; priority: string }>;
    const high = priorities.find((priority) => /high/i.test(priority.priority)) ?? priorities[0];
    if (!high) throw new Error('the Help Desk board has no priorities');
    for (const type of detail.mspConnectWiseBoardTypes as Array<{ mspConnectWiseBoardSubTypes: Array<Record<string, unknown>> }>) {
      for (const subtype of type.mspConnectWiseBoardSubTypes) Object.assign(subtype, { priorityId: high.priorityId, priority: high.priority });
    }
    const saved = await page.request.post(`/db/${admin.msp}/addUpdatePSATicketingConfiguration`, { headers: CSRF, data: { connectWiseConfig: { boardDetails: [detail] } } });
    expect(saved.ok(), await saved.text()).toBe(true);
  }
}

const selectedLabel = (select: Locator) => select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');

/** Describe a problem, answer every question with its first option and send the answers. */
async function describeAndAnswer(page: Page, chat: Locator, problem: string) {
  await chat.getByRole('textbox', { name: 'Message to Jarvis' }).fill(problem);
  await chat.getByRole('textbox', { name: 'Message to Jarvis' }).press('Enter');
  const answers = chat.getByRole('group', { name: 'Answers' });
  await expect(answers).toBeVisible({ timeout: 20_000 });
  // One answer per question: the buttons of a question share its group of options.
  const buttons = answers.getByRole('button');
  await buttons.first().click();
  await chat.getByRole('button', { name: /^Send \d+ answers?$/ }).click();
  await expect(chat.getByRole('group', { name: 'Troubleshooting steps' }).first()).toBeVisible({ timeout: 20_000 });
}

test.describe('tickets by chat (02 §4)', () => {
  let client: TSession;
  let technician: TSession;
  let psa: PsaClient;
  test.beforeAll(async ({ browser }) => {
    // The demo admin configures the board once; the journeys themselves run as a client and a technician.
    await signInOnce(browser, 'admin', async (page) => {
      await configureHelpDeskBoard(page);
      psa = await simulatorOf(page);
    });
    client = await signInOnce(browser, 'client');
    technician = await signInOnce(browser, 'technician');
  });

  test('a client describes a problem, answers, confirms, and the ticket is in the PSA as proposed with the conversation', async ({ page }) => {
    test.setTimeout(120_000);
    await openAs(page, client);
    const chat = page.getByRole('complementary', { name: 'Jarvis assistant' });
    const problem = 'The office printer shows offline and my print jobs are stuck in the queue';
    await describeAndAnswer(page, chat, problem);

    // "My Ticket" shows the proposal with Confirm and Cancel.
    await expect(page.getByRole('radio', { name: 'My Ticket' })).toBeChecked();
    const ticket = page.getByRole('region', { name: 'Your ticket' });
    const board = await selectedLabel(ticket.getByLabel('Board', { exact: true }));
    const category = await selectedLabel(ticket.getByLabel('Category', { exact: true }));
    const subcategory = await selectedLabel(ticket.getByLabel('Subcategory', { exact: true }));
    expect(category).toBe('Hardware');
    expect(subcategory).toBe('Printer / Scanner');
    const priorityText = (await ticket.getByRole('group', { name: 'Filled from the board configuration' }).textContent()) ?? '';
    // DESIGN §9: the chat, its buttons and the ticket form are usable with a screen reader.
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    const created = page.waitForResponse((response) => response.url().includes('/psa/createTicket') && response.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Confirm' }).click();
    const response = await created;
    expect(response.ok(), await response.text()).toBe(true);
    const result = (await response.json()) as TCreateTicketResponse;
    await expect(chat.getByText(result.summary.slice(0, 40), { exact: false })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
    expect(result.psaWriteState).toBe('done');
    expect(result.ticketId).not.toBeNull();

    const atPsa = await psa.getTicket(result.ticketId ?? 0);
    const boards = await psa.listBoards();
    expect(boards.find((candidate) => candidate.id === atPsa.boardId)?.name).toBe(board);
    const types = await psa.listTypes(atPsa.boardId);
    expect(types.find((type) => type.id === atPsa.typeId)?.name).toBe(category);
    const subtypes = await psa.listSubtypes(atPsa.boardId);
    expect(subtypes.find((subtype) => subtype.id === atPsa.subtypeId)?.name).toBe(subcategory);
    const priorities = await psa.listPriorities();
    const priorityName = priorities.find((priority) => priority.id === atPsa.priorityId)?.name ?? '(none)';
    expect(priorityText).toContain(`Priority: ${priorityName}`);
    const notes = await psa.listNotes(atPsa.id);
    expect(notes.map((note) => note.text).join('\n')).toContain(problem);

    // "All Tickets" lists the client's own tickets, the new one with its progress.
    await expect(page.getByRole('list', { name: 'Your tickets' }).getByText(atPsa.summary).first()).toBeVisible();
  });

  // Regression: a reload mid-way lost the chat and the proposed ticket, and the stored draft was left behind.
  test('a client who reloads the page mid-way finds the questions and the proposed ticket again, and carries on', async ({ page }) => {
    test.setTimeout(90_000);
    await openAs(page, client);
    const chat = page.getByRole('complementary', { name: 'Jarvis assistant' });
    const problem = 'Outlook keeps asking for my password since this morning';
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).fill(problem);
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).press('Enter');
    await expect(chat.getByRole('group', { name: 'Answers', exact: true })).toBeVisible({ timeout: 20_000 });

    await page.reload();
    await expect(chat.getByRole('paragraph').filter({ hasText: problem })).toBeVisible();
    const answers = chat.getByRole('group', { name: 'Answers', exact: true });
    await expect(answers).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your ticket' }).getByRole('textbox', { name: 'Ticket title' })).toHaveValue(problem);
    await answers.getByRole('button').first().click();
    await chat.getByRole('button', { name: /^Send \d+ answers?$/ }).click();
    await expect(chat.getByRole('group', { name: 'Troubleshooting steps' }).first()).toBeVisible({ timeout: 20_000 });
    await page.getByRole('region', { name: 'Your ticket' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(chat.getByText(MESSAGES.ticketCreationCancelled)).toBeVisible();
  });

  test('cancel shows "Ticket Creation Cancelled." and nothing reaches the PSA', async ({ page }) => {
    test.setTimeout(90_000);
    await openAs(page, client);
    const chat = page.getByRole('complementary', { name: 'Jarvis assistant' });
    let createCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/psa/createTicket')) createCalls += 1;
    });
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).fill('My VPN disconnects every few minutes when I work from home');
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).press('Enter');
    const ticket = page.getByRole('region', { name: 'Your ticket' });
    await expect(ticket).toBeVisible({ timeout: 20_000 });
    await ticket.getByRole('button', { name: 'Cancel' }).click();
    await expect(chat.getByText(MESSAGES.ticketCreationCancelled)).toBeVisible();
    await expect(page.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
    await expect(page.getByRole('region', { name: 'Your ticket' })).toHaveCount(0);
    expect(createCalls).toBe(0);
  });

  test('a problem the first answers leave unclear gets one more round of questions beside the steps (decision 038)', async ({ page }) => {
    test.setTimeout(90_000);
    await openAs(page, client);
    const chat = page.getByRole('complementary', { name: 'Jarvis assistant' });
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).fill('My computer is really slow and sometimes freezes when I open files from the shared drive');
    await chat.getByRole('textbox', { name: 'Message to Jarvis' }).press('Enter');
    const firstRound = chat.getByRole('group', { name: 'Answers', exact: true });
    await expect(firstRound).toBeVisible({ timeout: 20_000 });
    const questions = await firstRound.getByRole('group', { name: /^Question \d+$/ }).count();
    expect(questions).toBeGreaterThan(0);
    for (let index = 1; index <= questions; index += 1) await firstRound.getByRole('group', { name: `Question ${index}` }).getByRole('button', { name: 'Not sure' }).click();
    await chat.getByRole('button', { name: `Send ${questions} answer${questions === 1 ? '' : 's'}` }).click();

    // Still unsure: new questions, answerable like the first ones, with the steps it found meanwhile.
    await expect(chat.getByText(MESSAGES.assistant.stillUnsureAskMore)).toBeVisible({ timeout: 20_000 });
    const followUp = chat.getByRole('group', { name: /^Answers( and troubleshooting steps)?$/ });
    await expect(followUp.getByRole('group', { name: 'Question 1' })).toBeVisible();
    await expect(chat.getByText('Answer the questions, then send them.')).toBeVisible();
    await screenshots(page, 'jarvis-follow-up-questions');
    await followUp.getByRole('group', { name: 'Question 1' }).getByRole('button', { name: 'Not sure' }).click();
    await chat.getByRole('button', { name: 'Send 1 answer' }).click();
    // Asked once: now the form is where the category is chosen, and the chat asks nothing more.
    await expect(chat.getByText(MESSAGES.assistant.abstainedAfterAnswers)).toBeVisible({ timeout: 20_000 });
    await expect(chat.getByRole('group', { name: 'Question 1' })).toHaveCount(0);
  });

  // A demo technician with the built-in Technician role: no user-management permission, so the Companies
  // screen's stay closed to them (decisions #12); the ticket form's own lookups (decision 028) serve them.
  test('a technician creates a ticket for a chosen company and contact', async ({ page }) => {
    test.setTimeout(120_000);
    await openAs(page, technician);
    const msp = demoUser('technician').msp;
    expect((await page.request.get(`/db/${msp}/psaContactsByClientId?psaCompanyId=1`)).status()).toBe(403);
    const chat = page.getByRole('complementary', { name: 'Jarvis assistant' });
    await page.getByRole('button', { name: 'Jarvis', exact: true }).click();
    await chat.getByRole('tab', { name: 'Tickets' }).click();
    await describeAndAnswer(page, chat, 'A new employee starts Monday and needs an account and a mailbox');
    const ticket = chat.getByRole('region', { name: 'Your ticket' });
    const company = ticket.getByLabel('Company', { exact: true });
    await expect(company.locator('option')).not.toHaveCount(1);
    await ticket.getByLabel('Find a company').fill('Brightwater');
    await expect(company.locator('option', { hasText: 'Brightwater Family Dental' })).toHaveCount(1);
    await company.selectOption({ label: 'Brightwater Family Dental' });
    const companyId = Number(await company.inputValue());
    const contact = ticket.getByLabel('Contact', { exact: true });
    await expect(contact).toBeEnabled();
    await expect(contact.locator('option').first()).toHaveText('Choose a contact');
    // The company's active contacts; a search narrows them, and choosing one fills the person's details.
    await expect(contact.locator('option')).not.toHaveCount(1);
    await ticket.getByLabel('Find a contact').fill('Beaulieu');
    const tanya = contact.locator('option', { hasText: 'Tanya Beaulieu' });
    await expect(tanya).toHaveCount(1);
    await expect(contact.locator('option')).toHaveCount(2);
    const contactId = Number(await tanya.getAttribute('value'));
    await contact.selectOption({ value: String(contactId) });
    await expect(ticket.getByLabel('Name', { exact: true })).toHaveValue('Tanya Beaulieu');
    await expect(ticket.getByLabel('Email', { exact: true })).toHaveValue('tanya.beaulieu@brightwaterdental.example');

    const created = page.waitForResponse((response) => response.url().includes('/psa/createTicket') && response.request().method() === 'POST');
    await ticket.getByRole('button', { name: 'Confirm' }).click();
    const response = await created;
    expect(response.ok(), await response.text()).toBe(true);
    const result = (await response.json()) as TCreateTicketResponse;
    expect(result.psaWriteState).toBe('done');
    await expect(chat.getByText(result.summary.slice(0, 40), { exact: false })).toBeVisible();
    const atPsa = await psa.getTicket(result.ticketId ?? 0);
    expect(atPsa.companyId).toBe(companyId);
    expect(atPsa.contactId).toBe(contactId);
    // The PSA's own record of the contact the ticket names is the person the technician chose.
    const [tanyaAtPsa] = await psa.findContactsByEmail('tanya.beaulieu@brightwaterdental.example');
    expect(tanyaAtPsa?.id).toBe(atPsa.contactId);
    expect(tanyaAtPsa?.companyId).toBe(companyId);
  });
});
