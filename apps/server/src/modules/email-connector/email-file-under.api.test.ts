// "Make a ticket…" (decision 036): a person files one mail the connector skipped (a stranger's, no default company) under
// a company of their choosing, and the next reading of the mailbox — a real IMAP server — makes it a ticket in the PSA
// simulator through the outbox, without changing the default company or the PSA's contacts.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EMAIL_MAIL_MESSAGES, type TEmailConnectorMail, type TEmailConnectorMailList } from '@switchboard/contracts';
import { auditEvents, emailConnectorMessages, emailConnectors, psaContacts, psaTicketingConfigs } from '@switchboard/db';
import type { PsaClient } from '@switchboard/psa';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { copyFirstCompanyAndContact, type TCopiedContact } from '../../../test/jarvis-fixtures';
import type { TImapServer } from '../../../test/imap-server';
import { connectMailbox, withMailboxApp } from '../../../test/mailbox-app';
import { nextIp } from '../auth/auth-test-helpers';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import { createEmailTicketsService, type TEmailTicketsService } from './email-tickets.service';


let t: TTestApp;
let imap: TImapServer;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
/** The simulator's first company and contact, synchronized: the one whose contact's mail becomes a ticket by itself. */
let first: TCopiedContact;
/** Another company of the simulator with one of its contacts, synchronized: the one a person files a stranger's mail under. */
let other: TCopiedContact;
let connector: TEmailTicketsService;

withMailboxApp('direct-file-under', (app) => ({ t, imap, direct, msp, admin } = app));

beforeAll(async () => {
  first = await copyFirstCompanyAndContact(t, msp.id, direct);
  other = await copyAnotherCompanyWithContact(first.company.id);

  await connectMailbox({ admin, msp, imap });
  connector = createEmailTicketsService(t.deps);
}, 120_000);

/** A company of the simulator other than `exceptId` that has a contact, copied into the MSP's synchronized directory with that contact. */
async function copyAnotherCompanyWithContact(exceptId: number): Promise<TCopiedContact> {
  for await (const company of direct.streamCompanies()) {
    if (company.id === exceptId) continue;
    for await (const contact of direct.streamContacts({ companyId: company.id })) {
      const copied = { company: { id: company.id, name: company.name }, contact: { id: contact.id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email ?? `c${contact.id}@example.com` } };
      await upsertPsaDirectory(
        t.deps.database.db,
        msp.id,
        'CONNECTWISE',
        {
          companies: [{ externalId: String(company.id), name: company.name, identifier: null, companyTypes: [] }],
          contacts: [{ externalId: String(contact.id), externalCompanyId: String(company.id), firstName: contact.firstName, lastName: contact.lastName, email: copied.contact.email, phone: null, isActive: true }],
        },
        t.deps.now(),
      );
      return copied;
    }
  }
  throw new Error('the simulator has no second company with a contact');
}

async function messageRow(messageId: string) {
  const [row] = await t.deps.database.db.select().from(emailConnectorMessages).where(and(eq(emailConnectorMessages.mspId, msp.id), eq(emailConnectorMessages.messageId, messageId)));
  if (!row) throw new Error(`no row for ${messageId}`);
  return row;
}

/** A stranger's mail (nobody synchronized has the address), read once: skipped and left unread. Its row. */
async function skippedMail(messageId: string, subject: string, text: string) {
  imap.deliver({ from: `Pat Stranger <pat-${messageId.slice(1, 12)}@elsewhere.test>`, subject, messageId, text });
  expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, failed: 0, problem: null });
  const row = await messageRow(messageId);
  expect(row.state).toBe('skipped');
  expect(imap.flagsOf(messageId)).toEqual([]);
  return row;
}

const fileUnderUrl = (domain: string, id: string) => `/db/${domain}/integrations/email-connector/mail/${id}/file-under`;

