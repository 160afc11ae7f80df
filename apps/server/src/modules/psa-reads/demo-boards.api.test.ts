import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '@switchboard/contracts';
import { startEmbedded, type TEmbedded } from '../../embedded';
import { DEMO_PASSWORD, DEMO_SIGN_INS } from '../../demo/seed-demo';

let embedded: TEmbedded;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'switchboard-demo-'));
  embedded = await startEmbedded({
    env: {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: '0',
      PSA_SIM_PORT: '0',
      SESSION_SECRET: randomBytes(20).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: undefined,
    },
    printBanner: false,
  });
}, 120_000);
afterAll(async () => {
  await embedded.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A browser stand-in over real HTTP: sends the SPA's CSRF header and keeps the session cookie. */
function browser(baseUrl: string) {
  let cookie = '';
  return async (path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { [CSRF_HEADER]: '1', ...(cookie ? { cookie } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const session = response.headers.getSetCookie().find((each) => each.startsWith(`${SESSION_COOKIE}=`));
    if (session) cookie = session.split(';')[0] ?? '';
    const body: unknown = await response.json();
    return { status: response.status, body };
  };
}

describe('issue #3 done-when: the embedded demo reads its boards from the simulator', () => {
  it('signs the demo admin in with the mailed code and lists the "Help Desk" board', async () => {
    expect(embedded.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    const admin = DEMO_SIGN_INS[0];
    if (!admin) throw new Error('the demo has no sign-ins');
    const call = browser(embedded.url);

    const passwordStep = await call(`/db/${admin.mspCustomDomain}/technicianUsers/signin`, { method: 'POST', body: { emailId: admin.email, password: DEMO_PASSWORD } });
    expect(passwordStep.status).toBe(200);
    const { challengeId } = passwordStep.body as { challengeId: string };
    const outbox = await call(`/dev/outbox?to=${encodeURIComponent(admin.email)}`);
    const mail = (outbox.body as { items: { subject: string; text: string }[] }).items.find((item) => item.subject === 'Your Switchboard verification code');
    const code = mail?.text.split('\n').find((line) => /^\d{6}$/.test(line));
    if (!code) throw new Error('no verification code in the dev outbox');
    expect((await call(`/db/${admin.mspCustomDomain}/technicianUsers/verifyCode`, { method: 'POST', body: { challengeId, code } })).status).toBe(200);

    const boards = await call(`/psa/getConnectWiseBoards?mspCustomDomain=${admin.mspCustomDomain}`);
    expect(boards.status).toBe(200);
    expect(boards.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Help Desk', isActive: true })]));
  });
});
