// The email connector's settings (R-195, R-199, decision 036) through HTTP, against a local IMAP server
// (hoodiecrow-imap) that the real imapflow client signs in to.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { EMAIL_CONNECTOR_MESSAGES } from '@switchboard/contracts';
import { auditEvents, emailConnectors } from '@switchboard/db';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { startImapServer, type TImapServer } from '../../../test/imap-server';

const ADDRESS = 'help@msp.test';
const APP_PASSWORD = 'abcd-efgh-ijkl-9xYz';
/** A mailbox whose password is short (some IMAP servers allow that). */
const SHORT_ADDRESS = 'short@msp.test';
const SHORT_PASSWORD = 'abcd';

let t: TTestApp;
let imap: TImapServer;
/** A port on loopback where nothing listens (allow-listed, so the SSRF guard lets it through and the connect fails). */
let deadPort: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  imap = await startImapServer({ [ADDRESS]: APP_PASSWORD, [SHORT_ADDRESS]: SHORT_PASSWORD });
  deadPort = await freePort();
  // The local IMAP server is plain IMAP on loopback, which the SSRF guard lets through only when allow-listed.
  t = await createTestApp({ config: { outboundAllowList: [imap.hostPort, `127.0.0.1:${deadPort}`] } });
});
afterAll(async () => {
  await t.close();
  await imap.close();
});

const url = (msp: TTestMsp) => `/db/${msp.customDomain}/integrations/email-connector`;
const body = (overrides: Record<string, unknown> = {}) => ({ address: ADDRESS, appPassword: APP_PASSWORD, imapHost: imap.host, imapPort: imap.port, ...overrides });

async function adminOf(msp: TTestMsp): Promise<TestClient> {
  return signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
}

async function auditOf(msp: TTestMsp) {
  return t.deps.database.db
    .select({ action: auditEvents.action, outcome: auditEvents.outcome, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.mspId, msp.id), like(auditEvents.action, 'email_connector.%')))
    .orderBy(auditEvents.createdAt);
}

