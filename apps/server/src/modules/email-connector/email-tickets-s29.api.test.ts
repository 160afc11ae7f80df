// Review s29 of the mail connector: old mail flooding a newly connected mailbox, the product's own mail read as client
// mail, tickets the PSA refused for good, and a contact of two companies replying in a colleague's thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EMAIL_MAIL_MESSAGES, type TEmailConnectorMailList, type TEmailConnectorSettings } from '@switchboard/contracts';
import { emailConnectorMessages, psaOutbox } from '@switchboard/db';
import type { PsaClient, TPsaBoard } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestMsp } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, FAST_PSA_RETRY, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { startImapServer, type TImapServer } from '../../../test/imap-server';
import { MAILBOX } from '../../../test/mailbox-app';
import { copyDemoHistory, copyFirstCompanyAndContact, type TCopiedContact } from '../../../test/jarvis-fixtures';
import { nextIp } from '../auth/auth-test-helpers';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import { findSkippedMessages } from './email-connector.repository';
import { createEmailTicketsService, type TEmailTicketsService } from './email-tickets.service';

let t: TTestApp;
let sim: TPsaSimulator;
let imap: TImapServer;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
let helpDesk: TPsaBoard;
let copied: TCopiedContact;
let connector: TEmailTicketsService;
let firstReading: TEmailConnectorSettings;

const CONNECTOR_URL = () => `/db/${msp.customDomain}/integrations/email-connector`;
const TICKETS_PATH = '/v4_6_release/apis/3.0/service/tickets';
const OLD_MAIL = '<old-unread-1@client.test>';

