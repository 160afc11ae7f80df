// The email connector (decision 036): unread mail in a real IMAP server (hoodiecrow-imap, read by imapflow)
// becomes tickets in the PSA simulator through the durable outbox, once per Message-ID.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TEmailConnectorMailList, TEmailConnectorSettings } from '@switchboard/contracts';
import { auditEvents, emailConnectorAttachments, emailConnectorMessages, psaOutbox, psaTickets } from '@switchboard/db';
import type { PsaClient, TPsaBoard } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { copyDemoHistory, copyFirstCompanyAndContact, type TCopiedContact } from '../../../test/jarvis-fixtures';
import type { TImapServer } from '../../../test/imap-server';
import { connectMailbox, withMailboxApp } from '../../../test/mailbox-app';
import { nextIp } from '../auth/auth-test-helpers';
import { PSA_WRITE_LEASE_MS, runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createEmailTicketsService, EMAIL_CONNECTOR_QUEUE, MESSAGES_PER_READING, type TEmailTicketsService } from './email-tickets.service';


let t: TTestApp;
let sim: TPsaSimulator;
let imap: TImapServer;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
let helpDesk: TPsaBoard;
let copied: TCopiedContact;
let connector: TEmailTicketsService;

withMailboxApp('direct-email', (app) => ({ t, sim, imap, direct, msp, admin, helpDesk } = app));

beforeAll(async () => {
  copied = await copyFirstCompanyAndContact(t, msp.id, direct);
  await copyDemoHistory(t, msp.id, helpDesk, { withCompany: true });

  await connectMailbox({ admin, msp, imap });
  connector = createEmailTicketsService(t.deps);
}, 120_000);

async function messageRow(messageId: string) {
  const [row] = await t.deps.database.db.select().from(emailConnectorMessages).where(and(eq(emailConnectorMessages.mspId, msp.id), eq(emailConnectorMessages.messageId, messageId)));
  return row;
}

/** The files the PSA holds on a ticket, by name, with their bytes. */
function filesInPsa(ticketId: number): Record<string, Buffer[]> {
  const files: Record<string, Buffer[]> = {};
  for (const file of sim.attachmentsOf(ticketId)) (files[file.fileName] ??= []).push(Buffer.from(file.data));
  return files;
}

/** The upload writes of a mail's files. */
function attachmentWritesOf(messageRowId: string) {
  return t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.kind, 'email.ticket.attachment'), eq(psaOutbox.targetId, messageRowId)));
}

/** A mail with one PDF, read while the PSA answers the next uploads with these statuses; its message row. */
async function readWhileUploadsFail(statuses: readonly number[], mail: { messageId: string; subject: string; fileName: string }) {
  for (const kind of statuses) sim.faults.failNext({ kind, method: 'POST', path: '/v4_6_release/apis/3.0/system/documents' });
  imap.deliver({ from: copied.contact.email, subject: mail.subject, messageId: mail.messageId, text: 'This is what the scanner makes of a page.', attachments: [{ fileName: mail.fileName, contentType: 'application/pdf', data: pdf }] });
  try {
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
  } finally {
    sim.faults.reset();
  }
  return messageRow(mail.messageId);
}

async function storedAttachments(messageRowId: string) {
  return t.deps.database.db.select().from(emailConnectorAttachments).where(and(eq(emailConnectorAttachments.mspId, msp.id), eq(emailConnectorAttachments.messageRowId, messageRowId)));
}

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(40_000)]);
const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3_000)]);

async function ticketsInPsaWithSummary(summary: string): Promise<number[]> {
  const found: number[] = [];
  for await (const ticket of direct.streamTickets({ createdFrom: new Date(Date.now() - 3_600_000) })) if (ticket.summary === summary) found.push(ticket.id);
  return found;
}

