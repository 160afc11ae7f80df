// The e-mail connector's API tests share one set-up: a real IMAP server (hoodiecrow-imap), the PSA simulator, and an
// MSP connected to it whose Help Desk board is saved as its configuration; the mailbox is connected by the test itself
// (after it has copied the contacts it needs), with `connectMailbox`.
import { afterAll, beforeAll, expect } from 'vitest';
import type { TMergedCategorization } from '@switchboard/contracts';
import type { PsaClient, TPsaBoard } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestMsp } from './factories';
import type { TestClient, TTestApp } from './test-app';
import { buildConnectedMsp, FAST_PSA_RETRY, simulatorPsaClient, withSimulatorApp } from './psa-simulator';
import { startImapServer, type TImapServer } from './imap-server';
import { nextIp } from '../src/modules/auth/auth-test-helpers';

export const MAILBOX = { address: 'help@msp.test', appPassword: 'mailbox-app-password' } as const;

export type TMailboxApp = { t: TTestApp; sim: TPsaSimulator; imap: TImapServer; direct: PsaClient; msp: TTestMsp; admin: TestClient; helpDesk: TPsaBoard };

/** Registers the hooks; `onReady` receives the app once the MSP's Help Desk board is its saved configuration. */
export function withMailboxApp(clientKey: string, onReady: (app: TMailboxApp) => void): void {
  let imap: TImapServer | undefined;
  let t: TTestApp | undefined;
  let sim: TPsaSimulator | undefined;
  beforeAll(async () => {
    imap = await startImapServer({ [MAILBOX.address]: MAILBOX.appPassword });
  });
  afterAll(async () => {
    await imap?.close();
  });
  withSimulatorApp(
    { app: (started) => ({ config: { outboundAllowList: [new URL(started.url).host, (imap as TImapServer).hostPort] }, jobs: { queue: { pollingIntervalSeconds: 0.5 } }, psaRetry: FAST_PSA_RETRY }) },
    (ready) => ({ t, sim } = ready),
  );
  beforeAll(async () => {
    if (!t || !sim || !imap) throw new Error('the simulator app or the IMAP server did not start');
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() });
    const direct = simulatorPsaClient(sim, 'connectwise', clientKey);
    const helpDesk = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
    if (!helpDesk) throw new Error('no Help Desk board');
    const merged = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${msp.customDomain}&boardId=${helpDesk.id}`);
    const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = merged.json<TMergedCategorization>();
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } });
    expect(saved.statusCode, saved.body).toBe(200);
    onReady({ t, sim, imap, direct, msp, admin, helpDesk });
  }, 120_000);
}

/** Connects the MSP's help-desk mailbox (it must accept the sign-in). */
export async function connectMailbox({ admin, msp, imap }: Pick<TMailboxApp, 'admin' | 'msp' | 'imap'>): Promise<void> {
  const connected = await admin.put(`/db/${msp.customDomain}/integrations/email-connector`, { address: MAILBOX.address, appPassword: MAILBOX.appPassword, imapHost: imap.host, imapPort: imap.port });
  expect(connected.statusCode, connected.body).toBe(200);
}
