import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { MESSAGES, permissionMap, type TProgressiveContact } from '@switchboard/contracts';
import { psaCompanies, psaContacts, psaTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withTwoSiteApp, type TTwoSiteApp } from '../../../test/psa-simulator';
import type { TTestMsp, TTestUser } from '../../../test/factories';
import type { TActor } from '../../plugins/access';
import type { TPsaClientProvider } from './psa-client-for-msp';
import { assertStillConnectedTo } from './psa-identity';
import { findSyncRun } from '../ticket-sync/ticket-sync.repository';
import { createTicketSyncService } from '../ticket-sync/ticket-sync.service';
import { createPsaEventsService } from '../psa-events/psa-events.service';
import { createImportsService, type TImportSink } from '../imports/imports.service';

// Regression (decision 042, "Work in flight"): saving keys for another PSA starts the MSP's data over in one transaction,
// but work already running against the old PSA checked the connection only when it started. A batch sync in phase 2,
// a ticket event's reread, the A-043 directory copy and the contacts import kept writing the old PSA's tickets,
// companies and contacts into the data of the PSA connected now, under ids that name other records there.

let t: TTestApp;
let siteA: TPsaSimulator;
let siteB: TPsaSimulator;
let keyOf: TTwoSiteApp['keyOf'];
let connectSiteB: TTwoSiteApp['connectSiteB'];
withTwoSiteApp((ready) => ({ t, siteA, siteB, keyOf, connectSiteB } = ready));

const db = () => t.deps.database.db;

/**
 * The app's PSA clients, except that the first stream of `method` calls `midway` once it has read its first row (the
 * admin switching PSA while the work pages the old one), then goes on yielding what site A returns.
 */
