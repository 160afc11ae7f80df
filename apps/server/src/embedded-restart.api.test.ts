import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE, type TCreateTicketResponse, type TSupportTicketPage, type TTicketDraft } from '@switchboard/contracts';
import { eq } from 'drizzle-orm';
import { psaTickets } from '@switchboard/db';
import { SIMULATOR_STATE_FILE, startEmbedded, startBanner, type TEmbedded } from './embedded';
import { DEMO_MSP, DEMO_PASSWORD, DEMO_SIGN_INS } from './demo/seed-demo';

// Bug (first-run review): a second `npm start` reused `.data/` but started the PSA simulator empty, so its ticket
// numbers began again from the seed; a client then saw another client's new ticket as "Your latest ticket".

let dataDir: string;
const secrets = { SESSION_SECRET: randomBytes(20).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };

function start(): Promise<TEmbedded> {
  return startEmbedded({
    env: { NODE_ENV: 'development', DATA_DIR: dataDir, PORT: '0', PSA_SIM_PORT: '0', DATABASE_URL: undefined, ...secrets },
    printBanner: false,
  });
}

/** A browser stand-in over real HTTP: sends the SPA's CSRF header and keeps the session cookie. */
function browser(baseUrl: string) {
  let cookie = '';
  return async <T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { [CSRF_HEADER]: '1', ...(cookie ? { cookie } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const session = response.headers.getSetCookie().find((each) => each.startsWith(`${SESSION_COOKIE}=`));
    if (session) cookie = session.split(';')[0] ?? '';
    return { status: response.status, body: (await response.json()) as T };
  };
}

type TBrowser = ReturnType<typeof browser>;

/** Signs a demo client in (password, then the code from the dev outbox); answers the browser and the user's id. */
async function signInClient(embedded: TEmbedded, email: string): Promise<{ call: TBrowser; userId: string }> {
  const call = browser(embedded.url);
  const passwordStep = await call<{ challengeId: string }>(`/db/${DEMO_MSP.customDomain}/clientUsers/signin`, { method: 'POST', body: { emailId: email, password: DEMO_PASSWORD } });
  expect(passwordStep.status).toBe(200);
  // The outbox lists the newest mail first, and it is kept across restarts: the first code mail is this sign-in's.
  const outbox = await call<{ items: { subject: string; text: string }[] }>(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const mail = outbox.body.items.find((item) => item.subject === 'Your Switchboard verification code');
  const code = mail?.text.split('\n').find((line) => /^\d{6}$/.test(line));
  if (!code) throw new Error(`no verification code for ${email} in the dev outbox`);
  const verified = await call<{ user: { id: string } }>(`/db/${DEMO_MSP.customDomain}/clientUsers/verifyCode`, { method: 'POST', body: { challengeId: passwordStep.body.challengeId, code } });
  expect(verified.status).toBe(200);
  return { call, userId: verified.body.user.id };
}

/** Describes a problem to Jarvis and asks for a technician at once: the ticket is created in the PSA. */
async function raiseTicketByChat(call: TBrowser, problem: string): Promise<TCreateTicketResponse> {
  const started = await call<{ ticketDraft: TTicketDraft }>('/psa/getTicketCategorizationDiagnosticQandA', { method: 'POST', body: { userMessage: problem, mspCustomDomain: DEMO_MSP.customDomain } });
  expect(started.status).toBe(200);
  const query = new URLSearchParams({ mspCustomDomain: DEMO_MSP.customDomain, ticketDraftId: started.body.ticketDraft.id });
  const created = await call<TCreateTicketResponse>(`/psa/ticketDraft/talkToTechnician?${query.toString()}`, { method: 'POST', body: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

function connectWiseHeaders(embedded: TEmbedded): Record<string, string> {
  const { companyId, publicKey, privateKey, clientId } = embedded.simulator.connectWise;
  return { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId };
}

const clients = DEMO_SIGN_INS.filter((signIn) => signIn.kind === 'client');
/** The chat tickets of the first test, by ticket number: a word of each one's summary. */
const raised = new Map<string, string>();

/** The last start, left running for the banner test (a start costs seconds; the banner needs any running demo of this folder). */
let running: TEmbedded | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'switchboard-restart-'));
});
afterAll(async () => {
  await running?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('bug: a second `npm start` on the same data folder reused ticket numbers of the first', () => {
  it('keeps the simulated PSA across the restart: the second client gets a new number and the first does not see their ticket', async () => {
    const [tanya, helen] = clients;
    if (!tanya || !helen) throw new Error('the demo needs two client users');

    const first = await start();
    let tanyaTicket: TCreateTicketResponse;
    let tanyaId: string;
    try {
      const signedIn = await signInClient(first, tanya.email);
      tanyaId = signedIn.userId;
      tanyaTicket = await raiseTicketByChat(signedIn.call, 'Outlook keeps asking for my password every few minutes since this morning');
      expect(tanyaTicket.ticketNumber).not.toBeNull();
      raised.set(String(tanyaTicket.ticketNumber), 'Outlook');
    } finally {
      await first.close();
    }

    const second = await start();
    try {
      // The PSA still has Tanya's ticket after the restart (it answered 404 before the fix).
      const kept = await fetch(`${second.simulator.url}/v4_6_release/apis/3.0/service/tickets/${String(tanyaTicket.ticketId)}`, { headers: connectWiseHeaders(second) });
      expect.soft(kept.status).toBe(200);

      const { call: helenCall } = await signInClient(second, helen.email);
      const helenTicket = await raiseTicketByChat(helenCall, 'The printer by reception jams on every page and shows error E-104');
      expect(helenTicket.ticketNumber).not.toBeNull();
      expect(helenTicket.ticketNumber).not.toBe(tanyaTicket.ticketNumber);
      raised.set(String(helenTicket.ticketNumber), 'printer');

      const { call: tanyaCall } = await signInClient(second, tanya.email);
      const tanyaList = await tanyaCall<TSupportTicketPage>(`/db/supportTickets/byClientsUserId?clientsUserId=${tanyaId}`);
      expect(tanyaList.status).toBe(200);
      const numbers = tanyaList.body.tickets.map((ticket) => ticket.ticketNumber);
      expect(numbers).toContain(tanyaTicket.ticketNumber);
      expect(numbers).not.toContain(helenTicket.ticketNumber);
      expect(tanyaList.body.tickets.map((ticket) => ticket.title).join('\n')).not.toMatch(/printer/i);
    } finally {
      await second.close();
    }
  }, 240_000);
});

describe('bug: a simulator that lost its saved data numbered new tickets as ones the app still held', () => {
  it('says in the console that the file could not be read, starts from the seed, and numbers new tickets above every ticket the app holds', async () => {
    const [tanya] = clients;
    if (!tanya) throw new Error('the demo needs a client user');
    // The folder of the test above: two chat tickets and the demo's open tickets, known to the app's database.
    await writeFile(join(dataDir, SIMULATOR_STATE_FILE), '{"format":"switchboard-psa-simulator","version":1,"tables":{"tickets":');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const third = await start();
    running = third;
    try {
      const warnings = warn.mock.calls.map((call) => call.map(String).join(' '));
      expect(warnings).toContainEqual(expect.stringContaining(`The PSA simulator's saved data in ${join(dataDir, SIMULATOR_STATE_FILE)} could not be read`));
      expect(third.simulator.dataSource).toBe('seed');
      expect((await readdir(dataDir)).some((name) => name.startsWith(`${SIMULATOR_STATE_FILE}.unreadable-`))).toBe(true);

      expect(raised.size).toBe(2);
      // The demo's open tickets raised again at this start did not take the numbers of the earlier chat tickets.
      for (const [ticketNumber, word] of raised) {
        const [copy] = await third.deps.database.db.select({ summary: psaTickets.summary }).from(psaTickets).where(eq(psaTickets.externalId, ticketNumber));
        expect(copy?.summary).toContain(word);
      }
      const { call, userId } = await signInClient(third, tanya.email);
      const created = await raiseTicketByChat(call, 'My second monitor stays black after the docking station update');
      expect(Number(created.ticketNumber)).toBeGreaterThan(Math.max(...[...raised.keys()].map(Number)));
      const list = await call<TSupportTicketPage>(`/db/supportTickets/byClientsUserId?clientsUserId=${userId}`);
      expect(list.body.tickets.map((ticket) => ticket.title).join('\n')).not.toMatch(/printer/i);
    } finally {
      warn.mockRestore();
    }
  }, 120_000);
});

describe('the start banner', () => {
  it('gives each demo account the sign-in page of its own list (the MSP page opens on "Client" otherwise)', async () => {
    // The demo the test above left running on this folder (started here when this test runs alone).
    running ??= await start();
    const embedded = running;
    const banner = startBanner(embedded.url, embedded.simulator, embedded.deps.config);
    for (const signIn of DEMO_SIGN_INS) {
      const line = banner.split('\n').find((candidate) => candidate.includes(signIn.email));
      expect(line).toContain(`${embedded.url}/${signIn.mspCustomDomain}?as=${signIn.kind === 'client' ? 'client' : 'tech'}`);
    }
    expect(banner).toContain(`(data in ${join(dataDir, SIMULATOR_STATE_FILE)})`);
  }, 120_000);
});