// One app and IMAP server for the file. The mailbox is read at intervals here (an hour apart, so never in a test), as in
// production: a save then asks for a reading at once.
beforeAll(async () => {
  imap = await startImapServer({ [MAILBOX.address]: MAILBOX.appPassword });
});
afterAll(async () => {
  await imap.close();
});
withSimulatorApp(
  {
    app: (started) => ({
      config: { outboundAllowList: [new URL(started.url).host, imap.hostPort], emailConnectorIntervalMs: 3_600_000 },
      jobs: { queue: { pollingIntervalSeconds: 0.5 } },
      psaRetry: FAST_PSA_RETRY,
    }),
  },
  (ready) => ({ t, sim } = ready),
);
beforeAll(async () => {
  ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() }));
  direct = simulatorPsaClient(sim, 'connectwise', 'review-s29');
  const board = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
  if (!board) throw new Error('no Help Desk board');
  helpDesk = board;
  const merged = (await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${helpDesk.id}`)).json<Record<string, unknown>>();
  const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = merged;
  expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } })).statusCode).toBe(200);
  copied = await copyFirstCompanyAndContact(t, msp.id, direct);
  await copyDemoHistory(t, msp.id, helpDesk, { withCompany: true });
  connector = createEmailTicketsService(t.deps);
  // The mailbox already holds an unread mail of a known contact when it is connected.
  imap.deliver({ from: copied.contact.email, subject: 'From before the connector', messageId: OLD_MAIL, text: 'An old unread mail.' });
  const saved = await admin.put(CONNECTOR_URL(), { address: MAILBOX.address, appPassword: MAILBOX.appPassword, imapHost: imap.host, imapPort: imap.port });
  expect(saved.statusCode, saved.body).toBe(200);
  // The save asked for a reading (the tests read the mailbox themselves once it is over).
  firstReading = await waitFor('the first reading', async () => (await admin.get(CONNECTOR_URL())).json<TEmailConnectorSettings>(), (settings) => settings.lastCheckedAt !== null);
}, 120_000);

const messageRow = async (messageId: string) =>
  (await t.deps.database.db.select().from(emailConnectorMessages).where(and(eq(emailConnectorMessages.mspId, msp.id), eq(emailConnectorMessages.messageId, messageId))))[0];

const listedMail = async (subject: string) => (await admin.get(`${CONNECTOR_URL()}/mail?limit=100`)).json<TEmailConnectorMailList>().mail.find((mail) => mail.subject === subject);

async function waitFor<T>(what: string, read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('review s29: the mail connector', () => {
  it('leaves the mail a mailbox already held when it was connected, reads it once at once, and takes the mail that arrives after (old mail flooded the PSA before)', async () => {
    // The save's reading (the admin sees its outcome without waiting an interval) made nothing of the old mail.
    expect(firstReading).toMatchObject({ lastError: null, ticketCount: 0 });

    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, skipped: 0, ignored: 0, problem: null });
    expect(await messageRow(OLD_MAIL)).toBeUndefined();
    expect(imap.flagsOf(OLD_MAIL)).toEqual([]);

    imap.deliver({ from: copied.contact.email, subject: 'Printer offline', messageId: '<new-after-connect@client.test>', text: 'The printer went offline.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, problem: null });
    expect(imap.flagsOf(OLD_MAIL)).toEqual([]);
  });

  it('looks up any number of Message-IDs in one bounded query set (over 65,535 went past PostgreSQL’s bind-parameter limit)', async () => {
    const ids = Array.from({ length: 70_000 }, (_, index) => `<bulk-${index}@client.test>`);
    expect(await findSkippedMessages(t.deps.database.db, msp.id, ids)).toEqual([]);
  });

  it('takes a reply of a contact listed in two companies, in the thread of a ticket of either, as a note (it made a second ticket under the other company)', async () => {
    const companies: Array<{ id: number; name: string }> = [];
    for await (const company of direct.streamCompanies()) {
      if (company.id !== copied.company.id) companies.push({ id: company.id, name: company.name });
      if (companies.length === 1) break;
    }
    const other = companies[0];
    if (!other) throw new Error('the simulator has one company only');
    const email = 'sam.both@client.test';
    const person = { firstName: 'Sam', lastName: 'Both', email, phone: null, isActive: true };
    // Listed first under the other company (so the oldest contact of the address is not of the ticket's company).
    await upsertPsaDirectory(
      t.deps.database.db,
      msp.id,
      'CONNECTWISE',
      { companies: [{ externalId: String(other.id), name: other.name, identifier: null, companyTypes: [] }], contacts: [{ externalId: '990101', externalCompanyId: String(other.id), ...person }], members: [] },
      new Date(Date.now() - 60_000),
    );
    await upsertPsaDirectory(t.deps.database.db, msp.id, 'CONNECTWISE', { contacts: [{ externalId: '990102', externalCompanyId: String(copied.company.id), ...person }], members: [] }, new Date());

    imap.deliver({ from: copied.contact.email, subject: 'VPN down', messageId: '<vpn-1@client.test>', text: 'The VPN is down for all of us.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1 });
    imap.deliver({ from: email, subject: 'RE: VPN down', messageId: '<vpn-2@client.test>', headers: { 'In-Reply-To': '<vpn-1@client.test>', References: '<vpn-1@client.test>' }, text: 'Same here, since 9am.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, notes: 1 });
  });

  it('shows a ticket the PSA refused for good as not made, with the PSA’s reason; a reply then makes a new ticket; discarded and filed again it is made (it waited for ever before)', async () => {
    sim.faults.failNext({ kind: 400, method: 'POST', path: TICKETS_PATH });
    const refusedId = '<lost-1@client.test>';
    imap.deliver({ from: copied.contact.email, subject: 'Mail lost?', messageId: refusedId, text: 'Outlook crashes.' });
    await connector.readMailbox(msp.id);
    sim.faults.reset();
    const row = await messageRow(refusedId);
    if (!row) throw new Error('the refused mail has no row');
    const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.targetId, row.id), eq(psaOutbox.kind, 'email.ticket.create')));
    expect(write).toMatchObject({ status: 'failed' });
    const reason = write?.lastError ?? '';
    expect(reason).not.toBe('');

    const listed = await listedMail('Mail lost?');
    expect(listed).toMatchObject({ outcome: 'skipped', ticketNumber: null });
    expect(listed?.reason).toBe(EMAIL_MAIL_MESSAGES.ticketRefused(reason));

    // A reply in its thread is no note stuck behind a ticket that will never be: it is a ticket of its own.
    imap.deliver({ from: copied.contact.email, subject: 'RE: Mail lost?', messageId: '<lost-2@client.test>', headers: { 'In-Reply-To': refusedId }, text: 'Still crashing, please call.' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 1, notes: 0 });
    expect(await messageRow('<lost-2@client.test>')).toMatchObject({ state: 'done', threadRowId: null });

    // The admin discards the refused write: the mail stays "not made", with the reason, and can be filed again.
    const discarded = await admin.post(`/db/api/psa-writes/${write?.id ?? ''}/discard`, {});
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(await listedMail('Mail lost?')).toMatchObject({ outcome: 'skipped', reason: EMAIL_MAIL_MESSAGES.ticketRefused(reason) });
    const filed = await admin.post(`${CONNECTOR_URL()}/mail/${row.id}/file-under`, { companyId: String(copied.company.id) });
    expect(filed.statusCode, filed.body).toBe(200);
    const made = await waitFor('the filed mail’s ticket', () => messageRow(refusedId), (current) => current?.state === 'done');
    expect(made?.psaTicketExternalId).not.toBeNull();
    expect(await listedMail('Mail lost?')).toMatchObject({ outcome: 'ticket', reason: null });
  });

  it('ignores the product’s own mail (from MAIL_FROM) even when a default company would file it (sign-in codes became tickets)', async () => {
    const setDefault = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { defaultCompanyId: copied.company.id } });
    expect(setDefault.statusCode, setDefault.body).toBe(200);
    const codeMail = '<code-1@switchboard.local>';
    imap.deliver({ from: t.deps.config.mailFrom, subject: 'Your Switchboard verification code', messageId: codeMail, text: 'Use this code to finish signing in:\n\n483920' });
    expect(await connector.readMailbox(msp.id)).toMatchObject({ created: 0, ignored: 1 });
    expect(await messageRow(codeMail)).toMatchObject({ state: 'ignored' });
  });
});