/** Waits for the reading the choice asked for (the app's job queue) to have filed the mail and marked it read. */
async function waitUntilFiled(messageId: string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const row = await messageRow(messageId);
    if (row.state === 'done' && imap.flagsOf(messageId)?.includes('\\Seen')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The reading records its end on the connector: wait for that too, so no reading is still going when the next test reads.
  while (Date.now() < deadline) {
    const [saved] = await t.deps.database.db.select({ lastCheckedAt: emailConnectors.lastCheckedAt }).from(emailConnectors).where(eq(emailConnectors.mspId, msp.id));
    if (saved?.lastCheckedAt && saved.lastCheckedAt.getTime() >= (await messageRow(messageId)).updatedAt.getTime()) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return messageRow(messageId);
}

async function listedMail(id: string): Promise<TEmailConnectorMail | undefined> {
  const listed = await admin.get(`/db/${msp.customDomain}/integrations/email-connector/mail?limit=100`);
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<TEmailConnectorMailList>().mail.find((mail) => mail.id === id);
}

describe('POST /db/{msp}/integrations/email-connector/mail/{id}/file-under', () => {
  it('refuses what it cannot do, in plain words: another company’s contact, a company that is not synchronized, a mail that is already a ticket', async () => {
    const skipped = await skippedMail('<refusals-1@elsewhere.test>', 'Cannot print', 'The printer says offline.');

    const unknownCompany = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: '987654321' });
    expect(unknownCompany.statusCode, unknownCompany.body).toBe(400);
    expect(unknownCompany.json()).toMatchObject({ code: 'validation', detail: EMAIL_MAIL_MESSAGES.fileUnder.companyNotFound, invalidParams: [{ name: 'companyId', reason: EMAIL_MAIL_MESSAGES.fileUnder.companyNotFound }] });

    const wrongContact = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: String(first.company.id), contactId: String(other.contact.id) });
    expect(wrongContact.statusCode, wrongContact.body).toBe(400);
    expect(wrongContact.json()).toMatchObject({ code: 'validation', detail: EMAIL_MAIL_MESSAGES.fileUnder.contactNotOfCompany, invalidParams: [{ name: 'contactId', reason: EMAIL_MAIL_MESSAGES.fileUnder.contactNotOfCompany }] });

    const notAnId = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: 'Contoso' });
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.json<{ detail: string }>().detail).toContain('Use the PSA id of the record (a whole number).');

    // Nothing was chosen: the mail is still skipped, as the list shows it.
    expect(await messageRow('<refusals-1@elsewhere.test>')).toMatchObject({ state: 'skipped', fileCompanyId: null, fileContactId: null });
    expect(await listedMail(skipped.id)).toMatchObject({ outcome: 'skipped' });

    // A contact's mail becomes a ticket by itself: there is nothing left to choose.
    const contactsMail = '<refusals-2@client.test>';
    imap.deliver({ from: first.contact.email, subject: 'Mouse is dead', messageId: contactsMail, text: 'It does not click any more.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    const ticket = await messageRow(contactsMail);
    const taken = await admin.post(fileUnderUrl(msp.customDomain, ticket.id), { companyId: String(other.company.id) });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', detail: EMAIL_MAIL_MESSAGES.fileUnder.notSkipped });

    const ignoredMail = '<refusals-3@client.test>';
    imap.deliver({ from: first.contact.email, subject: 'Automatic reply: Mouse is dead', messageId: ignoredMail, text: 'Out of office.', headers: { 'Auto-Submitted': 'auto-replied' } });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ ignored: 1 });
    const ignored = await admin.post(fileUnderUrl(msp.customDomain, (await messageRow(ignoredMail)).id), { companyId: String(other.company.id) });
    expect(ignored.statusCode, ignored.body).toBe(409);

    const missing = await admin.post(fileUnderUrl(msp.customDomain, '00000000-0000-4000-8000-000000000000'), { companyId: String(other.company.id) });
    expect(missing.statusCode, missing.body).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found', detail: EMAIL_MAIL_MESSAGES.fileUnder.mailNotFound });
  });

  it('is for those who may change the connector, of this MSP only, and never without the CSRF header', async () => {
    const skipped = await skippedMail('<access-1@elsewhere.test>', 'Who may file me', 'Hello.');
    const body = { companyId: String(other.company.id) };

    expect((await new TestClient(t.app, nextIp()).post(fileUnderUrl(msp.customDomain, skipped.id), body)).statusCode).toBe(401);

    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.post(fileUnderUrl(msp.customDomain, skipped.id), body)).statusCode).toBe(403);

    expect((await admin.post(fileUnderUrl(msp.customDomain, skipped.id), body, { csrf: false })).statusCode).toBe(403);

    const elsewhere: TTestMsp = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, elsewhere), nextIp());
    // Another MSP's path, and this MSP's mail on their own path: both a page that does not exist.
    expect((await otherAdmin.post(fileUnderUrl(msp.customDomain, skipped.id), body)).statusCode).toBe(404);
    const theirPath = await otherAdmin.post(fileUnderUrl(elsewhere.customDomain, skipped.id), body);
    expect(theirPath.statusCode, theirPath.body).toBe(404);
    expect(theirPath.body).not.toContain(other.company.name);

    expect(await messageRow('<access-1@elsewhere.test>')).toMatchObject({ state: 'skipped', fileCompanyId: null });
  });

  it('files a skipped mail under the company and contact a person chose: a ticket in the PSA at the next reading, marked read, without touching the default company or the contacts', async () => {
    const chosenId = '<file-under-1@elsewhere.test>';
    const leftId = '<file-under-2@elsewhere.test>';
    const skipped = await skippedMail(chosenId, 'Laptop will not charge', 'The charger light stays off since this morning.');
    await skippedMail(leftId, 'Just saying hello', 'Nothing to fix.');
    const contactsBefore = await t.deps.database.db.select().from(psaContacts).where(eq(psaContacts.mspId, msp.id));

    const chosen = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: String(other.company.id), contactId: String(other.contact.id) });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const contactName = `${other.contact.firstName} ${other.contact.lastName}`.trim();
    // Answered as the list shows it until the next reading: waiting, with where it will go.
    const answered = chosen.json<TEmailConnectorMail>();
    expect(answered).toMatchObject({ id: skipped.id, outcome: 'waiting', reason: EMAIL_MAIL_MESSAGES.fileUnder.willBeFiled(other.company.name, contactName), ticketNumber: null });
    const [choiceAudit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.file_under'), eq(auditEvents.target, skipped.id)));
    expect(choiceAudit).toMatchObject({ actorKind: 'user', outcome: 'success' });
    expect(choiceAudit?.details).toMatchObject({ company: String(other.company.id), companyName: other.company.name, contact: String(other.contact.id), from: skipped.fromAddress });

    // The choice asked for a reading (the connector's job): the mail becomes a ticket under the chosen company and contact.
    const filed = await waitUntilFiled(chosenId);
    expect(filed).toMatchObject({ id: skipped.id, state: 'done', reason: null });
    const inPsa = await direct.getTicket(Number(filed.psaTicketExternalId));
    expect(inPsa).toMatchObject({ summary: 'Laptop will not charge', companyId: other.company.id, contactId: other.contact.id });
    expect(imap.flagsOf(chosenId)).toContain('\\Seen');
    expect(await listedMail(skipped.id)).toMatchObject({ outcome: 'ticket', ticketNumber: filed.psaTicketNumber, reason: null });
    const [ticketAudit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'email_connector.ticket'), eq(auditEvents.target, skipped.id)));
    expect(ticketAudit?.details).toMatchObject({ filing: 'chosen', company: String(other.company.id), contact: String(other.contact.id) });

    // Only that mail: the other stranger's stays skipped and unread, the MSP has no default company, the contacts are as they were.
    expect(await messageRow(leftId)).toMatchObject({ state: 'skipped' });
    expect(imap.flagsOf(leftId)).toEqual([]);
    const [config] = await t.deps.database.db.select().from(psaTicketingConfigs).where(eq(psaTicketingConfigs.mspId, msp.id));
    expect(config?.defaultCompanyId ?? null).toBeNull();
    expect(await t.deps.database.db.select().from(psaContacts).where(eq(psaContacts.mspId, msp.id))).toEqual(contactsBefore);

    // Done once: choosing again is refused, and a later reading makes no second ticket.
    expect((await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: String(other.company.id) })).statusCode).toBe(409);
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0 });
  });

  it('skips a mail again, saying why, when the company chosen for it is no longer synchronized by the reading — and offers the choice again', async () => {
    const messageId = '<file-under-gone@elsewhere.test>';
    const skipped = await skippedMail(messageId, 'Phone rings twice', 'The desk phone rings twice and stops.');
    // A company chosen while it was synchronized, gone (deactivated in the PSA) before the reading: stored as the route stores it.
    await t.deps.database.db
      .update(emailConnectorMessages)
      .set({ filePsaType: 'CONNECTWISE', fileCompanyId: '987654321', fileContactId: null })
      .where(and(eq(emailConnectorMessages.mspId, msp.id), eq(emailConnectorMessages.id, skipped.id)));
    expect(await listedMail(skipped.id)).toMatchObject({ outcome: 'waiting', reason: EMAIL_MAIL_MESSAGES.fileUnder.willBeFiled('company 987654321', null) });

    // Not passed over (a company was chosen), but it has nowhere to go after all: skipped again, still unread.
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, failed: 0 });
    expect(await messageRow(messageId)).toMatchObject({ id: skipped.id, state: 'skipped', reason: EMAIL_MAIL_MESSAGES.fileUnder.chosenCompanyGone, fileCompanyId: null, filePsaType: null });
    expect(imap.flagsOf(messageId)).toEqual([]);
    expect(await listedMail(skipped.id)).toMatchObject({ outcome: 'skipped', reason: EMAIL_MAIL_MESSAGES.fileUnder.chosenCompanyGone });
    imap.markSeen(messageId);
  });

  // Review finding: the reading looked only at unread mail, so a skipped mail someone had opened (or moved) meanwhile was
  // never found again and the list said "Will be filed under …" for ever.
  it('files a skipped mail that a person has opened since (marked read) as chosen: the reading finds it by its Message-ID', async () => {
    const messageId = '<file-under-opened@elsewhere.test>';
    const skipped = await skippedMail(messageId, 'Screen flickers', 'The second screen flickers when it wakes up.');
    imap.markSeen(messageId);
    const chosen = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: String(other.company.id) });
    expect(chosen.statusCode, chosen.body).toBe(200);

    const filed = await waitUntilFiled(messageId);
    expect(filed).toMatchObject({ id: skipped.id, state: 'done', reason: null });
    expect(await direct.getTicket(Number(filed.psaTicketExternalId))).toMatchObject({ summary: 'Screen flickers', companyId: other.company.id, contactId: null });
    expect(await listedMail(skipped.id)).toMatchObject({ outcome: 'ticket', ticketNumber: filed.psaTicketNumber });
  });

  it('skips a mail again, saying why, when it is no longer in the mailbox’s inbox (moved, or another mailbox connected) — and drops the choice', async () => {
    // A mail skipped by an earlier reading that is no longer in INBOX (the mailbox has no message with this Message-ID).
    const [gone] = await t.deps.database.db
      .insert(emailConnectorMessages)
      .values({ mspId: msp.id, messageId: '<file-under-moved@elsewhere.test>', fromAddress: 'pat-moved@elsewhere.test', subject: 'Moved away', state: 'skipped', reason: 'No synchronized contact has this address and no default company is set.', receivedAt: null, createdAt: t.deps.now(), updatedAt: t.deps.now() })
      .returning();
    if (!gone) throw new Error('no row');
    const chosen = await admin.post(fileUnderUrl(msp.customDomain, gone.id), { companyId: String(other.company.id) });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ outcome: 'waiting' });

    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await messageRow(gone.messageId)).fileCompanyId !== null) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await messageRow(gone.messageId)).toMatchObject({ state: 'skipped', reason: EMAIL_MAIL_MESSAGES.fileUnder.notInInbox, fileCompanyId: null, filePsaType: null });
    expect(await listedMail(gone.id)).toMatchObject({ outcome: 'skipped', reason: EMAIL_MAIL_MESSAGES.fileUnder.notInInbox });
    // A reading now leaves it alone: no ticket, still skipped.
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, failed: 0 });
    expect(await messageRow(gone.messageId)).toMatchObject({ state: 'skipped', reason: EMAIL_MAIL_MESSAGES.fileUnder.notInInbox });
  });

  it('files under the company alone when no contact is chosen', async () => {
    const messageId = '<file-under-3@elsewhere.test>';
    const skipped = await skippedMail(messageId, 'Wi-Fi drops', 'The Wi-Fi drops every ten minutes.');
    const chosen = await admin.post(fileUnderUrl(msp.customDomain, skipped.id), { companyId: String(first.company.id), contactId: null });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ outcome: 'waiting', reason: EMAIL_MAIL_MESSAGES.fileUnder.willBeFiled(first.company.name, null) });

    const filed = await waitUntilFiled(messageId);
    expect(await direct.getTicket(Number(filed.psaTicketExternalId))).toMatchObject({ summary: 'Wi-Fi drops', companyId: first.company.id, contactId: null });
  });
});
