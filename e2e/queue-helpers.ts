import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_SIGN_INS, signInThroughApi } from './fixtures';

export { simulatorClient } from './simulator-client';

/** A demo technician by tier (the demo seed has a Tier1 and a Tier2 technician besides the Admin). */
export function demoTechnician(tier: 'Tier1' | 'Tier2'): { msp: string; email: string; password: string; kind: 'technician' } {
  const label = tier === 'Tier1' ? 'Tier 1 technician' : 'Tier 2 technician';
  const entry = DEMO_SIGN_INS.find((signIn) => signIn.role === label);
  if (!entry) throw new Error(`no demo ${label}`);
  return { msp: 'northwind', email: entry.email, password: DEMO_PASSWORD, kind: 'technician' };
}

/** Signs the technician in through the API and opens the Tickets navigation option. */
export async function openTickets(page: Page, tier: 'Tier1' | 'Tier2'): Promise<void> {
  await openTicketsAs(page, demoTechnician(tier));
}

/** Signs this technician user in through the API and opens the Tickets navigation option. */
export async function openTicketsAs(page: Page, user: { msp: string; email: string; password: string; kind: 'technician' }): Promise<void> {
  const { redirectTo } = await signInThroughApi(page, user);
  await page.goto(redirectTo);
  // Panels start closed at 1023 px and below: open the navigation panel and choose Tickets.
  await expect(page.getByRole('button', { name: /^(Open|Close) navigation panel$/ })).toBeVisible();
  const openPanel = page.getByRole('button', { name: 'Open navigation panel' });
  const wasClosed = await openPanel.isVisible();
  if (wasClosed) await openPanel.click();
  await page.getByRole('navigation', { name: 'Navigation panel' }).getByRole('button', { name: 'Tickets' }).click();
  // On a phone, choosing a screen closes the navigation itself; elsewhere close what was opened here.
  const closePanel = page.getByRole('button', { name: 'Close navigation panel' });
  if (wasClosed && (await closePanel.isVisible())) await closePanel.click();
  await expect(page.getByRole('heading', { name: 'Tickets', level: 1, exact: true })).toBeVisible();
}

/** The PSA ticket ids in "My Ticket": the side list at 1600 px and wider, the ticket picker below. */
export async function myTicketIds(page: Page): Promise<number[]> {
  return (await myTicketLabels(page)).map((label) => Number(/^#(\d+)/.exec(label)?.[1]));
}

/** The labels ("#id title…") of the tickets in "My Ticket", in the order shown. */
export async function myTicketLabels(page: Page): Promise<string[]> {
  const list = page.getByRole('navigation', { name: 'My tickets' });
  return (await list.count()) > 0 ? await list.getByRole('button', { name: /^#\d+/ }).allTextContents() : await page.getByRole('combobox', { name: 'Active ticket' }).locator('option').allTextContents();
}

/** The active ticket's PSA id, read from its heading. */
export async function activeTicketId(page: Page): Promise<number> {
  const heading = page.getByRole('heading', { level: 2, name: /^#\d+ / });
  await expect(heading).toBeVisible();
  const text = (await heading.textContent()) ?? '';
  return Number(/^#(\d+)/.exec(text)?.[1]);
}

/**
 * Presses "Get next tickets" and waits for its answer: the first ticket it answers becomes the active one, whose
 * heading and running timer the person then sees. Its PSA id. (Reading the heading right after the click
 * raced the answer when the technician already held tickets: it still showed the one active before.)
 */
export async function getNextTickets(page: Page): Promise<number> {
  const answer = page.waitForResponse((response) => response.url().includes('/nextTickets') && response.request().method() === 'GET');
  await page.getByRole('button', { name: 'Get next tickets' }).first().click();
  const { tickets } = (await (await answer).json()) as { tickets: Array<{ ticketId: number }> };
  const first = tickets[0];
  if (!first) throw new Error('next tickets answered none');
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^#${first.ticketId} `) })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  return first.ticketId;
}