function clientsSwitchingMidStream(method: 'streamTickets' | 'streamContacts', midway: () => Promise<void>): Pick<TPsaClientProvider, 'forMsp'> {
  let hasSwitched = false;
  return {
    async forMsp(mspId) {
      const client = await t.deps.psaClients.forMsp(mspId);
      return new Proxy(client, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (property === method) {
            const original = value as (...args: unknown[]) => AsyncIterable<unknown>;
            return async function* (...args: unknown[]) {
              for await (const row of original.apply(target, args)) {
                if (!hasSwitched) {
                  hasSwitched = true;
                  await midway();
                }
                yield row;
              }
            };
          }
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

const actorOf = (msp: TTestMsp, user: TTestUser): TActor => ({ mspId: msp.id, mspCustomDomain: msp.customDomain, userId: user.id, userKind: 'technician', permissions: permissionMap([]), ip: '127.0.0.1', requestId: 'in-flight' });

async function countOf(table: typeof psaTickets | typeof psaContacts | typeof psaCompanies, mspId: string): Promise<number> {
  const [row] = await db().select({ value: count() }).from(table).where(eq(table.mspId, mspId));
  return row?.value ?? 0;
}

describe('work in flight when keys for another PSA are saved (decision 042)', () => {
  it('a batch sync in phase 2 stops with "connection changed" and leaves no ticket of the old site', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const day = (offset: number) => new Date(t.deps.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    let boardId = -1;
    for await (const ticket of simulatorPsaClient(siteA, 'connectwise', 'in-flight-board').streamTickets({ createdFrom: new Date(`${day(-80)}T00:00:00Z`) })) {
      if (ticket.boardId !== null) boardId = ticket.boardId;
      if (boardId !== -1) break;
    }
    const sync = createTicketSyncService({
      ...t.deps,
      psaClients: clientsSwitchingMidStream('streamTickets', () => connectSiteB(admin, msp)),
      jobQueue: { ...t.deps.jobQueue, send: () => Promise.resolve(null) },
      staleAfterMs: 60_000,
      maxAttempts: 3,
    });
    const { parentRunId } = await sync.startSync(actorOf(msp, adminUser), { boardIds: [boardId], startDate: day(-80), endDate: day(0) });

    await sync.runJob({ mspId: msp.id, runId: parentRunId }, new AbortController().signal);

    const run = await findSyncRun(db(), msp.id, parentRunId);
    expect(run?.phase1Status).toBe('COMPLETED');
    expect(run?.phase2Status).toBe('FAILED');
    expect(run?.phase2Error).toMatch(/PSA connection changed/);
    expect(await countOf(psaTickets, msp.id)).toBe(0);
  }, 60_000);

  it('a write that checked the connection holds it: keys saved meanwhile wait for its commit, then start it over', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    let release: () => void = () => undefined;
    const isHeld = new Promise<void>((resolve) => (release = resolve));
    let hasEnded = false;
    const writing = db().transaction(async (tx) => {
      await assertStillConnectedTo(tx, msp.id, { psaType: 'CONNECTWISE', key: keyOf(siteA) });
      await tx.insert(psaTickets).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '1', summary: 'Site A ticket' });
      await isHeld;
    });
    const saving = connectSiteB(admin, msp).then(() => hasEnded);
    await new Promise((resolve) => setTimeout(resolve, 300));
    hasEnded = true;
    release();
    await writing;
    // PostgreSQL: the save's FOR UPDATE waited for the write's FOR SHARE (PGlite runs one transaction at a time anyway).
    expect(await saving).toBe(true);
    expect(await countOf(psaTickets, msp.id)).toBe(0);
    await expect(db().transaction((tx) => assertStillConnectedTo(tx, msp.id, { psaType: 'CONNECTWISE', key: keyOf(siteA) }))).rejects.toThrow(/PSA connection changed/);
  }, 60_000);

  it('a ticket event reread while the keys change is dropped quietly; a stale delete leaves the new site’s copy alone', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    let ticketId = 0;
    for await (const ticket of simulatorPsaClient(siteA, 'connectwise', 'in-flight-ticket').streamTickets({})) {
      ticketId = ticket.id;
      break;
    }
    const events = createPsaEventsService({ ...t.deps, psaClients: clientsSwitchingMidStream('streamTickets', () => connectSiteB(admin, msp)) });
    await events.applyEvent({ mspId: msp.id, ticketId, isDeleted: false });
    await expect(countOf(psaTickets, msp.id)).resolves.toBe(0);

    // Site B's copy of the same ticket id, then a delete event site A sent before the switch, applied after it.
    await createPsaEventsService(t.deps).applyEvent({ mspId: msp.id, ticketId, isDeleted: false, psaConnection: keyOf(siteB) });
    expect(await countOf(psaTickets, msp.id)).toBe(1);
    await events.applyEvent({ mspId: msp.id, ticketId, isDeleted: true, psaConnection: keyOf(siteA) });
    expect(await countOf(psaTickets, msp.id)).toBe(1);
  }, 60_000);

  it('the A-043 directory copy stops with a 409 in plain words and writes no contact of the old site', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const imports = createImportsService({ ...t.deps, psaClients: clientsSwitchingMidStream('streamContacts', () => connectSiteB(admin, msp)) });
    const actor = actorOf(msp, adminUser);
    const [type] = await simulatorPsaClient(siteA, 'connectwise', 'in-flight-types').listCompanyTypes();
    if (type) await imports.updateClientSync(actor, type.id, type.name);

    await expect(imports.syncClientsContacts(actor)).rejects.toMatchObject({ statusCode: 409, detail: MESSAGES.imports.connectionChanged });
    expect(await countOf(psaContacts, msp.id)).toBe(0);
    expect(await countOf(psaCompanies, msp.id)).toBe(0);
  }, 60_000);

  it('contacts loaded from the old site are not saved after the switch, even against the new site’s companies of the same ids', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const streamed = await admin.get(`/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`);
    const blocks = streamed.body.split('\n\n').filter((block) => block.trim() !== '');
    const dataOf = (block: string) => JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
    const jobId = (dataOf(blocks[0] ?? '') as { importJobId: string }).importJobId;
    const rows = blocks.filter((block) => block.startsWith('event: data')).flatMap((block) => dataOf(block) as TProgressiveContact[]);
    expect(rows.length).toBeGreaterThan(0);

    await connectSiteB(admin, msp);
    // The admin saves site B's companies again (step 4): the same demo ids as site A's.
    const clients = await admin.get(`/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${msp.customDomain}`);
    const companies = clients.body.split('\n\n').filter((block) => block.startsWith('event: data')).flatMap((block) => dataOf(block) as unknown[]);
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: companies })).statusCode).toBe(200);

    const saved = await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`, rows);
    expect(saved.statusCode, saved.body).toBe(409);
    expect(saved.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.imports.connectionChanged });
    expect(await countOf(psaContacts, msp.id)).toBe(0);
    // Resuming the old site's load is refused the same way, before any byte of the stream.
    const resumed = await admin.get(`/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`);
    expect(resumed.statusCode, resumed.body).toBe(409);
    expect(resumed.json()).toMatchObject({ detail: MESSAGES.imports.connectionChanged });
  }, 60_000);

  it('a contacts load running while the keys change ends with the plain-words error instead of sending the old site’s rows', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const imports = createImportsService({ ...t.deps, psaClients: clientsSwitchingMidStream('streamContacts', () => connectSiteB(admin, msp)) });
    const actor = actorOf(msp, adminUser);
    const sent: { event: string; payload: unknown }[] = [];
    const sink: TImportSink = { send: (event, payload) => Promise.resolve(void sent.push({ event, payload })) };
    const prepared = await imports.prepareStream(actor, 'contacts', undefined);
    await imports.runStream(actor, 'contacts', prepared, sink, new AbortController().signal);

    expect(sent.filter((each) => each.event === 'data')).toEqual([]);
    expect(sent.find((each) => each.event === 'error')?.payload).toMatchObject({ code: 'conflict', detail: MESSAGES.imports.connectionChanged });
    expect(sent.at(-1)).toMatchObject({ event: 'complete', payload: { status: 'FAILED' } });
  }, 60_000);
});