describe('GET/PUT/DELETE /db/{msp}/integrations/email-connector', () => {
  it('saves a mailbox that accepts the sign-in: the password encrypted, only its last four shown, emailIntegrator true', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const empty = await admin.get(url(msp));
    expect(empty.json()).toEqual({ isConfigured: false, address: null, imapHost: null, imapPort: null, passwordHint: null, lastCheckedAt: null, lastError: null, ticketCount: 0, updatedAt: null });
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ emailIntegrator: false });

    const saved = await admin.put(url(msp), body());
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(APP_PASSWORD);
    expect(saved.json()).toMatchObject({ isConfigured: true, address: ADDRESS, imapHost: '127.0.0.1', imapPort: imap.port, passwordHint: '••••9xYz', ticketCount: 0 });
    const [row] = await t.deps.database.db.select().from(emailConnectors).where(eq(emailConnectors.mspId, msp.id));
    expect(JSON.stringify(row)).not.toContain(APP_PASSWORD);
    expect((await admin.get(url(msp))).body).not.toContain(APP_PASSWORD);
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ emailIntegrator: true, isConfigured: false });
    expect(await auditOf(msp)).toEqual([{ action: 'email_connector.create', outcome: 'success', details: { address: ADDRESS, imapHost: '127.0.0.1', imapPort: imap.port, passwordChanged: true } }]);
  });

  // Review finding: the hint was "••••" and the last four characters whatever the password's length, so a short one was shown whole.
  it('shows no character of an app password shorter than 12 characters', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const saved = await admin.put(url(msp), body({ address: SHORT_ADDRESS, appPassword: SHORT_PASSWORD }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ passwordHint: '••••' });
    const read = await admin.get(url(msp));
    expect(read.body).not.toContain(SHORT_PASSWORD);
    expect(read.json()).toMatchObject({ isConfigured: true, address: SHORT_ADDRESS, passwordHint: '••••' });
  });

  it('keeps the saved password when it is left out for the same address, and asks for it for another address', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), body());
    const again = await admin.put(url(msp), body({ appPassword: undefined }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ passwordHint: '••••9xYz' });
    const other = await admin.put(url(msp), body({ address: 'other@msp.test', appPassword: undefined }));
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'validation', detail: EMAIL_CONNECTOR_MESSAGES.passwordRequired, invalidParams: [{ name: 'appPassword' }] });
    expect((await auditOf(msp)).map((event) => event.action)).toEqual(['email_connector.create', 'email_connector.update']);
  });

  it('refuses a wrong app password with a plain sentence and saves nothing', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const refused = await admin.put(url(msp), body({ appPassword: 'not-the-password' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation', detail: EMAIL_CONNECTOR_MESSAGES.signInRefused, invalidParams: [{ name: 'appPassword', reason: EMAIL_CONNECTOR_MESSAGES.signInRefused }] });
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: false });
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ emailIntegrator: false });
    const [event] = await auditOf(msp);
    expect(event).toMatchObject({ action: 'email_connector.verify', outcome: 'failure', details: { reason: EMAIL_CONNECTOR_MESSAGES.signInRefused } });
  });

  it('says plainly when the mail server cannot be reached, and saves nothing', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const unreachable = await admin.put(url(msp), body({ imapPort: deadPort }));
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json()).toMatchObject({ code: 'mail_server_unreachable', detail: EMAIL_CONNECTOR_MESSAGES.unreachable });
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: false });
  });

  it('refuses an IMAP server on a private or local address (SSRF guard) before signing in', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    for (const imapHost of ['127.0.0.1', 'localhost', '169.254.169.254', '10.0.0.7', '[::1]']) {
      const refused = await admin.put(url(msp), body({ imapHost, imapPort: 993 }));
      expect(refused.statusCode, imapHost).toBe(400);
      expect(refused.json(), imapHost).toMatchObject({ code: 'validation', detail: 'That IMAP server cannot be used: it points to a private or local network address.', invalidParams: [{ name: 'imapHost' }] });
    }
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: false });
  });

  it('asks for the IMAP server when the address is not a big provider’s, and refuses bad fields with plain messages', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const noHost = await admin.put(url(msp), { address: ADDRESS, appPassword: APP_PASSWORD });
    expect(noHost.statusCode).toBe(400);
    expect(noHost.json()).toMatchObject({ detail: EMAIL_CONNECTOR_MESSAGES.hostRequired, invalidParams: [{ name: 'imapHost', reason: EMAIL_CONNECTOR_MESSAGES.hostRequired }] });
    const cases: [Record<string, unknown>, string][] = [
      [{ address: 'not an address' }, EMAIL_CONNECTOR_MESSAGES.addressInvalid],
      [{ imapHost: 'https://imap.msp.test/' }, EMAIL_CONNECTOR_MESSAGES.hostInvalid],
      [{ imapPort: 70_000 }, EMAIL_CONNECTOR_MESSAGES.portInvalid],
      [{ appPassword: '' }, EMAIL_CONNECTOR_MESSAGES.passwordRequired],
    ];
    for (const [change, message] of cases) {
      const refused = await admin.put(url(msp), body(change));
      expect(refused.statusCode, message).toBe(400);
      expect(JSON.stringify(refused.json()), message).toContain(message);
    }
  });

  it('DELETE removes the mailbox (emailIntegrator false); disconnecting the PSA leaves it alone', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.put(url(msp), body());
    const disconnected = await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`);
    expect(disconnected.statusCode).toBe(200);
    expect(disconnected.json()).toMatchObject({ connectWiseManageIntegrator: false, emailIntegrator: true });
    expect((await admin.get(url(msp))).json()).toMatchObject({ isConfigured: true, address: ADDRESS });

    const removed = await admin.delete(url(msp));
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ isConfigured: false, address: null, passwordHint: null });
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ emailIntegrator: false });
    const again = await admin.delete(url(msp));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: EMAIL_CONNECTOR_MESSAGES.notConfigured });
    expect((await auditOf(msp)).map((event) => event.action)).toEqual(['email_connector.create', 'email_connector.delete']);
  });

  it('is for users with mspIntegrations only, and never another MSP’s', async () => {
    const msp = await buildMsp(t);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.get(url(msp))).statusCode).toBe(403);
    expect((await technician.put(url(msp), body())).statusCode).toBe(403);
    const other = await buildMsp(t);
    const otherAdmin = await adminOf(other);
    expect((await otherAdmin.get(url(msp))).statusCode).toBe(404);
  });
});
