import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaEventSubscriptions, psaReconcileCursors, psaTickets } from '@switchboard/db';
import { createPsaClient, type PsaClient, type TPsaType } from '@switchboard/psa';
import { autotaskSignature, connectWiseSignature, startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { createQueueFixture, createTickets, technician } from '../queue/queue-fixtures.test';
import { createPsaEventsService } from './psa-events.service';

const RECONCILE_OVERLAP_MS = 2 * 60_000;
const JOBS = { queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, retryLimit: 4 }, staleAfterMs: 60_000, maxAttempts: 3 };

let t: TTestApp;
let sim: TPsaSimulator;
let otherSim: TPsaSimulator;
let appUrl = '';

/** A port nobody holds right now: the simulator has to reach the app over real HTTP. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  // Another PSA, for an MSP that saves keys for a different connection.
  otherSim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { outboundAllowList: [new URL(sim.url).host, new URL(otherSim.url).host], psaEventsUrl: appUrl, psaReconcileIntervalMs: 60_000 }, jobs: JOBS });
  await t.app.listen({ port, host: '127.0.0.1' });
  // A database and a simulator per file: on a loaded machine that takes longer than the default minute.
}, 120_000);
afterAll(async () => {
  await t.close();
  await sim.close();
  await otherSim.close();
});

function directClient(psaType: TPsaType): PsaClient {
  if (psaType === 'connectwise') {
    const { companyId, publicKey, privateKey, clientId, siteUrl } = sim.connectWise;
    return createPsaClient({ psaType, siteUrl, companyId, publicKey, privateKey, clientId }, { tenantKey: 'events-direct-cw' });
  }
  const { username, secret, integrationCode, zoneDiscoveryUrl } = sim.autotask;
  return createPsaClient({ psaType, username, secret, integrationCode, zoneDiscoveryUrl }, { tenantKey: 'events-direct-at' });
}

async function connectedMsp(psaType: TPsaType): Promise<{ msp: TTestMsp; admin: TestClient }> {
  const msp = await buildMsp(t);
  const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
  const body =
    psaType === 'connectwise'
      ? { connectWiseManageIntegration: { companyId: sim.connectWise.companyId, publicKey: sim.connectWise.publicKey, privateKey: sim.connectWise.privateKey, psaUrl: sim.connectWise.siteUrl, clientId: sim.connectWise.clientId } }
      : { autotaskIntegration: { username: sim.autotask.username, secret: sim.autotask.secret, integrationCode: sim.autotask.integrationCode, zoneDiscoveryUrl: sim.autotask.zoneDiscoveryUrl } };
  expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, body)).statusCode).toBe(200);
  expect((await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`, {})).statusCode).toBe(200);
  return { msp, admin };
}

async function copyOf(mspId: string, ticketId: number) {
  const [row] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.externalId, String(ticketId))));
  return row ?? null;
}

async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!isDone(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

async function subscriptionOf(mspId: string) {
  const [row] = await t.deps.database.db.select().from(psaEventSubscriptions).where(eq(psaEventSubscriptions.mspId, mspId));
  return row ?? null;
}

async function lastReconciledAtOf(mspId: string): Promise<Date | null> {
  const [row] = await t.deps.database.db.select().from(psaReconcileCursors).where(eq(psaReconcileCursors.mspId, mspId));
  return row?.lastReconciledAt ?? null;
}

async function someOpenTicket(psaType: TPsaType): Promise<number> {
  for await (const ticket of directClient(psaType).streamTickets({})) return ticket.id;
  throw new Error('the simulator has no ticket');
}

async function simPost(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${sim.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  expect(response.status).toBe(200);
}

/** Captures what the simulator delivers, by wrapping the app's own route: the events a PSA sent, to replay. */
const postEvent = (path: string, body: string, headers: Record<string, string>) => t.app.inject({ method: 'POST', url: path, payload: body, headers: { 'content-type': 'application/json', ...headers } });

