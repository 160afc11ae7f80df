import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { PSA_WRITE_MESSAGES, type TQueueTicket } from '@switchboard/contracts';
import { demoUser, expect, signInThroughApi, test } from '../fixtures';
import { QUEUE_JOURNEY, SLA_JOURNEY, simulatorPort } from '../scenario';
import { simulatorClient } from '../simulator-client';

const SHOTS_DIR = process.env.QFEAT_SHOTS_DIR ?? 'test-results/screens/';
const CSRF = { 'x-switchboard-csrf': '1' };

/** The page scrolls no wider than the screen, then a full-page picture of it. */
async function shot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
  // A phone starts with the navigation panel closed; a desktop shows it.
  const toggle = page.getByRole('button', { name: width < 1000 ? 'Close navigation panel' : 'Open navigation panel' });
  if (await toggle.isVisible()) await toggle.click();
  const card = page.getByRole('region', { name: PSA_WRITE_MESSAGES.title });
  await card.scrollIntoViewIfNeeded();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  const box = await card.boundingBox();
  expect(box, 'the card is laid out').not.toBeNull();
  if (box) expect(box.x + box.width, `the card ends at ${box.x + box.width}px of ${width}px`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: `${SHOTS_DIR}psa-writes-${name}-${width}.png`, fullPage: true });
}

/**
 * Decision 013: a note the PSA could not take waits in the outbox; the admin sees it on the MSP integrations screen
 * as a change waiting for the PSA, with its ticket and the reason, and once the PSA answers again sends it with
 * "Send again": it lands in the PSA once and leaves the list.
 */
test('an admin sees a change waiting for the PSA and sends it again once the PSA is back', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = demoUser('admin');
  const { redirectTo } = await signInThroughApi(page, admin);
  const simulator = `http://127.0.0.1:${simulatorPort(Number(process.env.E2E_PORT ?? 4317))}`;

  // A ticket no other journey works on, with nothing of its own waiting for the PSA.
  const listed = await page.request.get('/db/api/ticketQueue/getAll', { params: { mspCustomDomain: admin.msp, show: 'all' } });
  expect(listed.ok(), await listed.text()).toBe(true);
  const othersWorkOn = new Set<string>([...SLA_JOURNEY.fresh.map((each) => each.summary), SLA_JOURNEY.overdue.summary, SLA_JOURNEY.halfway.summary]);
  const ticket = ((await listed.json()) as { tickets: TQueueTicket[] }).tickets.find(
    (each) =>
      each.state === 'queued' && each.assignedTechId === null && each.holdUntil === null && each.psaPendingWrites === 0 && !each.title.startsWith(QUEUE_JOURNEY.summaryPrefix) && !othersWorkOn.has(each.title),
  );
  if (!ticket) throw new Error('no queue ticket for the journey');
  // Only the technician a ticket is with writes notes on it (review s28): the admin picks it first (A-127), and its
  // assignment reaches the PSA before the note is written.
  const me = (await (await page.request.get('/auth/api/auth/microsoft-user')).json()) as { user?: { id?: string } };
  const picked = await page.request.post('/db/api/ticketQueue/manualPick', { params: { mspCustomDomain: admin.msp, techId: me.user?.id ?? '', ticketQueueEntityId: ticket.id }, headers: CSRF });
  expect(picked.ok(), await picked.text()).toBe(true);
  await expect
    .poll(async () => ((await (await page.request.get('/db/api/ticketQueue/getAll', { params: { mspCustomDomain: admin.msp, show: 'all' } })).json()) as { tickets: TQueueTicket[] }).tickets.find((each) => each.id === ticket.id)?.psaPendingWrites)
    .toBe(0);

  // The PSA refuses every note on that ticket for now (503, more times than the client's own quick retries).
  const notesPath = `/v4_6_release/apis/3.0/service/tickets/${ticket.ticketId}/notes`;
  const faults = await page.request.post(`${simulator}/__sim/faults`, { data: { failNext: { kind: 503, count: 1000, method: 'POST', path: notesPath } } });
  expect(faults.ok(), await faults.text()).toBe(true);
  const text = `Replaced the fuser unit (journey ${Date.now()})`;
  try {
    const note = await page.request.post('/psa/addNotesToTicket', { params: { mspCustomDomain: admin.msp, ticketId: ticket.ticketId, internalAnalysisFlag: 'true' }, headers: CSRF, data: { info: '', text } });
    expect(note.ok(), await note.text()).toBe(true);
    expect(((await note.json()) as { items: { psa: { status: string } }[] }).items[0]?.psa.status).toBe('pending');

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(redirectTo);
    await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click();
    const card = page.getByRole('region', { name: PSA_WRITE_MESSAGES.title });
    const write = card.getByRole('listitem').filter({ hasText: `Ticket #${ticket.ticketId}: ${ticket.title}` });
    await expect(write).toHaveCount(1, { timeout: 20_000 });
    await expect(write).toHaveAccessibleName(PSA_WRITE_MESSAGES.summary.note('internal'));
    await expect(write.getByText(PSA_WRITE_MESSAGES.waiting, { exact: true })).toBeVisible();
    await expect(write.getByText(/^Reason: /)).toBeVisible();
    await expect(write.getByText(/^\d+ tr(y|ies) · next try /)).toBeVisible();
    // DESIGN §9: the card with a waiting change (its badge, reason and button) passes WCAG 2.1 AA; the accessibility
    // journey sees it only empty.
    const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="psa-writes-title"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.passes.length, 'axe looked at the card').toBeGreaterThan(0);
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join(', ')}`)).toEqual([]);
    await shot(page, 'waiting', 1440);
    await shot(page, 'waiting', 390);
    await page.setViewportSize({ width: 1440, height: 900 });
  } finally {
    // The PSA answers again.
    expect((await page.request.post(`${simulator}/__sim/reset`, { data: {} })).ok()).toBe(true);
  }

  const card = page.getByRole('region', { name: PSA_WRITE_MESSAGES.title });
  const write = card.getByRole('listitem').filter({ hasText: `Ticket #${ticket.ticketId}:` });
  await write.getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain }).click();
  await expect(card.getByRole('status').filter({ hasText: PSA_WRITE_MESSAGES.sent })).toBeVisible({ timeout: 20_000 });
  await expect(write).toHaveCount(0);
  const inPsa = await simulatorClient().listNotes(ticket.ticketId);
  expect(inPsa.filter((note) => note.text.endsWith(text))).toHaveLength(1);
  await shot(page, 'sent', 1440);
  await shot(page, 'sent', 390);
});
