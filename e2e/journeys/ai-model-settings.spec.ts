import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';
import { llmPort } from '../scenario';

/**
 * Decision 023: an MSP admin connects Jarvis to an AI model from the Claude card, tests it (the fake
 * model beside the e2e server answers through the real Anthropic SDK), sees only the key's last four
 * characters, and removes it again after a confirmation.
 */
test('an admin connects an AI model from the Claude card, tests it and removes it', async ({ page }) => {
  const admin = demoUser('admin');
  const { redirectTo } = await signInThroughApi(page, admin);
  // The Overview's path: …/tickets opens the queue.
  await page.goto(redirectTo.replace(/\/tickets$/, ''));
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.getByRole('navigation').getByRole('button', { name: 'Client integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  const settings = page.getByRole('region', { name: 'AI model for Jarvis' });
  await expect(settings.getByText(/No AI model is connected/)).toBeVisible();
  await page.getByRole('article', { name: 'Claude' }).getByRole('button', { name: 'Set up' }).click();
  await expect(settings.getByText('Anthropic Claude')).toBeVisible();

  const port = Number(new URL(page.url()).port);
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('claude-journey');
  await settings.getByLabel('API key').fill('sk-ant-journey-key-7Q2x');
  await settings.getByRole('textbox', { name: 'Base URL (optional)' }).fill(`http://127.0.0.1:${llmPort(port)}`);
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByText(/Jarvis uses claude-journey \(Anthropic Claude\), key ••••7Q2x/)).toBeVisible();
  await expect(settings.getByLabel('API key')).toHaveValue('');
  await expect(page.getByText('sk-ant-journey-key')).toHaveCount(0);

  await settings.getByRole('button', { name: 'Test' }).click();
  await expect(settings.getByRole('status')).toContainText(/claude-journey answered in \d+ ms\./);
  await screenshots(page, 'ai-model-settings');
  await settings.screenshot({ path: 'test-results/screens/ai-model-card-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Close navigation panel' }).click();
  await settings.screenshot({ path: 'test-results/screens/ai-model-card-390.png' });
  await page.getByRole('button', { name: 'Open navigation panel' }).click();
  await page.setViewportSize({ width: 1280, height: 860 });

  await settings.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Remove AI model' }).click();
  await expect(settings.getByText(/No AI model is connected/)).toBeVisible();
  const stored = await page.request.get(`/db/${admin.msp}/llm-provider`);
  expect(await stored.json()).toMatchObject({ isConfigured: false });

  // Decision 026: an OpenAI-compatible model with an embedding model; Claude's form has no such field.
  await page.getByRole('article', { name: 'OpenAI' }).getByRole('button', { name: 'Set up' }).click();
  await settings.getByRole('textbox', { name: 'Model', exact: true }).fill('gpt-journey');
  await settings.getByLabel('API key').fill('sk-openai-journey-4Kp9');
  await settings.getByRole('textbox', { name: 'Base URL (optional)' }).fill(`http://127.0.0.1:${llmPort(port)}/v1`);
  await settings.getByRole('textbox', { name: 'Embedding model (optional)' }).fill('embed-journey');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByText(/Jarvis uses gpt-journey .*key ••••4Kp9\..*found by meaning with embed-journey\./)).toBeVisible();
  await screenshots(page, 'ai-model-settings-openai');
  await settings.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove AI model' }).click();
  await expect(settings.getByText(/No AI model is connected/)).toBeVisible();
});
