import { ImapFlow } from 'imapflow';
import { EMAIL_MAIL_MESSAGES } from '@switchboard/contracts';
import { demoUser, expect, screenshots, signInThroughApi, test } from '../fixtures';
import { MAILBOX_JOURNEY, imapPort } from '../scenario';
import { simulatorClient } from '../simulator-client';

/**
 * Decision 036: an MSP admin connects the help-desk mailbox on the MSP integrations screen (the e2e
 * server's local IMAP server), a client's mail arrives, and it becomes a ticket in the PSA for that
 * client's company, which the screen then counts; the client's reply becomes a note on it (decision 037), and the
 * card's recent mail says so for each.
 * Removing it needs a confirmation.
 */
test('an admin connects the help-desk mailbox and a client’s mail becomes a ticket in the PSA', async ({ page }) => {
  const admin = demoUser('admin');
  const client = demoUser('client');
  const { redirectTo } = await signInThroughApi(page, admin);
  await page.goto(redirectTo);
  await page.getByRole('navigation').getByRole('button', { name: 'MSP integrations' }).click();
  const card = page.getByRole('region', { name: 'Email connector' });
  await expect(card.getByText('Not connected')).toBeVisible();
  await expect(card.getByText(/A reply about an open ticket \(in its mail thread, or naming its number\) is added to that ticket as a note\./)).toBeVisible();
  await card.screenshot({ path: 'test-results/screens/email-connector-empty-card-1280.png' });

  const port = Number(new URL(page.url()).port);
  await card.getByRole('textbox', { name: /Help-desk mailbox address/ }).fill(MAILBOX_JOURNEY.address);
  await expect(card.getByText(/Needed for this address/)).toBeVisible();
  await card.getByLabel(/App password/).fill('not-the-password');
  await card.getByRole('textbox', { name: /IMAP server/ }).fill('127.0.0.1');
  await card.getByRole('textbox', { name: /Port/ }).fill(String(imapPort(port)));
  await card.getByRole('button', { name: 'Connect mailbox' }).click();
  await expect(card.getByText(/The mailbox refused the sign-in/)).toBeVisible();

  await card.getByLabel(/App password/).fill(MAILBOX_JOURNEY.appPassword);
  await card.getByRole('button', { name: 'Connect mailbox' }).click();
  await expect(card.getByText(`Connected: tickets are created from mail to ${MAILBOX_JOURNEY.address}`)).toBeVisible();
  await expect(page.getByText(MAILBOX_JOURNEY.appPassword)).toHaveCount(0);

  // A client writes to the help desk: the message lands in the mailbox (IMAP APPEND, as a mail server delivers it).
  const subject = `Scanner on floor 3 will not send to email ${Date.now()}`;
  const mailbox = new ImapFlow({ host: '127.0.0.1', port: imapPort(port), secure: false, auth: { user: MAILBOX_JOURNEY.address, pass: MAILBOX_JOURNEY.appPassword }, logger: false });
  await mailbox.connect();
  const messageId = `<journey-${Date.now()}@client.example>`;
  await mailbox.append('INBOX', `From: ${client.email}\r\nTo: ${MAILBOX_JOURNEY.address}\r\nSubject: ${subject}\r\nMessage-ID: ${messageId}\r\n\r\nThe scanner says the SMTP server refused the message.`);
  await mailbox.logout();

  // The connector reads the mailbox every second in the journeys; the screen counts the ticket after a reload.
  // Each try lets the reloaded screen come up first (on a busy machine that alone took over a second), then looks once.
  await expect(async () => {
    await page.reload();
    await expect(card.getByText(`Connected: tickets are created from mail to ${MAILBOX_JOURNEY.address}`)).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText(/1 ticket from mail/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  const psa = simulatorClient();
  const created: { id: number; summary: string; contactId: number | null }[] = [];
  for await (const ticket of psa.streamTickets({ createdFrom: new Date(Date.now() - 600_000) })) if (ticket.summary === subject) created.push(ticket);
  expect(created).toHaveLength(1);
  expect(created[0]?.contactId).not.toBeNull();

  // The client answers their own mail (decision 037): a note on that ticket, not a second ticket.
  const reply = new ImapFlow({ host: '127.0.0.1', port: imapPort(port), secure: false, auth: { user: MAILBOX_JOURNEY.address, pass: MAILBOX_JOURNEY.appPassword }, logger: false });
  await reply.connect();
  await reply.append(
    'INBOX',
    `From: ${client.email}\r\nTo: ${MAILBOX_JOURNEY.address}\r\nSubject: RE: ${subject}\r\nMessage-ID: <journey-reply-${Date.now()}@client.example>\r\nIn-Reply-To: ${messageId}\r\nReferences: ${messageId}\r\n\r\nIt also fails for the scanner on floor 2.\r\n\r\nOn Monday, Help Desk wrote:\r\n> The scanner says the SMTP server refused the message.`,
  );
  await reply.logout();
  const ticketId = created[0]?.id ?? 0;
  await expect(async () => {
    const notes = (await psa.listNotes(ticketId)).map((note) => note.text);
    expect(notes.some((text) => text.endsWith('It also fails for the scanner on floor 2.'))).toBe(true);
  }).toPass({ timeout: 30_000 });
  const replies: string[] = [];
  for await (const ticket of psa.streamTickets({ createdFrom: new Date(Date.now() - 600_000) })) if (ticket.summary === `RE: ${subject}`) replies.push(ticket.summary);
  expect(replies).toEqual([]);

  // The card's recent mail says what became of each message: the ticket, then the reply added to it as a note.
  const recent = card.getByRole('list', { name: EMAIL_MAIL_MESSAGES.listLabel });
  await expect(async () => {
    await page.reload();
    await expect(recent.getByRole('listitem', { name: `RE: ${subject}` }).getByText(EMAIL_MAIL_MESSAGES.noteAdded(String(ticketId)))).toBeVisible({ timeout: 15_000 });
  }).toPass({ timeout: 60_000 });
  const ticketItem = recent.getByRole('listitem', { name: subject, exact: true });
  await expect(ticketItem.getByText(EMAIL_MAIL_MESSAGES.outcome.ticket, { exact: true })).toBeVisible();
  await expect(ticketItem.getByText(EMAIL_MAIL_MESSAGES.ticketCreated(String(ticketId)))).toBeVisible();
  await expect(ticketItem.getByText(`From ${client.email.toLowerCase()} · `, { exact: false })).toBeVisible();

  await screenshots(page, 'email-connector');
  await card.screenshot({ path: 'test-results/screens/email-connector-card-1280.png' });

  await card.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the email connector?' });
  await dialog.getByRole('button', { name: 'Remove email connector' }).click();
  await expect(card.getByText('Email connector removed. Mail is no longer turned into tickets.')).toBeVisible();
  await expect(card.getByText('Not connected')).toBeVisible();
});
