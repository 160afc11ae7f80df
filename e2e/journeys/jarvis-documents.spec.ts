import { MESSAGES } from '@switchboard/contracts';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';

/**
 * Issue #9 documents (R-239): an admin uploads a Markdown runbook with a description; it is
 * listed, and the Knowledge Base finds it by words from its text; it downloads as uploaded; once
 * deleted it leaves the list and the Knowledge Base no longer finds it.
 */
test('a document is uploaded, found in the Knowledge Base, downloaded and deleted', async ({ page }) => {
  const { redirectTo } = await signInThroughApi(page, demoUser('admin'));
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();

  const stamp = Date.now().toString(36);
  const fileName = `printer-runbook-${stamp}.md`;
  const runbook = `# Zebra label printer ${stamp}\n\nWhen the Zebra label printer prints blank labels, recalibrate the media sensor: hold the feed button until it flashes twice.\n`;
  const form = page.getByRole('form', { name: 'Upload a document' });
  await form.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'text/markdown',
    buffer: Buffer.from(runbook),
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

  await screenshots(page, 'documents');
  // DESIGN §9: the list with its Download and Delete buttons passes WCAG 2.1 AA.
  const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="documents-title"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join(', ')}`)).toEqual([]);

  const table = page.getByRole('table', { name: 'Uploaded documents' });
  const downloading = page.waitForEvent('download');
  await table.getByRole('link', { name: `Download ${fileName}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(fileName);
  expect(await readFile(await download.path(), 'utf8')).toBe(runbook);

  await table.getByRole('button', { name: `Delete ${fileName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${fileName}?` });
  await dialog.getByRole('button', { name: 'Delete document' }).click();
  await expect(page.getByText(MESSAGES.documents.deleted)).toBeVisible();
  await expect(table.getByRole('rowheader', { name: fileName })).toHaveCount(0);
  await knowledge.getByRole('button', { name: 'Search' }).click();
  await expect(results.getByText(/recalibrate the media sensor/)).toHaveCount(0);
});
