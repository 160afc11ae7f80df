import { MESSAGES } from '@switchboard/contracts';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';

/**
 * Issue #9 documents: an admin uploads a Markdown runbook with a description; it is
 * listed, and the Knowledge Base finds it by words from its text.
 */
test('a document is uploaded and found in the Knowledge Base', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();

  const stamp = Date.now().toString(36);
  const fileName = `printer-runbook-${stamp}.md`;
  const form = page.getByRole('form', { name: 'Upload a document' });
  await form.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'text/markdown',
    buffer: Buffer.from(`# Zebra label printer ${stamp}\n\nWhen the Zebra label printer prints blank labels, recalibrate the media sensor: hold the feed button until it flashes twice.\n`),
  });
  await form.getByLabel('Description').fill('How the warehouse fixes blank labels');
  await form.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText(MESSAGES.documents.uploaded)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Uploaded documents' }).getByText(fileName)).toBeVisible();

  // The Knowledge Base search finds it by words of its text (A-100: 5 results, near).
  const knowledge = page.getByRole('search', { name: 'Search the knowledge base' });
  await knowledge.getByLabel('Search').fill(`zebra printer blank labels ${stamp}`);
  await knowledge.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('list', { name: 'Knowledge results' });
  await expect(results.getByRole('listitem').filter({ hasText: 'Document' }).filter({ hasText: stamp }).first()).toBeVisible();
  await expect(results.getByText(/recalibrate the media sensor/).first()).toBeVisible();
});
