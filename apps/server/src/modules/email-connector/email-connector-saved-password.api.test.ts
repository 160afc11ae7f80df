// Security review: the stored app password was reused whenever the address stayed the same, so a save that
// changed only the IMAP server (or port) signed in to that server with the stored password. It is now only
// ever sent to the server it was saved for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CONNECTOR_MESSAGES } from '@switchboard/contracts';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { startImapServer, type TImapServer } from '../../../test/imap-server';

const ADDRESS = 'help@msp.test';
const APP_PASSWORD = 'abcd-efgh-ijkl-9xYz';

let t: TTestApp;
let imap: TImapServer;
/** Another IMAP server on the allow-list that would accept the stored password: where it must never go unasked. */
let elsewhere: TImapServer;

beforeAll(async () => {
  imap = await startImapServer({ [ADDRESS]: APP_PASSWORD });
  elsewhere = await startImapServer({ [ADDRESS]: APP_PASSWORD });
  t = await createTestApp({ config: { outboundAllowList: [imap.hostPort, elsewhere.hostPort, `localhost:${imap.port}`] } });
});
afterAll(async () => {
  await t.close();
  await imap.close();
  await elsewhere.close();
});

const url = (msp: TTestMsp) => `/db/${msp.customDomain}/integrations/email-connector`;

describe('PUT /db/{msp}/integrations/email-connector without the app password', () => {
  it('asks for the password again when the IMAP server or its port changes, and keeps it for the same server', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    expect((await admin.put(url(msp), { address: ADDRESS, appPassword: APP_PASSWORD, imapHost: imap.host, imapPort: imap.port })).statusCode).toBe(200);

    const expected = {
      status: 400,
      code: 'validation',
      detail: EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer,
      invalidParams: [{ name: 'appPassword', reason: EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer }],
    };
    const otherPort = await admin.put(url(msp), { address: ADDRESS, imapHost: imap.host, imapPort: elsewhere.port });
    expect(otherPort.json()).toMatchObject(expected);
    const otherHost = await admin.put(url(msp), { address: ADDRESS, imapHost: 'localhost', imapPort: imap.port });
    expect(otherHost.json()).toMatchObject(expected);
    expect((await admin.get(url(msp))).json()).toMatchObject({ imapHost: imap.host, imapPort: imap.port });

    // The same server, its name in capitals: the password is kept. A new server with its password is saved.
    expect((await admin.put(url(msp), { address: ADDRESS, imapHost: imap.host.toUpperCase(), imapPort: imap.port })).json()).toMatchObject({ passwordHint: '••••9xYz' });
    const moved = await admin.put(url(msp), { address: ADDRESS, appPassword: APP_PASSWORD, imapHost: imap.host, imapPort: elsewhere.port });
    expect(moved.json()).toMatchObject({ imapPort: elsewhere.port, passwordHint: '••••9xYz' });
  });
});
