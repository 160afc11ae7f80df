import { MESSAGES } from '@switchboard/contracts';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/**
 * Issue #9 agents: a technician's agent form shows the four 01 §5 messages and sends
 * nothing; the agent is created, edited (a new agent from the old, R-245) and soft-deleted.
 */
test('a technician creates, edits and deletes an agent', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('technician'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Agents' }).click();
  const agents = page.getByRole('list', { name: 'Agents' });
  await expect(agents.getByRole('listitem').filter({ hasText: 'Built in' })).toHaveCount(1);

  let createCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/gpt/assistant/createNewAgent')) createCalls += 1;
  });
  await page.getByRole('button', { name: 'Create agent' }).click();
  const form = page.getByRole('form', { name: 'Create agent' });
  await form.getByRole('button', { name: 'Create agent' }).click();
  for (const message of Object.values(MESSAGES.agentForm)) await expect(form.getByText(message, { exact: true })).toHaveCount(1);
  expect(createCalls).toBe(0);

  const stamp = Date.now().toString(36);
  const name = `M365 Helper ${stamp}`;
  await form.getByLabel('Agent name').fill(name);
  await form.getByLabel('Role').fill('Microsoft 365 specialist');
  await form.getByLabel('Description').fill('Answers Microsoft 365 mailbox and licence questions.');
  await form.getByRole('textbox', { name: 'Objective 1' }).fill('Fix mailbox problems');
  await form.getByRole('button', { name: 'Add objective' }).click();
  await form.getByRole('textbox', { name: 'Objective 2' }).fill('Explain licences');
  await form.getByRole('button', { name: 'Create agent' }).click();
  const card = agents.getByRole('listitem', { name: name, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText('Explain licences')).toBeVisible();
  expect(createCalls).toBe(1);

  await card.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${name}` });
  await expect(edit.getByLabel('Role')).toHaveValue('Microsoft 365 specialist');
  const renamed = `M365 Expert ${stamp}`;
  await edit.getByLabel('Agent name').fill(renamed);
  await edit.getByRole('button', { name: 'Save agent' }).click();
  await expect(agents.getByRole('listitem', { name: renamed, exact: true })).toBeVisible();
  // The edit made a new agent and retired the old one: only the new name is listed.
  await expect(agents.getByRole('listitem', { name: name, exact: true })).toHaveCount(0);

  await agents.getByRole('listitem', { name: renamed, exact: true }).getByRole('button', { name: `Delete ${renamed}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete agent' }).click();
  await expect(agents.getByRole('listitem', { name: renamed, exact: true })).toHaveCount(0);
  await page.reload();
  await page.getByRole('navigation').getByRole('button', { name: 'Agents' }).click();
  await expect(page.getByRole('list', { name: 'Agents' }).getByRole('listitem').filter({ hasText: 'Built in' })).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: renamed, exact: true })).toHaveCount(0);
});

/** Issue #9 chat: the built-in troubleshooter answers (streamed, sources cited), and feedback is confirmed for 2 seconds. */
test('a technician asks the troubleshooter in the Engineer tab and rates the answer', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('technician'));
  await page.goto(redirectTo);
  const jarvis = page.getByRole('complementary', { name: 'Jarvis assistant' });
  await page.getByRole('button', { name: 'Jarvis', exact: true }).click();
  await jarvis.getByRole('tab', { name: 'Engineer' }).click();
  await expect(jarvis.getByRole('radio', { name: 'History' })).toBeChecked();
  const question = 'A user forgot their password and needs a reset';
  await jarvis.getByRole('textbox', { name: 'Message to Jarvis Troubleshooter' }).fill(question);
  await jarvis.getByRole('button', { name: 'Send message' }).click();
  const log = jarvis.getByRole('log', { name: 'Chat with Jarvis Troubleshooter' });
  await expect(log.getByText(question)).toBeVisible();
  const rate = log.getByRole('button', { name: 'Helpful answer', exact: true });
  await expect(rate).toBeVisible({ timeout: 20_000 });
  // The conversation is listed under History, named "Chat - {timestamp}".
  await expect(jarvis.getByRole('list', { name: 'Conversations' }).getByText(/^Chat - /)).toHaveCount(1);
  await rate.click();
  const status = log.getByRole('status').filter({ hasText: MESSAGES.assistant.feedbackSaved });
  await expect(status).toBeVisible();
  await expect(status).toBeHidden({ timeout: 4_000 });
});