describe('ConnectWise callbacks', () => {
  it('connecting registers a ticket callback; a technician’s edit in ConnectWise reaches the ticket copy', async () => {
    const { msp } = await connectedMsp('connectwise');
    const subscription = await subscriptionOf(msp.id);
    expect(subscription?.psaType).toBe('CONNECTWISE');
    const ticketId = await someOpenTicket('connectwise');
    const summary = `Printer on fire ${Date.now()}`;
    await simPost('/__sim/connectwise/technician-ticket-edits', { ticket: { id: ticketId, summary } });
    const copy = await waitFor(() => copyOf(msp.id, ticketId), (row) => row?.summary === summary);
    expect(copy?.summary).toBe(summary);
    expect((await subscriptionOf(msp.id))?.eventsReceived).toBeGreaterThanOrEqual(1);
  });

  it('refuses a wrong route token, a forged signature and a key_url on another host with 401, and any body with no 5xx', async () => {
    const { msp } = await connectedMsp('connectwise');
    const before = await subscriptionOf(msp.id);
    const keyUrl = `${sim.url}/v4_6_release/apis/3.0/system/callbackKeys/1`;
    const body = JSON.stringify({ Action: 'updated', Type: 'ticket', ID: 1, Entity: null, Metadata: { key_url: keyUrl } });
    const wrongToken = await postEvent(`/psa/events/${msp.id}.${'x'.repeat(32)}`, body, { 'x-content-signature': 'nope' });
    expect(wrongToken.statusCode).toBe(401);
    expect(wrongToken.json<{ code: string }>().code).toBe('unauthenticated');
    // The route token is only in the URL the PSA holds; the test reads it the way an operator could not: from the simulator.
    const path = await registeredPath(msp.id);
    const forged = await postEvent(path, body, { 'x-content-signature': connectWiseSignature('not-the-key', body) });
    expect(forged.statusCode).toBe(401);
    const foreignKeyUrl = JSON.stringify({ Action: 'updated', Type: 'ticket', ID: 1, Entity: null, Metadata: { key_url: 'https://attacker.example/key' } });
    expect((await postEvent(path, foreignKeyUrl, { 'x-content-signature': 'x' })).statusCode).toBe(401);
    for (const junk of ['', 'not json', '[]', '{"ID":"1"}', '{"Metadata":{"key_url":"javascript:1"}}', '{"Action":"updated","Type":"ticket","ID":1e400,"Metadata":{}}']) {
      const response = await postEvent(path, junk, {});
      expect(response.statusCode, junk).toBe(401);
    }
    // A NUL byte is refused before any route (the input guard); never a 5xx.
    expect((await postEvent(path, '{"a":"\u0000"}', {})).statusCode).toBe(400);
    expect((await subscriptionOf(msp.id))?.eventsRefused).toBeGreaterThan(before?.eventsRefused ?? 0);
  });

  it('disconnecting removes the callback at ConnectWise and the route token stops working', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    const path = await registeredPath(msp.id);
    const callbackId = (await subscriptionOf(msp.id))?.webhookId;
    expect((await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`, {})).statusCode).toBe(200);
    expect(await subscriptionOf(msp.id)).toBeNull();
    const callbacks = await cwCallbacks();
    expect(callbacks.some((callback) => callback.id === callbackId)).toBe(false);
    expect((await postEvent(path, '{}', {})).statusCode).toBe(401);
  });
});

describe('Autotask webhooks', () => {
  it('connecting registers a TicketWebhook; a technician’s edit in Autotask reaches the copy; a bad X-Hook-Signature is 401', async () => {
    const { msp } = await connectedMsp('autotask');
    expect((await subscriptionOf(msp.id))?.psaType).toBe('AUTOTASK');
    const ticketId = await someOpenTicket('autotask');
    const title = `Scanner jammed ${Date.now()}`;
    await simPost('/__sim/autotask/technician-ticket-edits', { resourceId: 2, ticket: { id: ticketId, title } });
    const copy = await waitFor(() => copyOf(msp.id, ticketId), (row) => row?.summary === title);
    expect(copy?.summary).toBe(title);
    const path = await registeredPath(msp.id);
    const body = JSON.stringify({ Action: 'Update', EntityType: 'Ticket', Id: ticketId, Fields: {} });
    const forged = await postEvent(path, body, { 'x-hook-signature': autotaskSignature('wrong-secret', body) });
    expect(forged.statusCode).toBe(401);
    expect((await postEvent(path, body, {})).statusCode).toBe(401);
  });

  it('dropped events are caught by the reconcile, and a replayed older event never brings old data back', async () => {
    const { msp } = await connectedMsp('autotask');
    const ticketId = await someOpenTicket('autotask');
    const path = await registeredPath(msp.id);
    const events = createPsaEventsService(t.deps);
    await events.reconcileMsp(msp.id, { updatedSince: new Date(0) });
    const db = t.deps.database.db;
    const subscription = await subscriptionOf(msp.id);
    if (!subscription?.secretCiphertext) throw new Error('no Autotask subscription');

    // Deliveries are refused for a while (as when the app is down): Autotask gives up on them (psa-apis.md §6.2).
    await db.update(psaEventSubscriptions).set({ routeTokenHash: '00' }).where(eq(psaEventSubscriptions.mspId, msp.id));
    const missedTitle = `Missed while down ${Date.now()}`;
    await simPost('/__sim/autotask/technician-ticket-edits', { resourceId: 2, ticket: { id: ticketId, title: missedTitle } });
    await waitFor(async () => (await subscriptionOf(msp.id))?.eventsRefused ?? 0, (refused) => refused > 0, 3_000);
    await db.update(psaEventSubscriptions).set({ routeTokenHash: subscription.routeTokenHash }).where(eq(psaEventSubscriptions.mspId, msp.id));
    expect((await copyOf(msp.id, ticketId))?.summary).not.toBe(missedTitle);
    const pass = await events.reconcileMsp(msp.id);
    expect(pass.isCut).toBe(false);
    expect((await copyOf(msp.id, ticketId))?.summary).toBe(missedTitle);

    // An event captured earlier and replayed after a newer change: the copy keeps the newer title.
    const { decryptSecret } = await import('../../lib/crypto');
    const webhookSecret = decryptSecret(t.deps.config.encryptionKey, subscription.secretCiphertext);
    const oldEvent = JSON.stringify({ Action: 'Update', Guid: 'replayed', EntityType: 'Ticket', Id: ticketId, Fields: { title: 'An old title' }, SequenceNumber: 1 });
    const newerTitle = `Newer title ${Date.now()}`;
    await simPost('/__sim/autotask/technician-ticket-edits', { resourceId: 2, ticket: { id: ticketId, title: newerTitle } });
    await waitFor(() => copyOf(msp.id, ticketId), (row) => row?.summary === newerTitle);
    const replayed = await postEvent(path, oldEvent, { 'x-hook-signature': autotaskSignature(webhookSecret, oldEvent) });
    expect(replayed.statusCode).toBe(202);
    expect(replayed.json()).toEqual({ queued: 1 });
    const received = (await subscriptionOf(msp.id))?.eventsReceived ?? 0;
    // The replayed job has run once the copy's sync time moves; the title stays the newer one.
    const syncedBefore = (await copyOf(msp.id, ticketId))?.syncedAt.getTime() ?? 0;
    await waitFor(() => copyOf(msp.id, ticketId), (row) => (row?.syncedAt.getTime() ?? 0) > syncedBefore, 5_000);
    expect((await copyOf(msp.id, ticketId))?.summary).toBe(newerTitle);
    expect(received).toBeGreaterThanOrEqual(2);
  });

  it('a burst of events for one ticket causes one reread, and the copy shows the burst’s last change (decision 022)', async () => {
    const { msp } = await connectedMsp('autotask');
    const ticketId = await someOpenTicket('autotask');
    const receivedBefore = (await subscriptionOf(msp.id))?.eventsReceived ?? 0;
    const titles = Array.from({ length: 5 }, (_, index) => `Burst edit ${index + 1} ${Date.now()}`);
    // A technician saves the ticket five times in a row: Autotask sends five callouts over real HTTP.
    for (const title of titles) await simPost('/__sim/autotask/technician-ticket-edits', { resourceId: 2, ticket: { id: ticketId, title } });
    await waitFor(async () => (await subscriptionOf(msp.id))?.eventsReceived ?? 0, (received) => received >= receivedBefore + titles.length, 10_000);
    expect((await subscriptionOf(msp.id))?.eventsReceived).toBe(receivedBefore + titles.length);
    const last = titles.at(-1);
    const copy = await waitFor(() => copyOf(msp.id, ticketId), (row) => row?.summary === last);
    expect(copy?.summary).toBe(last);
    const rereads = await t.deps.database.executeSql(`SELECT count(*)::int AS total FROM pgboss.job WHERE name = $1 AND data->>'mspId' = $2 AND (data->>'ticketId')::int = $3`, [
      'psa-events.apply',
      msp.id,
      ticketId,
    ]);
    expect((rereads.rows[0] as { total: number } | undefined)?.total).toBe(1);

    // An event after the reread has started is not merged into it: the next change reaches the copy too.
    const later = `After the burst ${Date.now()}`;
    await simPost('/__sim/autotask/technician-ticket-edits', { resourceId: 2, ticket: { id: ticketId, title: later } });
    expect((await waitFor(() => copyOf(msp.id, ticketId), (row) => row?.summary === later))?.summary).toBe(later);
  });

  it('a reconcile pass stops at its request budget and keeps its cursor; a complete pass moves it', async () => {
    const { msp } = await connectedMsp('autotask');
    const events = createPsaEventsService(t.deps);
    const cut = await events.reconcileMsp(msp.id, { updatedSince: new Date(0), maxRequests: 1 });
    expect(cut.isCut).toBe(true);
    expect(cut.requests).toBeLessThanOrEqual(2);
    // No complete pass yet: the cursor still reads from the window's start (epoch), and the window is kept open.
    expect((await lastReconciledAtOf(msp.id))?.getTime() ?? 0).toBeLessThanOrEqual(RECONCILE_OVERLAP_MS);
    expect((await cursorRowOf(msp.id))?.windowAfterId).toBeGreaterThan(0);
    const full = await events.reconcileMsp(msp.id, { updatedSince: new Date(0), maxRequests: 10_000 });
    expect(full.isCut).toBe(false);
    expect(full.written).toBeGreaterThan(cut.written);
    expect((await lastReconciledAtOf(msp.id))?.getTime()).toBeGreaterThan(RECONCILE_OVERLAP_MS);
    expect((await cursorRowOf(msp.id))?.windowAfterId).toBeNull();
  });

  it('a window larger than the pass budget finishes: each cut pass goes on after the last ticket it read (regression)', async () => {
    const { msp } = await connectedMsp('autotask');
    const events = createPsaEventsService(t.deps);
    await t.deps.database.db.insert(psaReconcileCursors).values({ mspId: msp.id, lastReconciledAt: new Date(0) });
    const cuts: boolean[] = [];
    // Two requests: a page of 500 and the first of the next. Before the fix every pass reread the same first page and
    // was cut again, for ever (the simulator holds more than 500 tickets).
    for (let pass = 0; pass < 40 && cuts.at(-1) !== false; pass++) cuts.push((await events.reconcileMsp(msp.id, { maxRequests: 2 })).isCut);
    expect(cuts[0]).toBe(true);
    expect(cuts.at(-1)).toBe(false);
    const inPsa = new Set<string>();
    for await (const ticket of directClient('autotask').streamTickets({})) inPsa.add(String(ticket.id));
    const copies = await t.deps.database.db.select({ externalId: psaTickets.externalId }).from(psaTickets).where(eq(psaTickets.mspId, msp.id));
    expect(copies.length).toBe(inPsa.size);
    expect(copies.every((copy) => inPsa.has(copy.externalId))).toBe(true);
  });
});

describe('the reconcile loop without a webhook, and across a re-registration', () => {
  const CALLBACKS = '/v4_6_release/apis/3.0/system/callbacks';

  it('a PSA refusing the webhook does not stop the reread: a ticket changed there is still copied, and a later pass registers it (regression)', async () => {
    // An API member without callback rights: ConnectWise answers 403 to registering, on connect and on the next pass.
    sim.faults.failNext({ kind: 403, method: 'POST', path: CALLBACKS, count: 2 });
    const { msp } = await connectedMsp('connectwise');
    expect(await subscriptionOf(msp.id)).toBeNull();
    const ticketId = await someOpenTicket('connectwise');
    const summary = `Closed in ConnectWise ${Date.now()}`;
    await simPost('/__sim/connectwise/technician-ticket-edits', { ticket: { id: ticketId, summary } });

    const logged: string[] = [];
    const events = createPsaEventsService(t.deps);
    const pass = await events.reconcileMsp(msp.id, { log: (message) => logged.push(message) });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(pass.isCut).toBe(false);
    expect((await copyOf(msp.id, ticketId))?.summary).toBe(summary);
    expect(logged).toEqual([expect.stringContaining('registering the ticket webhook')]);
    // The cursor is kept without a webhook, so the next pass starts where this one did.
    expect(await lastReconciledAtOf(msp.id)).not.toBeNull();

    await events.reconcileMsp(msp.id);
    expect((await subscriptionOf(msp.id))?.psaType).toBe('CONNECTWISE');
  });

  it('two passes registering a missing webhook at once leave exactly one callback at ConnectWise (regression)', async () => {
    const { msp } = await connectedMsp('connectwise');
    const ours = async () => (await cwCallbacks()).filter((callback) => callback.url.includes(`/psa/events/${msp.id}.`));
    expect(await ours()).toHaveLength(1);
    // Lost, as after Autotask deactivates a webhook; the callback at the PSA itself is removed too.
    const events = createPsaEventsService(t.deps);
    await events.unsubscribe(msp.id);
    expect(await ours()).toHaveLength(0);
    await Promise.all([events.reconcileMsp(msp.id), events.reconcileMsp(msp.id)]);
    const callbacks = await ours();
    expect(callbacks).toHaveLength(1);
    expect((await subscriptionOf(msp.id))?.webhookId).toBe(callbacks[0]?.id);
  });

  it('a re-registration keeps the cursor: a change missed while the server was down longer than the look-back is still read (regression)', async () => {
    const { msp } = await connectedMsp('connectwise');
    const events = createPsaEventsService(t.deps);
    await events.reconcileMsp(msp.id);
    const cursor = await lastReconciledAtOf(msp.id);
    expect(cursor).not.toBeNull();

    // The server is down: ConnectWise's callout for this change is refused, so only the reconcile can bring it.
    const db = t.deps.database.db;
    await db.update(psaEventSubscriptions).set({ routeTokenHash: '00' }).where(eq(psaEventSubscriptions.mspId, msp.id));
    const ticketId = await someOpenTicket('connectwise');
    const summary = `Changed while down ${Date.now()}`;
    await simPost('/__sim/connectwise/technician-ticket-edits', { ticket: { id: ticketId, summary } });
    await waitFor(async () => (await subscriptionOf(msp.id))?.eventsRefused ?? 0, (refused) => refused > 0, 3_000);

    // Back up, the webhook is registered again (as after Autotask deactivates one, or a reconnect).
    expect(await events.subscribe(msp.id)).toBe(true);
    expect(await lastReconciledAtOf(msp.id)).toEqual(cursor);
    // The next pass runs 10 minutes later, past the look-back (2 × the 1-minute interval): only the cursor covers the change.
    const later = createPsaEventsService({ ...t.deps, now: () => new Date(Date.now() + 10 * 60_000) });
    expect((await copyOf(msp.id, ticketId))?.summary).not.toBe(summary);
    expect((await later.reconcileMsp(msp.id)).isCut).toBe(false);
    expect((await copyOf(msp.id, ticketId))?.summary).toBe(summary);
  });
});

describe('saving keys for another PSA connection without disconnecting', () => {
  it('drops the old subscription: an event signed with the old secret is refused, and enabling leaves the new PSA’s unrelated webhook alone (regression)', async () => {
    const { msp, admin } = await connectedMsp('autotask');
    const old = await subscriptionOf(msp.id);
    if (!old?.secretCiphertext) throw new Error('no Autotask subscription');
    const oldPath = await registeredPath(msp.id);
    // The other Autotask holds someone else's webhooks, one of them with the id ours has at the first one.
    const other = createPsaClient(
      { psaType: 'autotask', username: otherSim.autotask.username, secret: otherSim.autotask.secret, integrationCode: otherSim.autotask.integrationCode, zoneDiscoveryUrl: otherSim.autotask.zoneDiscoveryUrl },
      { tenantKey: 'events-other-at' },
    );
    const unrelated: number[] = [];
    while (!unrelated.includes(old.webhookId) && unrelated.length < 500) {
      unrelated.push((await other.registerTicketWebhook({ url: `https://unrelated.example/hook/${unrelated.length}`, description: 'Another integration', secretKey: 'theirs' })).id);
    }
    expect(unrelated).toContain(old.webhookId);

    const saved = await admin.post(`/db/${msp.customDomain}/integrations/update`, {
      autotaskIntegration: { username: otherSim.autotask.username, secret: otherSim.autotask.secret, integrationCode: otherSim.autotask.integrationCode, zoneDiscoveryUrl: otherSim.autotask.zoneDiscoveryUrl },
    });
    expect(saved.statusCode).toBe(200);
    const { decryptSecret } = await import('../../lib/crypto');
    const event = JSON.stringify({ Action: 'Update', EntityType: 'Ticket', Id: await someOpenTicket('autotask'), Fields: {} });
    const signedWithOld = await postEvent(oldPath, event, { 'x-hook-signature': autotaskSignature(decryptSecret(t.deps.config.encryptionKey, old.secretCiphertext), event) });
    expect(signedWithOld.statusCode).toBe(401);
    // The first Autotask no longer calls us (removed with the old keys).
    expect((await atWebhookUrls(sim)).some((url) => url.includes(`/psa/events/${msp.id}.`))).toBe(false);

    expect((await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`, {})).statusCode).toBe(200);
    expect((await subscriptionOf(msp.id))?.webhookId).toBeDefined();
    const urls = await atWebhookUrls(otherSim);
    expect(urls.filter((url) => url.startsWith('https://unrelated.example/hook/'))).toHaveLength(unrelated.length);
    expect(urls.some((url) => url.includes(`/psa/events/${msp.id}.`))).toBe(true);
  });
});

describe('tickets deleted in the PSA, and a PSA clock behind ours', () => {
  it('a ticket deleted in ConnectWise without a delete event (no public address) leaves the copies and "next" at the next reconcile (regression)', async () => {
    const fixture = await createQueueFixture(t, sim);
    const [ticketId = 0] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Deleted in ConnectWise' });
    // Decision 022: without PSA_EVENTS_URL/PUBLIC_URL no webhook is registered; the reconcile alone follows the PSA.
    const events = createPsaEventsService({ ...t.deps, config: { ...t.deps.config, psaEventsUrl: undefined } });
    await events.reconcileMsp(fixture.msp.id);
    expect(await subscriptionOf(fixture.msp.id)).toBeNull();
    const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const nextIds = async () => {
      const response = await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${fixture.msp.customDomain}&techId=${user.id}&psaMemberId=&limit=5`);
      expect(response.statusCode).toBe(200);
      return response.json<{ tickets: { ticketId: number }[] }>().tickets.map((ticket) => ticket.ticketId);
    };
    expect(await nextIds()).toContain(ticketId);

    const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
    const removed = await fetch(`${sim.url}/v4_6_release/apis/3.0/service/tickets/${ticketId}`, {
      method: 'DELETE',
      headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId },
    });
    expect(removed.status).toBe(204);
    const pass = await events.reconcileMsp(fixture.msp.id);
    expect(pass.isCut).toBe(false);
    expect(await copyOf(fixture.msp.id, ticketId)).toBeNull();
    expect(await nextIds()).not.toContain(ticketId);
  });

  it('a reread by id of a ticket the PSA no longer has removes its copy, as a delete event would (regression)', async () => {
    const fixture = await createQueueFixture(t, sim);
    const [ticketId = 0] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Reread after delete' });
    const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
    await fetch(`${sim.url}/v4_6_release/apis/3.0/service/tickets/${ticketId}`, {
      method: 'DELETE',
      headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId },
    });
    await createPsaEventsService(t.deps).applyEvent({ mspId: fixture.msp.id, ticketId, isDeleted: false });
    expect(await copyOf(fixture.msp.id, ticketId)).toBeNull();
  });

  it('the cursor follows the PSA’s clock: an edit in a PSA whose clock is 3 minutes behind ours is still read (regression)', async () => {
    const { msp } = await connectedMsp('connectwise');
    const db = t.deps.database.db;
    // Callouts are refused (as when the app is down), so only the reconcile can bring the edits.
    await db.update(psaEventSubscriptions).set({ routeTokenHash: '00' }).where(eq(psaEventSubscriptions.mspId, msp.id));
    await db.insert(psaReconcileCursors).values({ mspId: msp.id, lastReconciledAt: new Date(Date.now() - 60_000) });
    const ticketId = await someOpenTicket('connectwise');
    await simPost('/__sim/connectwise/technician-ticket-edits', { ticket: { id: ticketId, summary: `Before the pass ${Date.now()}` } });
    // Our clock runs 3 minutes ahead of the PSA's (more than the 2-minute overlap).
    const ahead = createPsaEventsService({ ...t.deps, now: () => new Date(Date.now() + 3 * 60_000) });
    expect((await ahead.reconcileMsp(msp.id)).isCut).toBe(false);
    const summary = `Between the passes ${Date.now()}`;
    await simPost('/__sim/connectwise/technician-ticket-edits', { ticket: { id: ticketId, summary } });
    expect((await ahead.reconcileMsp(msp.id)).isCut).toBe(false);
    expect((await copyOf(msp.id, ticketId))?.summary).toBe(summary);
  });
});

