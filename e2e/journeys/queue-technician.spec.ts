import { MESSAGES } from '@switchboard/contracts';
import { expect, test } from '../fixtures';
import { activeTicketId, getNextTickets, myTicketIds, openTickets, simulatorClient } from '../queue-helpers';

/**
 * Issue #10, "Done when": a demo technician presses next, the timer runs, adds a Resolution note
 * and completes — and the simulator's ticket is closed with the note and a time entry.
 */
test('a technician gets next tickets, works one with the timer and a Resolution note, and completes it in the PSA', async ({ page }) => {
  await openTickets(page, 'Tier1');
  const ticketId = await getNextTickets(page);
  expect((await myTicketIds(page)).length).toBeGreaterThan(0);

  // The timer runs from the server's start time and ticks every second.
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  const timer = page.getByRole('timer', { name: `Time worked on ticket #${ticketId}` });
  const before = await timer.textContent();
  await expect(timer).not.toHaveText(before ?? '', { timeout: 3000 });

  const form = page.getByRole('form', { name: `Add a note to ticket #${ticketId}` });
  await form.getByText('Resolution', { exact: true }).click();
  const resolution = `Replaced the label printer's driver (${Date.now().toString(36)}).`;
  await form.getByRole('textbox', { name: 'New note' }).fill(resolution);
  await form.getByRole('button', { name: 'Add Resolution note' }).click();
  const notes = page.getByRole('list', { name: 'Ticket notes' });
  await expect(notes.getByText(resolution)).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'New note' })).toHaveValue('');

  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  await page.getByRole('dialog', { name: `Complete ticket #${ticketId}?` }).getByRole('button', { name: 'Complete ticket' }).click();
  await expect(page.getByRole('status')).toContainText(MESSAGES.queue.closed);
  await expect(page.getByRole('status')).toContainText(`#${ticketId}`);
  expect(await myTicketIds(page)).not.toContain(ticketId);
  // the confirmation goes after 3 seconds.
  await expect(page.getByRole('status')).toHaveCount(0, { timeout: 5000 });

  // What the PSA now holds: closed, with the Resolution note and a time entry for the work.
  const psa = simulatorClient();
  await expect.poll(async () => (await psa.getTicket(ticketId)).isClosed, { timeout: 20_000 }).toBe(true);
  await expect.poll(async () => (await psa.listNotes(ticketId)).some((note) => note.kind === 'resolution' && note.text.includes(resolution)), { timeout: 20_000 }).toBe(true);
  await expect.poll(async () => (await psa.listTimeEntries(ticketId)).length, { timeout: 20_000 }).toBeGreaterThan(0);
});

test('a technician requeues a ticket with a hold: it leaves their list and the PSA ticket stays open', async ({ page }) => {
  await openTickets(page, 'Tier1');
  if ((await page.getByRole('heading', { name: 'No tickets' }).count()) > 0) await page.getByRole('button', { name: 'Get next tickets' }).first().click();
  const ticketId = await activeTicketId(page);
  await page.getByRole('button', { name: 'Requeue', exact: true }).click();
  const dialog = page.getByRole('form', { name: 'Requeue ticket' });
  await dialog.getByLabel('Hold for (hours)').fill('2');
  await dialog.getByLabel('Tier').selectOption({ label: 'Tier2' });
  await dialog.getByRole('button', { name: 'Requeue' }).click();
  await expect(page.getByRole('status')).toContainText(MESSAGES.queue.requeued);
  expect(await myTicketIds(page)).not.toContain(ticketId);

  // On hold: it is in All Tickets as "On hold", not offered to anyone yet.
  await page.getByText('All Tickets', { exact: true }).click();
  await page.getByText('Rows', { exact: true }).click();
  // Found by its number, whatever page the other open tickets push it to.
  await page.getByRole('textbox', { name: 'Search tickets' }).fill(String(ticketId));
  const row = page.getByRole('row', { name: new RegExp(`#${ticketId} `) });
  await expect(row).toContainText('On hold');
  await expect(row).toContainText('Tier2');
  expect((await simulatorClient().getTicket(ticketId)).isClosed).toBe(false);
});

test('two technicians pressing next in two browsers never get the same ticket', async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    await openTickets(pageA, 'Tier1');
    await openTickets(pageB, 'Tier2');
    await Promise.all([pageA.getByRole('button', { name: 'Get next tickets' }).first().click(), pageB.getByRole('button', { name: 'Get next tickets' }).first().click()]);
    await activeTicketId(pageA);
    await activeTicketId(pageB);
    const mine = await myTicketIds(pageA);
    const theirs = await myTicketIds(pageB);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});