describe('the email connector', () => {
  it('turns an unread message into a ticket in the PSA for the sender’s contact, categorised, then marks it \\Seen; a second reading makes nothing', async () => {
    const messageId = '<outlook-crash-1@client.test>';
    const subject = 'Outlook crashes every time I open an attachment';
    imap.deliver({ from: `${copied.contact.firstName} ${copied.contact.lastName} <${copied.contact.email.toUpperCase()}>`, subject, messageId, text: 'Since this morning Outlook closes itself whenever I open a PDF attachment.\nI restarted twice.' });
    expect(imap.flagsOf(messageId)).toEqual([]);

    const first = await connector.readMailbox(msp.id);
    expect(first).toMatchObject({ created: 1, alreadyTaken: 0, problem: null });
    const row = await messageRow(messageId);
    expect(row).toMatchObject({ state: 'done', fromAddress: copied.contact.email.toLowerCase(), subject });
    const ticketId = Number(row?.psaTicketExternalId);
    const inPsa = await direct.getTicket(ticketId);
    expect(inPsa).toMatchObject({ summary: subject, companyId: copied.company.id, contactId: copied.contact.id });
    // The local categoriser was sure enough on this wording: the ticket has a type and subtype of the board.
    expect(inPsa.typeId).not.toBeNull();
    expect(inPsa.subtypeId).not.toBeNull();
    expect(imap.flagsOf(messageId)).toContain('\\Seen');

    // The ticket copy the queue reads, with the description being the mail's text.
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.description).toContain('Outlook closes itself whenever I open a PDF attachment.');
    expect(copy?.contactExternalId).toBe(String(copied.contact.id));

    const [audit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.ticket'), eq(auditEvents.target, row?.id ?? '')));
    expect(audit?.details).toMatchObject({ engine: 'local', from: copied.contact.email.toLowerCase(), contact: String(copied.contact.id) });
    expect(typeof (audit?.details as { confidence?: unknown }).confidence).toBe('number');

    const second = await connector.readMailbox(msp.id);
    expect(second).toMatchObject({ created: 0, alreadyTaken: 0, problem: null });
    expect(await ticketsInPsaWithSummary(subject)).toEqual([ticketId]);
    const settings = (await admin.get(`/db/${msp.customDomain}/integrations/email-connector`)).json<TEmailConnectorSettings>();
    expect(settings.ticketCount).toBeGreaterThanOrEqual(1);
    expect(settings.lastCheckedAt).not.toBeNull();
    expect(settings.lastError).toBeNull();
  });

  it('never makes a message two tickets, even when marking it \\Seen fails and it is read again', async () => {
    const messageId = '<vpn-2@client.test>';
    const subject = 'VPN will not connect from home';
    imap.deliver({ from: copied.contact.email, subject, messageId, text: 'The VPN client says the connection timed out.' });
    imap.refuseFlagChanges(true);
    try {
      expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
      expect(imap.flagsOf(messageId)).toEqual([]);
    } finally {
      imap.refuseFlagChanges(false);
    }
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, alreadyTaken: 1 });
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
    const writes = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.kind, 'email.ticket.create')));
    expect(writes.filter((write) => (write.payload as { input: { summary: string } }).input.summary === subject)).toHaveLength(1);
    expect(await ticketsInPsaWithSummary(subject)).toHaveLength(1);
  });

  it('leaves a stranger’s mail unread while it has nowhere to go — without holding up new mail — and makes it a ticket once a default company is set', async () => {
    const strangerId = '<stranger-3@elsewhere.test>';
    imap.deliver({ from: 'Pat Doe <pat@elsewhere.test>', messageId: strangerId, text: '\n  Printer on floor 2 shows error 49.\nPlease help.' });
    // No default company yet: nowhere to file it, so it stays unread for a person.
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, skipped: 1 });
    expect(imap.flagsOf(strangerId)).toEqual([]);
    const skippedRow = await messageRow(strangerId);
    expect(skippedRow).toMatchObject({ state: 'skipped' });

    // A reading's worth of other strangers' mail, then a contact's: the skipped mail, read again and again, must
    // neither be marked read nor keep the contact's mail out of the reading.
    const strangers = Array.from({ length: MESSAGES_PER_READING }, (_, index) => `<stranger-bulk-${index}@elsewhere.test>`);
    for (const [index, messageId] of strangers.entries()) imap.deliver({ from: `someone${index}@elsewhere.test`, subject: `Question ${index}`, messageId, text: 'Hello?' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, skipped: MESSAGES_PER_READING + 1 });
    const contactsId = '<after-strangers@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Teams will not start', messageId: contactsId, text: 'Teams shows a white window and closes.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, skipped: MESSAGES_PER_READING + 1 });
    expect(await messageRow(contactsId)).toMatchObject({ state: 'done' });
    expect(imap.flagsOf(strangerId)).toEqual([]);
    expect(imap.flagsOf(strangers[0] ?? '')).toEqual([]);
    // A person deals with those in their mail program.
    for (const messageId of strangers) imap.markSeen(messageId);

    const setDefault = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { defaultCompanyId: copied.company.id } });
    expect(setDefault.statusCode, setDefault.body).toBe(200);
    const laterId = '<stranger-4@elsewhere.test>';
    imap.deliver({ from: 'Pat Doe <pat@elsewhere.test>', messageId: laterId, text: 'My monitor flickers all day.' });
    // Both become tickets: the new mail and the one left unread, in its own row, now marked read.
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 2, skipped: 0, alreadyTaken: 0 });
    const row = await messageRow(laterId);
    const inPsa = await direct.getTicket(Number(row?.psaTicketExternalId));
    expect(inPsa).toMatchObject({ summary: 'My monitor flickers all day.', companyId: copied.company.id, contactId: null });
    expect(imap.flagsOf(laterId)).toContain('\\Seen');
    const taken = await messageRow(strangerId);
    expect(taken).toMatchObject({ id: skippedRow?.id, state: 'done', reason: null });
    expect(await direct.getTicket(Number(taken?.psaTicketExternalId))).toMatchObject({ summary: 'Printer on floor 2 shows error 49.', companyId: copied.company.id, contactId: null });
    expect(imap.flagsOf(strangerId)).toContain('\\Seen');
    expect(await ticketsInPsaWithSummary('Printer on floor 2 shows error 49.')).toHaveLength(1);
  });

  it('makes a ticket of a mail whose long subject has an emoji where it is cut (half an emoji failed its JSON before)', async () => {
    const messageId = '<emoji-cut@client.test>';
    const subject = `${'a'.repeat(98)}😀 and the rest`;
    imap.deliver({ from: copied.contact.email, subject: `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`, messageId, text: 'The subject says it all.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, failed: 0, problem: null });
    const row = await messageRow(messageId);
    expect(row?.subject).toBe(subject);
    expect(await direct.getTicket(Number(row?.psaTicketExternalId))).toMatchObject({ summary: `${'a'.repeat(98)}…` });
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
  });

  it('makes a ticket of a mail whose raw 8-bit subject decodes with a NUL in it, and the mailbox goes on being read (it stopped every reading before)', async () => {
    const messageId = '<raw-8bit@client.test>';
    // Unencoded UTF-8 in a header, as some mail programs send it: decoded here with a NUL byte PostgreSQL refuses.
    imap.deliver({ from: copied.contact.email, subject: 'Printer 😀 jams', messageId, text: 'Paper jam in tray 2.' });
    const outcome = await connector.readMailbox(msp.id);
    expect(outcome).toMatchObject({ created: 1, failed: 0, problem: null });
    const row = await messageRow(messageId);
    expect(row?.state).toBe('done');
    expect(row?.subject).not.toContain('\u0000');
    expect((await admin.get(`/db/${msp.customDomain}/integrations/email-connector`)).json<TEmailConnectorSettings>().lastError).toBeNull();
  });

  it('ignores automatic replies (no ticket loop with the PSA’s notifications)', async () => {
    const messageId = '<auto-5@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Out of office', messageId, text: 'I am away until Monday.', headers: { 'Auto-Submitted': 'auto-replied' } });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, ignored: 1 });
    expect(await messageRow(messageId)).toMatchObject({ state: 'ignored' });
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
  });

  it('lists the mail it read, newest first, with what became of each, to its own MSP only', async () => {
    const ticketMail = '<recent-1@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Scanner saves blank pages', messageId: ticketMail, text: 'Every scan comes out blank since this morning.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    t.advanceClock(60_000);
    const autoReply = '<recent-2@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Automatic reply: Scanner saves blank pages', messageId: autoReply, text: 'I am out of the office.', headers: { 'Auto-Submitted': 'auto-replied' } });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ ignored: 1 });

    const listed = await admin.get(`/db/${msp.customDomain}/integrations/email-connector/mail?limit=2`);
    expect(listed.statusCode, listed.body).toBe(200);
    const { mail } = listed.json<TEmailConnectorMailList>();
    const ticketRow = await messageRow(ticketMail);
    const autoRow = await messageRow(autoReply);
    const receivedOf = (row: typeof ticketRow) => (row?.receivedAt ?? row?.createdAt)?.toISOString();
    expect(mail).toEqual([
      { id: autoRow?.id, from: copied.contact.email.toLowerCase(), subject: 'Automatic reply: Scanner saves blank pages', receivedAt: receivedOf(autoRow), outcome: 'ignored', reason: 'An automatic reply or the help-desk mailbox’s own mail.', ticketNumber: null },
      { id: ticketRow?.id, from: copied.contact.email.toLowerCase(), subject: 'Scanner saves blank pages', receivedAt: receivedOf(ticketRow), outcome: 'ticket', reason: null, ticketNumber: ticketRow?.psaTicketNumber },
    ]);
    expect(ticketRow?.psaTicketNumber).toBeTruthy();
    const byDefault = (await admin.get(`/db/${msp.customDomain}/integrations/email-connector/mail`)).json<TEmailConnectorMailList>().mail;
    expect(byDefault.slice(0, 2)).toEqual(mail);
    expect(byDefault.length).toBeLessThanOrEqual(20);
    const tooMany = await admin.get(`/db/${msp.customDomain}/integrations/email-connector/mail?limit=500`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ detail: string }>().detail).toContain('The limit is a whole number from 1 to 100.');

    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other), nextIp());
    const theirs = await otherAdmin.get(`/db/${other.customDomain}/integrations/email-connector/mail`);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json<TEmailConnectorMailList>().mail).toEqual([]);
    // Another MSP's path is not theirs: answered as a page that does not exist (docs/ARCHITECTURE.md, tenancy).
    expect((await otherAdmin.get(`/db/${msp.customDomain}/integrations/email-connector/mail`)).statusCode).toBe(404);
  });

  it('reads the mailbox as a durable job of the app’s queue', async () => {
    const messageId = '<job-6@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Keyboard missing keys', messageId, text: 'The E key fell off.' });
    await t.deps.jobQueue.send(EMAIL_CONNECTOR_QUEUE, { mspId: msp.id }, { singletonKey: msp.id });
    const deadline = Date.now() + 20_000;
    // Done in the PSA first, then marked \Seen: wait for both.
    while (Date.now() < deadline && ((await messageRow(messageId))?.state !== 'done' || !imap.flagsOf(messageId)?.includes('\\Seen'))) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await messageRow(messageId)).toMatchObject({ state: 'done' });
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
  });

  it('adds a reply to the thread’s open ticket as a note — what was written above the quote — and a reply to that reply too, never a second ticket', async () => {
    const first = '<printer-7@client.test>';
    const subject = 'Printer jams on every page';
    imap.deliver({ from: copied.contact.email, subject, messageId: first, text: 'The office printer jams on every page since Friday.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 0 });
    const ticketRow = await messageRow(first);
    const ticketId = Number(ticketRow?.psaTicketExternalId);

    const reply = '<printer-8@client.test>';
    imap.deliver({
      from: `${copied.contact.firstName} ${copied.contact.lastName} <${copied.contact.email}>`,
      subject: `RE: ${subject}`,
      messageId: reply,
      headers: { 'In-Reply-To': first, References: first },
      text: `It still jams after I changed the paper tray.\n\nOn Mon, Nov 23, 2026 at 9:14 AM Help Desk <help@msp.test> wrote:\n> The office printer jams on every page since Friday.\n`,
    });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, notes: 1 });
    expect(await messageRow(reply)).toMatchObject({ state: 'note', threadRowId: ticketRow?.id, psaTicketExternalId: String(ticketId) });
    expect(imap.flagsOf(reply)).toContain('\\Seen');
    // A colleague of the same company answers the reply: the thread is the same ticket.
    const again = '<printer-9@client.test>';
    imap.deliver({ from: copied.contact.email, subject: `RE: RE: ${subject}`, messageId: again, headers: { 'In-Reply-To': reply, References: `${first} ${reply}` }, text: 'Fixed itself, thanks!' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, notes: 1 });

    const notes = (await direct.listNotes(ticketId)).filter((note) => note.kind === 'description').map((note) => note.text);
    const who = `${copied.contact.firstName} ${copied.contact.lastName} <${copied.contact.email.toLowerCase()}>`;
    expect(notes).toContain(`Email from ${who}:\n\nIt still jams after I changed the paper tray.`);
    expect(notes).toContain(`Email from ${copied.contact.email.toLowerCase()}:\n\nFixed itself, thanks!`);
    expect(notes.join('\n')).not.toContain('> The office printer jams');
    expect(await ticketsInPsaWithSummary(`RE: ${subject}`)).toEqual([]);
    const [audit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.note'), eq(auditEvents.target, (await messageRow(reply))?.id ?? '')));
    expect(audit?.details).toMatchObject({ thread: ticketRow?.id, ticket: String(ticketId) });
  });

  // Regression (review 2026-11-29, finding 2): a reply with the same words as an earlier reply ("Any update?") was
  // looked up before it was sent, found the earlier note, and never reached the PSA.
  it('adds a customer’s second "Any update?" as a second note', async () => {
    const first = '<scanner-20@client.test>';
    const subject = 'Scanner sends blank pages';
    imap.deliver({ from: copied.contact.email, subject, messageId: first, text: 'Every scan comes out blank.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const ticketId = Number((await messageRow(first))?.psaTicketExternalId);
    for (const [index, messageId] of ['<scanner-21@client.test>', '<scanner-22@client.test>'].entries()) {
      imap.deliver({ from: copied.contact.email, subject: `RE: ${subject}`, messageId, headers: { 'In-Reply-To': first, References: first }, text: 'Any update?' });
      expect(await connector.readMailbox(msp.id), `reply ${index + 1}`).toMatchObject({ created: 0, notes: 1 });
    }
    const updates = (await direct.listNotes(ticketId)).filter((note) => note.text === `Email from ${copied.contact.email.toLowerCase()}:\n\nAny update?`);
    expect(updates).toHaveLength(2);
  });

  it('keeps a reply whose ticket is still waiting for the PSA, and adds it once the ticket is there', async () => {
    const first = '<laptop-10@client.test>';
    const reply = '<laptop-11@client.test>';
    const subject = 'Laptop battery drains in an hour';
    imap.deliver({ from: copied.contact.email, subject, messageId: first, text: 'The battery is empty after an hour.' });
    imap.deliver({ from: copied.contact.email, subject: `RE: ${subject}`, messageId: reply, headers: { 'In-Reply-To': first }, text: 'Also it gets very hot.' });
    sim.faults.set({ errorRate: 1 });
    try {
      expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 1 });
    } finally {
      sim.faults.set({ errorRate: 0 });
    }
    expect(await messageRow(first)).toMatchObject({ state: 'pending' });
    expect(await messageRow(reply)).toMatchObject({ state: 'note', psaTicketExternalId: null });
    // The outbox's retries: the ticket first, then its note (writes about one thread go in order).
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    await runPsaOutboxPass(t.deps);
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    await runPsaOutboxPass(t.deps);
    const ticketId = Number((await messageRow(first))?.psaTicketExternalId);
    expect(ticketId).toBeGreaterThan(0);
    expect(await messageRow(reply)).toMatchObject({ state: 'note', psaTicketExternalId: String(ticketId) });
    const notes = (await direct.listNotes(ticketId)).map((note) => note.text);
    expect(notes.filter((text) => text.endsWith('Also it gets very hot.'))).toHaveLength(1);
    expect(await ticketsInPsaWithSummary(subject)).toEqual([ticketId]);
  });

  it('makes a new ticket of a reply to a closed ticket, and of a stranger’s reply in someone else’s thread', async () => {
    const first = '<wifi-12@client.test>';
    const subject = 'Wi-Fi drops in the meeting room';
    imap.deliver({ from: copied.contact.email, subject, messageId: first, text: 'The Wi-Fi drops every few minutes in the big meeting room.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const ticketId = (await messageRow(first))?.psaTicketExternalId ?? '';

    // Someone outside the company (no synchronized contact) writing into the thread is not added to the ticket.
    const stranger = '<wifi-13@elsewhere.test>';
    imap.deliver({ from: 'Pat Doe <pat@elsewhere.test>', subject: `RE: ${subject}`, messageId: stranger, headers: { 'In-Reply-To': first }, text: 'Same here in our office.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 0 });
    expect(await messageRow(stranger)).toMatchObject({ state: 'done', threadRowId: null });

    // The ticket was closed in the PSA (its copy says so after a sync): a reply opens a new ticket.
    await t.deps.database.db.update(psaTickets).set({ isClosed: true }).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, ticketId)));
    const late = '<wifi-14@client.test>';
    imap.deliver({ from: copied.contact.email, subject: `RE: ${subject}`, messageId: late, headers: { 'In-Reply-To': first }, text: 'It is back again this week.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 0 });
    const lateRow = await messageRow(late);
    expect(lateRow).toMatchObject({ state: 'done' });
    expect(lateRow?.psaTicketExternalId).not.toBe(ticketId);
    // The new ticket says first which closed ticket it follows.
    const [lateCopy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, lateRow?.psaTicketExternalId ?? '')));
    expect(lateCopy?.description).toBe(`Follow-up to ticket #${(await messageRow(first))?.psaTicketNumber}, which is closed.\n\nIt is back again this week.`);
    // The stranger's mail in the open thread was a ticket of its own, with no such line.
    const [strangerCopy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, (await messageRow(stranger))?.psaTicketExternalId ?? '')));
    expect(strangerCopy?.description).toBe('Same here in our office.');
  });

  it('adds an answer to the PSA’s own notification — its subject names the ticket — as a note, for a contact of the ticket’s company only', async () => {
    const first = '<scanner-15@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Scanner sends empty PDFs', messageId: first, text: 'Scanned documents arrive as empty PDF files.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const ticketId = (await messageRow(first))?.psaTicketExternalId ?? '';

    // The PSA mailed its own notification; the contact answers it to the help-desk address (no Message-ID of ours).
    const answer = '<scanner-16@client.test>';
    imap.deliver({ from: copied.contact.email, subject: `RE: Ticket#${ticketId}/Scanner sends empty PDFs`, messageId: answer, text: 'It happens on the second floor scanner only.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, notes: 1 });
    expect(await messageRow(answer)).toMatchObject({ state: 'note', threadRowId: null, psaTicketExternalId: ticketId });
    expect((await direct.listNotes(Number(ticketId))).map((note) => note.text)).toContain(`Email from ${copied.contact.email.toLowerCase()}:\n\nIt happens on the second floor scanner only.`);

    // The same number from someone who is not a contact of that company opens nothing: a ticket of their own.
    const guess = '<scanner-17@elsewhere.test>';
    imap.deliver({ from: 'Pat Doe <pat@elsewhere.test>', subject: `Ticket #${ticketId}`, messageId: guess, text: 'Please close this ticket.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 0 });
    expect((await messageRow(guess))?.psaTicketExternalId).not.toBe(ticketId);
    expect((await direct.listNotes(Number(ticketId))).map((note) => note.text).join('\n')).not.toContain('Please close this ticket.');
  });

  it('adds a mail’s files to its ticket in the PSA — the very bytes — says so in the description, and then drops the bytes it kept', async () => {
    const messageId = '<screenshot-18@client.test>';
    imap.deliver({
      from: copied.contact.email,
      subject: 'Error when saving the invoice',
      messageId,
      text: 'The accounting program shows this error when I save. Screenshot and the invoice attached.',
      attachments: [
        { fileName: 'error.png', contentType: 'image/png', data: png },
        { fileName: 'invoice.pdf', contentType: 'application/pdf', data: pdf },
      ],
    });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const row = await messageRow(messageId);
    const ticketId = Number(row?.psaTicketExternalId);
    expect(filesInPsa(ticketId)).toEqual({ 'error.png': [png], 'invoice.pdf': [pdf] });
    expect((await direct.listAttachments(ticketId)).map((file) => [file.fileName, file.size])).toEqual([
      ['error.png', png.length],
      ['invoice.pdf', pdf.length],
    ]);
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.description).toContain('Attachments (added to the ticket): error.png, invoice.pdf');
    expect(copy?.description).not.toContain('in the help-desk mailbox');
    // Landed: only the names and sizes stay.
    const stored = await storedAttachments(row?.id ?? '');
    expect(stored.map((file) => [file.fileName, file.sizeBytes, file.data, file.psaAttachmentExternalId !== null])).toEqual(
      expect.arrayContaining([
        ['error.png', png.length, null, true],
        ['invoice.pdf', pdf.length, null, true],
      ]),
    );
    const writes = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.kind, 'email.ticket.attachment'), eq(psaOutbox.targetId, row?.id ?? '')));
    expect(writes.map((write) => write.status)).toEqual(['done', 'done']);
    const [audit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.ticket'), eq(auditEvents.target, row?.id ?? '')));
    expect(audit?.details).toMatchObject({ attachments: ['error.png', 'invoice.pdf'], attachmentsNotAdded: [] });
  });

  it('tells the ticket’s technicians in an internal note when the PSA refuses a file for good, once', async () => {
    const row = await readWhileUploadsFail([400], { messageId: '<scan-22@client.test>', subject: 'Scanner output again', fileName: 'scan-2.pdf' });
    const ticketId = Number(row?.psaTicketExternalId);
    const [refused] = await attachmentWritesOf(row?.id ?? '');
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    await runPsaOutboxPass(t.deps);
    await runPsaOutboxPass(t.deps);
    expect(filesInPsa(ticketId)).toEqual({});
    // The ticket's own text (ConnectWise keeps it as the first note) names the file as added; one more note says it was not.
    const notes = (await direct.listNotes(ticketId)).filter((note) => note.text.startsWith('The file scan-2.pdf'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'internal' });
    expect(notes[0]?.text).toMatch(/^The file scan-2\.pdf from the email could not be added to this ticket\. The PSA answered: .+ The file is still in the help-desk mailbox\.$/);

    // An admin sends it again from the card once the PSA takes it: it lands, and one more note says so.
    const retried = await admin.post(`/db/api/psa-writes/${refused?.id ?? ''}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ write: { status: 'done' } });
    await runPsaOutboxPass(t.deps);
    await runPsaOutboxPass(t.deps);
    expect(Object.keys(filesInPsa(ticketId))).toEqual(['scan-2.pdf']);
    const after = (await direct.listNotes(ticketId)).filter((note) => note.text.startsWith('The file scan-2.pdf'));
    expect(after.map((note) => [note.kind, note.text])).toEqual([
      ['internal', notes[0]?.text],
      ['internal', 'The file scan-2.pdf from the email was added to this ticket after all.'],
    ]);
  });

  it('adds the file of a reply to the thread’s first ticket, beside the reply’s note', async () => {
    const first = '<monitor-19@client.test>';
    const subject = 'Second monitor stays black';
    imap.deliver({ from: copied.contact.email, subject, messageId: first, text: 'The second monitor stays black after the update.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const ticketId = Number((await messageRow(first))?.psaTicketExternalId);
    const reply = '<monitor-20@client.test>';
    const photo = randomBytes(25_000);
    imap.deliver({ from: copied.contact.email, subject: `RE: ${subject}`, messageId: reply, headers: { 'In-Reply-To': first }, text: 'Here is a photo of the cable.', attachments: [{ fileName: 'cable.jpg', contentType: 'image/jpeg', data: photo }] });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, notes: 1 });
    expect(filesInPsa(ticketId)).toEqual({ 'cable.jpg': [photo] });
    const notes = (await direct.listNotes(ticketId)).map((note) => note.text);
    expect(notes).toContain(`Email from ${copied.contact.email.toLowerCase()}:\n\nHere is a photo of the cable.\n\nAttachments (added to the ticket): cable.jpg`);
  });

  it('keeps a file the PSA refused (429, then 500s), retries it, and it lands exactly once', async () => {
    sim.faults.set({ retryAfterSeconds: 0.01 });
    // Every attempt of the first upload fails (the client's own retries too); the ticket itself goes through.
    const row = await readWhileUploadsFail([429, 500, 500, 500], { messageId: '<scan-21@client.test>', subject: 'Scanner output', fileName: 'scan.pdf' });
    const ticketId = Number(row?.psaTicketExternalId);
    expect(row?.state).toBe('done');
    expect(filesInPsa(ticketId)).toEqual({});
    const [pending] = await attachmentWritesOf(row?.id ?? '');
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await storedAttachments(row?.id ?? ''))[0]?.data?.equals(pdf)).toBe(true);

    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    await runPsaOutboxPass(t.deps);
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    await runPsaOutboxPass(t.deps);
    expect(filesInPsa(ticketId)).toEqual({ 'scan.pdf': [pdf] });
    const [done] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.id, pending?.id ?? '')));
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
    expect((await storedAttachments(row?.id ?? ''))[0]).toMatchObject({ fileName: 'scan.pdf', sizeBytes: pdf.length, data: null });
  });

  it('leaves out a small inline signature image, but adds an inline picture of 20 KB or more', async () => {
    const messageId = '<signature-22@client.test>';
    const logo = randomBytes(1_024);
    const screenshot = randomBytes(30_000);
    imap.deliver({
      from: copied.contact.email,
      subject: 'Pasted screenshot of the error',
      messageId,
      text: 'See the pasted screenshot.\n\n-- \nClient Ltd',
      attachments: [
        { fileName: 'logo.png', contentType: 'image/png', data: logo, contentId: 'logo@client.test' },
        { fileName: 'pasted.png', contentType: 'image/png', data: screenshot, contentId: 'pasted@client.test' },
      ],
    });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const row = await messageRow(messageId);
    expect(filesInPsa(Number(row?.psaTicketExternalId))).toEqual({ 'pasted.png': [screenshot] });
    expect((await storedAttachments(row?.id ?? '')).map((file) => file.fileName)).toEqual(['pasted.png']);
  });

  it('does not add a file over 6 MB: it stays in the mailbox and the description names it as not added', async () => {
    const messageId = '<video-23@client.test>';
    const video = Buffer.alloc(7_000_000, 7);
    imap.deliver({
      from: copied.contact.email,
      subject: 'Recording of the crash',
      messageId,
      text: 'I recorded the crash.',
      attachments: [
        { fileName: 'crash.mp4', contentType: 'video/mp4', data: video },
        { fileName: 'log.txt', contentType: 'text/plain', data: Buffer.from('crash at 10:14\n') },
      ],
    });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const row = await messageRow(messageId);
    const ticketId = Number(row?.psaTicketExternalId);
    expect(Object.keys(filesInPsa(ticketId))).toEqual(['log.txt']);
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.description).toContain('Attachments (added to the ticket): log.txt\nAttachments not added (over 6 MB, in the help-desk mailbox): crash.mp4');
    expect((await storedAttachments(row?.id ?? '')).map((file) => file.fileName)).toEqual(['log.txt']);
  }, 60_000);

  // Review finding: a mail over 10 MB was fetched cut at 10 MB and parsed as it was, so its files were uploaded cut and
  // whole-looking (a 5 MB PDF came out 2.4 MB), and nothing said the mail was too large.
  it('makes a ticket of a mail over 10 MB from its headers and whole text, adds none of its files and names each as not added', async () => {
    const messageId = '<oversized-24@client.test>';
    const scan = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(4_500_000)]);
    const manual = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(4_500_000)]);
    imap.deliver({
      from: copied.contact.email,
      subject: 'Scans of the broken printer',
      messageId,
      text: 'The printer jams on every second page. Both scans are attached.\nThanks, Pat',
      attachments: [
        { fileName: 'scan.pdf', contentType: 'application/pdf', data: scan },
        { fileName: 'manual.pdf', contentType: 'application/pdf', data: manual },
      ],
    });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, failed: 0, problem: null });
    const row = await messageRow(messageId);
    expect(row).toMatchObject({ state: 'done' });
    const ticketId = Number(row?.psaTicketExternalId);
    expect(await direct.getTicket(ticketId)).toMatchObject({ summary: 'Scans of the broken printer', companyId: copied.company.id, contactId: copied.contact.id });
    // Not one file, whole or cut: they stay in the mailbox, each named with why.
    expect(filesInPsa(ticketId)).toEqual({});
    expect(await storedAttachments(row?.id ?? '')).toEqual([]);
    expect(await attachmentWritesOf(row?.id ?? '')).toEqual([]);
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.description).toBe(
      'The printer jams on every second page. Both scans are attached.\nThanks, Pat\n\nAttachments not added (the email is over 10 MB, in the help-desk mailbox): scan.pdf, manual.pdf',
    );
    const [audit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.ticket'), eq(auditEvents.target, row?.id ?? '')));
    expect(audit?.details).toMatchObject({ attachments: [], attachmentsNotAdded: ['scan.pdf', 'manual.pdf'] });
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
  }, 60_000);

  it('makes a ticket of a mail over 10 MB whose text alone is too large to read from its headers, saying the text stays in the mailbox', async () => {
    const messageId = '<oversized-text-25@client.test>';
    const line = 'Log line: the backup job failed again with the same error.\n';
    imap.deliver({ from: copied.contact.email, subject: 'Backup log', messageId, text: line.repeat(Math.ceil(10_600_000 / line.length)) });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, failed: 0, problem: null });
    const row = await messageRow(messageId);
    const ticketId = Number(row?.psaTicketExternalId);
    expect(await direct.getTicket(ticketId)).toMatchObject({ summary: 'Backup log', companyId: copied.company.id });
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.description).toBe('(The email is over 10 MB, so its text was not read: it is in the help-desk mailbox.)');
    expect(imap.flagsOf(messageId)).toContain('\\Seen');
  }, 60_000);

  it('records why a mailbox could not be read (a changed password) for the settings screen', async () => {
    const { emailConnectors } = await import('@switchboard/db');
    const { encryptSecret } = await import('../../lib/crypto');
    await t.deps.database.db.update(emailConnectors).set({ secretCiphertext: encryptSecret(t.deps.config.encryptionKey, 'changed-since') }).where(eq(emailConnectors.mspId, msp.id));
    const outcome = await connector.readMailbox(msp.id);
    expect(outcome.problem).toMatch(/refused the sign-in/);
    const settings = (await admin.get(`/db/${msp.customDomain}/integrations/email-connector`)).json<TEmailConnectorSettings>();
    expect(settings.lastError).toBe(outcome.problem);
  });
});