async function cursorRowOf(mspId: string) {
  const [row] = await t.deps.database.db.select().from(psaReconcileCursors).where(eq(psaReconcileCursors.mspId, mspId));
  return row ?? null;
}

async function registeredPath(mspId: string): Promise<string> {
  const hooks = [...(await cwCallbacks()).map((callback) => callback.url), ...(await atWebhookUrls(sim))];
  const url = hooks.find((candidate) => candidate.includes(`/psa/events/${mspId}.`));
  if (!url) throw new Error(`no webhook registered for ${mspId}`);
  return new URL(url).pathname;
}

async function cwCallbacks(): Promise<{ id: number; url: string }[]> {
  const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
  const response = await fetch(`${sim.url}/v4_6_release/apis/3.0/system/callbacks?pageSize=1000`, {
    headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId },
  });
  return (await response.json()) as { id: number; url: string }[];
}

async function atWebhookUrls(at: TPsaSimulator = sim): Promise<string[]> {
  const { username, secret, integrationCode } = at.autotask;
  const response = await fetch(`${at.url}/atservicesrest/v1.0/TicketWebhooks/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', UserName: username, Secret: secret, ApiIntegrationCode: integrationCode },
    body: JSON.stringify({ filter: [{ op: 'exist', field: 'id' }] }),
  });
  const body = (await response.json()) as { items?: { webhookUrl: string }[] };
  return (body.items ?? []).map((item) => item.webhookUrl);
}
