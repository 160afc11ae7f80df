import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { CSRF_HEADER, MESSAGES, permissionMap, SESSION_COOKIE, type TCompany, type TCompanyPage, type TProgressiveClient, type TProgressiveContact } from '@switchboard/contracts';
import { importJobs, psaCompanies, psaContacts, psaTicketingConfigs } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TPsaType } from '@switchboard/psa';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { insertCustomRole } from '../roles/roles.repository';

let t: TTestApp;
let sim: TPsaSimulator;
const COMPANIES = 150;
const CONTACTS = 2_600;

withSimulatorApp({ simulator: { seed: 'empty', scale: { companies: COMPANIES, contacts: CONTACTS } } }, (ready) => ({ t, sim } = ready));

const connectedMsp = (psaType: TPsaType) => buildConnectedMsp(t, sim, psaType);

/** One read of a fetch body reader, typed (the DOM reader's chunk is `any` under this project's lib settings). */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array> | undefined): Promise<{ text: string; done: boolean }> {
  if (!reader) return { text: '', done: true };
  const result = (await reader.read()) as { done: boolean; value?: Uint8Array };
  return { text: result.value ? new TextDecoder().decode(result.value) : '', done: result.done };
}

interface TEvent {
  event: string;
  data: unknown;
}

function parseEvents(text: string): TEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) as unknown };
    });
}

async function stream(admin: TestClient, msp: TTestMsp, kind: 'clients' | 'contacts', jobId?: string) {
  const response = await admin.get(`/psa/psa/progressive/${kind}/fetchStream?mspCustomDomain=${msp.customDomain}${jobId ? `&jobId=${jobId}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/event-stream');
  const events = parseEvents(response.body);
  const rows = events.filter((each) => each.event === 'data').flatMap((each) => each.data as unknown[]);
  const started = events[0]?.data as { importJobId: string };
  return { events, rows, importJobId: started.importJobId };
}

/**
 * Starts a contacts import over a real socket (the app listening on a free port), reads up to its first
 * progress event and drops the connection there; the job id and the rows the browser got before it dropped.
 */
async function dropContactsStreamMidImport(admin: TestClient, msp: TTestMsp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
  const address = t.app.server.address();
  const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const headers = { cookie: `${SESSION_COOKIE}=${admin.sessionCookie ?? ''}`, [CSRF_HEADER]: '1' };
  const dropped = new AbortController();
  const response = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`, { headers, signal: dropped.signal });
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  let text = '';
  while (!text.includes('event: progress')) text += (await readChunk(reader)).text;
  dropped.abort();
  const events = parseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2));
  const jobId = (events[0]?.data as { importJobId: string }).importJobId;
  const firstRows = events.filter((each) => each.event === 'data').flatMap((each) => each.data as TProgressiveContact[]);
  return { base, headers, jobId, firstRows };
}

describe.each(['connectwise', 'autotask'] as const)('%s progressive import', (psaType) => {
  it('A-059/A-060 stream started, progress and data chunks, then complete; A-056/A-057 save in batches without duplicates', async () => {
    const { msp, admin } = await connectedMsp(psaType);
    const clients = await stream(admin, msp, 'clients');
    expect(clients.events[0]?.event).toBe('started');
    expect(clients.events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'COMPLETE', fetched: COMPANIES, total: COMPANIES } });
    expect(clients.rows).toHaveLength(COMPANIES);
    const progress = clients.events.filter((each) => each.event === 'progress').map((each) => each.data as { importJobId: string; progress: { progressPercentage: number; currentPage: number } });
    expect(progress.at(-1)).toMatchObject({ importJobId: clients.importJobId, progress: { progressPercentage: 100 } });

    const saveClients = (rows: unknown[]) => admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, importJobId: clients.importJobId, selectedClients: rows });
    expect((await saveClients(clients.rows)).json()).toMatchObject({ saved: COMPANIES, created: COMPANIES, updated: 0, jobSaved: COMPANIES });
    expect((await saveClients(clients.rows.slice(0, 10))).json()).toMatchObject({ saved: 10, created: 0, updated: 10 });

    const contacts = await stream(admin, msp, 'contacts');
    expect(contacts.rows).toHaveLength(CONTACTS);
    const pages = contacts.events.filter((each) => each.event === 'progress').map((each) => (each.data as { progress: { currentPage: number } }).progress.currentPage);
    expect(pages).toEqual(pages.map((_, index) => index + 1));
    expect(pages.length).toBeGreaterThan(5);
    const typed = contacts.rows as TProgressiveContact[];
    // The browser saves what was selected a thousand at a time; the second half is sent twice (a resumed save).
    for (let start = 0; start < typed.length; start += 1_000) {
      const response = await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${contacts.importJobId}`, typed.slice(start, start + 1_000));
      expect(response.statusCode, response.body).toBe(200);
    }
    const resumed = await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${contacts.importJobId}`, typed.slice(1_000, 2_000));
    expect(resumed.json()).toMatchObject({ saved: 1_000, created: 0 });
    const [{ value }] = (await t.deps.database.db.select({ value: count() }).from(psaContacts).where(eq(psaContacts.mspId, msp.id))) as [{ value: number }];
    expect(value).toBe(typed.filter((row) => row.companyId !== null).length);
    const [linked] = await t.deps.database.db.select().from(psaContacts).where(and(eq(psaContacts.mspId, msp.id), eq(psaContacts.externalId, String(typed[0]?.id))));
    expect(linked?.companyRowId).not.toBeNull();
  });
});

describe('cancel and a closed stream', () => {
  it('a cancel ends the stream with complete CANCELLED; a browser that goes away ends the fetch', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    const headers = { cookie: `${SESSION_COOKIE}=${admin.sessionCookie ?? ''}`, [CSRF_HEADER]: '1' };
    sim.faults.set({ latencyMs: 150 });
    try {
      const response = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`, { headers });
      const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
      let text = '';
      while (!text.includes('event: data')) text += (await readChunk(reader)).text;
      const jobId = (parseEvents(text)[0]?.data as { importJobId: string }).importJobId;
      const cancelled = await fetch(`${base}/psa/psa/progressive/contacts/cancel?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`, { method: 'POST', headers });
      expect(cancelled.status).toBe(200);
      for (;;) {
        const chunk = await readChunk(reader);
        text += chunk.text;
        if (chunk.done) break;
      }
      const events = parseEvents(text);
      expect(events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'CANCELLED' } });
      expect(events.filter((each) => each.event === 'data').flatMap((each) => each.data as unknown[]).length).toBeLessThan(CONTACTS);

      const second = new AbortController();
      const again = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`, { headers, signal: second.signal });
      const secondReader = again.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
      const first = (await readChunk(secondReader)).text;
      const secondJob = (parseEvents(first)[0]?.data as { importJobId: string }).importJobId;
      second.abort();
      let status = '';
      for (let waited = 0; waited < 20_000 && status !== 'CANCELLED'; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await t.deps.database.db.select().from(importJobs).where(eq(importJobs.id, secondJob)))[0]?.status ?? '';
      }
      expect(status).toBe('CANCELLED');
    } finally {
      sim.faults.set({ latencyMs: 0 });
    }
  }, 60_000);
});

describe('a PSA failure mid-stream', () => {
  // The screen words refused keys for where the admin stands (wizard steps 4-5): the event carries the problem's code.
  it('ends with an error event carrying the code and detail, then complete FAILED', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    sim.faults.failNext({ kind: 401, path: '/v4_6_release/apis/3.0/company/contacts', count: 3 });
    try {
      const { events, rows } = await stream(admin, msp, 'contacts');
      expect(rows).toHaveLength(0);
      expect(events.find((each) => each.event === 'error')?.data).toMatchObject({ code: 'psa_bad_keys', detail: `${MESSAGES.psa.badKeys} (ConnectWise rejected the API keys.)` });
      expect(events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'FAILED' } });
    } finally {
      sim.faults.reset();
    }
  });
});

describe('saving while the stream runs', () => {
  it('saves made during the stream (as the panel does, a thousand at a time) do not end it: every row streams and is stored', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    // Step 4 first: a contact is saved only once its company is (A-057).
    const clients = await stream(admin, msp, 'clients');
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: clients.rows })).json()).toMatchObject({ saved: COMPANIES });
    await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const address = t.app.server.address();
    const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    const headers = { cookie: `${SESSION_COOKIE}=${admin.sessionCookie ?? ''}`, [CSRF_HEADER]: '1', 'content-type': 'application/json' };
    // Slow pages, so the saves land while the stream is still paging the PSA.
    sim.faults.set({ latencyMs: 40 });
    try {
      const response = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`, { headers });
      const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
      let buffered = '';
      let jobId = '';
      let pending: TProgressiveContact[] = [];
      const events: TEvent[] = [];
      let savesDuringStream = 0;
      for (;;) {
        const chunk = await readChunk(reader);
        buffered += chunk.text;
        const end = buffered.lastIndexOf('\n\n');
        if (end >= 0) {
          const complete = parseEvents(buffered.slice(0, end + 2));
          buffered = buffered.slice(end + 2);
          for (const each of complete) {
            events.push(each);
            if (each.event === 'started') jobId = (each.data as { importJobId: string }).importJobId;
            if (each.event === 'data') pending.push(...(each.data as TProgressiveContact[]));
          }
          // A save takes at most 1,000 rows (A-057); one read may bring several data events under load.
          while (pending.length >= 1_000 && !events.some((each) => each.event === 'complete')) {
            const saved = await fetch(`${base}/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`, { method: 'POST', headers, body: JSON.stringify(pending.slice(0, 1_000)) });
            expect(saved.status, await saved.clone().text()).toBe(200);
            savesDuringStream += 1;
            pending = pending.slice(1_000);
          }
        }
        if (chunk.done) break;
      }
      expect(savesDuringStream).toBeGreaterThan(1);
      expect(events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'COMPLETE', fetched: CONTACTS, total: CONTACTS } });
      const rows = events.filter((each) => each.event === 'data').flatMap((each) => each.data as TProgressiveContact[]);
      expect(rows).toHaveLength(CONTACTS);
      for (let start = 0; start < pending.length; start += 1_000) {
        const saved = await fetch(`${base}/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`, { method: 'POST', headers, body: JSON.stringify(pending.slice(start, start + 1_000)) });
        expect(saved.status, await saved.clone().text()).toBe(200);
      }
      const [job] = await t.deps.database.db.select().from(importJobs).where(eq(importJobs.id, jobId));
      const withCompany = rows.filter((row) => row.companyId !== null).length;
      expect(job).toMatchObject({ status: 'COMPLETE', fetched: CONTACTS, saved: withCompany });
      const [{ value }] = (await t.deps.database.db.select({ value: count() }).from(psaContacts).where(eq(psaContacts.mspId, msp.id))) as [{ value: number }];
      expect(value).toBe(withCompany);
    } finally {
      sim.faults.set({ latencyMs: 0 });
    }
  }, 60_000);
});

describe('resume (issue #11: the replica streaming an import dies)', () => {
  it.each(['connectwise', 'autotask'] as const)('%s: a resumed job carries on after the last row the browser holds, so the two streams hold every row once', async (psaType) => {
    const { msp, admin } = await connectedMsp(psaType);
    sim.faults.set({ latencyMs: 150 });
    let jobId = '';
    let firstRows: TProgressiveContact[] = [];
    try {
      // The connection goes away mid-import, as when the replica holding it is killed.
      ({ jobId, firstRows } = await dropContactsStreamMidImport(admin, msp));
      let job: typeof importJobs.$inferSelect | undefined;
      for (let waited = 0; waited < 20_000 && job?.status !== 'CANCELLED'; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [job] = await t.deps.database.db.select().from(importJobs).where(eq(importJobs.id, jobId));
      }
      expect(job?.status).toBe('CANCELLED');
      // The server wrote more chunks into the socket than the browser read: its own record is ahead of the browser.
      expect(job?.fetched).toBeGreaterThanOrEqual(firstRows.length);
      expect(firstRows.length).toBeLessThan(CONTACTS);
    } finally {
      sim.faults.set({ latencyMs: 0 });
    }
    const lastHeld = firstRows.at(-1)?.id ?? 0;
    const resumed = await stream(admin, msp, 'contacts', `${jobId}&afterId=${lastHeld}&received=${firstRows.length}`);
    expect(resumed.importJobId).toBe(jobId);
    const resumedRows = resumed.rows as TProgressiveContact[];
    // Not from the first row again: from the row after the last one the browser holds.
    expect(resumedRows[0]?.id).toBeGreaterThan(lastHeld);
    expect(resumedRows).toHaveLength(CONTACTS - firstRows.length);
    expect(resumed.events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'COMPLETE', fetched: CONTACTS, total: CONTACTS } });
    const progress = resumed.events.filter((each) => each.event === 'progress').map((each) => (each.data as { progress: { currentPage: number; progressPercentage: number } }).progress);
    expect(progress[0]?.currentPage).toBeGreaterThan(1);
    expect(progress.at(-1)?.progressPercentage).toBe(100);
    // What the browser holds (it keeps one of each id) is every contact exactly once.
    const held = [...new Map([...firstRows, ...resumedRows].map((row) => [row.id, row])).keys()];
    expect(held).toHaveLength(CONTACTS);
    expect(new Set(resumedRows.map((row) => row.id)).size).toBe(resumedRows.length);
    const [job] = await t.deps.database.db.select().from(importJobs).where(eq(importJobs.id, jobId));
    expect(job).toMatchObject({ status: 'COMPLETE', fetched: CONTACTS });

    // Without the browser's position the job's own record is used; half a resume position is refused plainly.
    const again = await stream(admin, msp, 'contacts', jobId);
    expect(again.rows).toHaveLength(0);
    expect(again.events.at(-1)).toMatchObject({ event: 'complete', data: { status: 'COMPLETE', fetched: CONTACTS } });
    expect((await admin.get(`/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}&jobId=${jobId}&afterId=5`)).json()).toMatchObject({ status: 400 });
    expect((await admin.get(`/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}&afterId=5&received=5`)).json()).toMatchObject({ status: 400 });
  }, 60_000);
});

describe('resume while the first stream still runs', () => {
  it('a stream whose browser went away does not mark the resumed job CANCELLED under the new stream (a dropped connection, replica alive)', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    sim.faults.set({ latencyMs: 300 });
    try {
      const { base, headers, jobId, firstRows } = await dropContactsStreamMidImport(admin, msp);
      // Resumed at once, while the first stream is still waiting on its next PSA page.
      const resumed = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}&jobId=${jobId}&afterId=${firstRows.at(-1)?.id ?? 0}&received=${firstRows.length}`, { headers });
      const resumedReader = resumed.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
      let resumedText = '';
      for (;;) {
        const chunk = await readChunk(resumedReader);
        resumedText += chunk.text;
        if (chunk.done) break;
      }
      const resumedEvents = parseEvents(resumedText);
      expect(resumedEvents.at(-1)).toMatchObject({ event: 'complete', data: { status: 'COMPLETE', fetched: CONTACTS } });
      const ids = [...firstRows, ...resumedEvents.filter((each) => each.event === 'data').flatMap((each) => each.data as TProgressiveContact[])].map((row) => row.id);
      expect(new Set(ids).size).toBe(CONTACTS);
      expect(ids).toHaveLength(CONTACTS);
      const [job] = await t.deps.database.db.select().from(importJobs).where(eq(importJobs.id, jobId));
      expect(job).toMatchObject({ status: 'COMPLETE', fetched: CONTACTS });
    } finally {
      sim.faults.set({ latencyMs: 0 });
    }
  }, 90_000);
});

describe('validation and the wizard finish calls', () => {
  it('refuses empty, oversized and unknown-job saves with plain messages; a stream without a PSA is 409 before any event', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: [] })).json()).toMatchObject({ status: 400, detail: MESSAGES.imports.nothingSelected });
    const many: TProgressiveClient[] = Array.from({ length: 1_001 }, (_, index) => ({ id: index + 1, name: `C${index}`, identifier: null, isActive: true }));
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: many })).statusCode).toBe(400);
    expect((await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=00000000-0000-4000-8000-000000000000`, [{ id: 1, companyId: 1, firstName: 'A', lastName: 'B', email: null, phone: null, isActive: true }])).json()).toMatchObject({
      status: 404,
      detail: MESSAGES.imports.jobNotFound,
    });
    expect((await admin.get(`/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${msp.customDomain}&jobId=00000000-0000-4000-8000-000000000000`)).json()).toMatchObject({ status: 404 });
    const contact = await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}`, [{ id: 9, companyId: null, firstName: 'No', lastName: 'Company', email: null, phone: null, isActive: true }]);
    expect(contact.json()).toMatchObject({ saved: 0, skipped: [{ id: 9, reason: MESSAGES.imports.companyNotImported }] });
    // Review finding 3 (regression): a contact whose company was never imported (step 4) was saved, unlinked, anyway.
    const imported = { id: 501, name: 'Imported Co', identifier: 'ICO', isActive: true };
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: [imported] })).json()).toMatchObject({ saved: 1 });
    const mixed = await admin.post(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}`, [
      { id: 10, companyId: imported.id, firstName: 'Has', lastName: 'Company', email: null, phone: null, isActive: true },
      { id: 11, companyId: 999_999, firstName: 'Never', lastName: 'Imported', email: null, phone: null, isActive: true },
    ]);
    expect(mixed.json()).toMatchObject({ saved: 1, created: 1, skipped: [{ id: 11, reason: MESSAGES.imports.companyNotImported }] });
    const stored = await t.deps.database.db.select({ externalId: psaContacts.externalId, companyRowId: psaContacts.companyRowId }).from(psaContacts).where(eq(psaContacts.mspId, msp.id));
    expect(stored.map((row) => [row.externalId, typeof row.companyRowId])).toEqual([['10', 'string']]);

    const bare = await buildMsp(t);
    const bareAdmin = await signedInClient(t, await buildUser(t, bare, { role: 'Admin' }));
    expect((await bareAdmin.get(`/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${bare.customDomain}`)).json()).toMatchObject({ status: 409, code: 'psa_not_configured' });
  });

  it('A-043 without a chosen client type is refused (the PSA has types); A-042 records the type and A-043 copies its companies', async () => {
    const { msp, admin } = await connectedMsp('autotask');
    expect((await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`)).json()).toMatchObject({ status: 409, detail: MESSAGES.imports.clientTypeRequired });

    expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=3&clientTypeName=Customer`)).json()).toEqual({ syncClientsTypeId: 3, syncClientsTypeName: 'Customer' });
    const [config] = await t.deps.database.db.select().from(psaTicketingConfigs).where(eq(psaTicketingConfigs.mspId, msp.id));
    expect(config?.syncClientsTypeId).toBe(3);
    const synced = (await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`)).json<{ companies: number; contacts: number }>();
    const [{ value }] = (await t.deps.database.db.select({ value: count() }).from(psaCompanies).where(eq(psaCompanies.mspId, msp.id))) as [{ value: number }];
    expect(value).toBe(synced.companies);
    expect(synced.companies).toBeLessThan(COMPANIES);
    expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=x&clientTypeName=Customer`)).statusCode).toBe(400);
    expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=99999999999&clientTypeName=Customer`)).json()).toMatchObject({ status: 400, code: 'validation' });
  });
});

describe('access: session, tenant, permission and CSRF', () => {
  it('401 without a session, 404 for another MSP, 403 without mspIntegrations, 403 csrf without the header', async () => {
    const { msp } = await connectedMsp('connectwise');
    const role = await insertCustomRole(t.deps.database.db, msp.id, 'Boards only', permissionMap(['boardView']));
    const boardsOnly = await signedInClient(t, await buildUser(t, msp, { roleId: role.id }));
    const clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    const anonymous = new TestClient(t.app);
    const d = msp.customDomain;
    const job = '00000000-0000-4000-8000-000000000000';
    const calls = [
      { method: 'GET', url: `/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${d}` },
      { method: 'GET', url: `/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${d}` },
      { method: 'POST', url: `/psa/psa/progressive/contacts/cancel?mspCustomDomain=${d}&jobId=${job}`, changes: true },
      { method: 'POST', url: '/psa/psa/progressive/clients/save-selected', payload: { mspCustomDomain: d, selectedClients: [{ id: 1, name: 'A', identifier: null, isActive: true }] }, changes: true },
      { method: 'POST', url: `/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${d}`, payload: [], changes: true },
      { method: 'GET', url: `/db/${d}/updateClientSync?clientTypeId=1&clientTypeName=A`, changes: true },
      { method: 'GET', url: `/psa/syncClientsContacts?mspCustomDomain=${d}`, changes: true },
    ] as const;
    for (const call of calls) {
      const request = { method: call.method, url: call.url, ...('payload' in call ? { payload: call.payload } : {}) };
      expect((await anonymous.request(request)).statusCode, call.url).toBe(401);
      expect((await otherAdmin.request(request)).statusCode, call.url).toBe(404);
      expect((await boardsOnly.request(request)).json(), call.url).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await clientUser.request(request)).statusCode, call.url).toBe(403);
      if ('changes' in call) expect((await admin.request({ ...request, csrf: false })).json(), call.url).toMatchObject({ status: 403, code: 'csrf' });
    }
  });
});

/** The company as the simulated PSA holds it, read straight from its ConnectWise API (not through the adapter under test). */
async function companyAtPsa(companyId: number): Promise<{ phoneNumber: string; city: string }> {
  const { companyId: site, publicKey, privateKey, clientId } = sim.connectWise;
  const response = await fetch(`${sim.url}/v4_6_release/apis/3.0/company/companies/${companyId}`, { headers: { Authorization: `Basic ${Buffer.from(`${site}+${publicKey}:${privateKey}`).toString('base64')}`, clientId } });
  return (await response.json()) as { phoneNumber: string; city: string };
}

/** The MSP's saved copy of a company as the Companies screen (A-008) lists it. */
async function listedCompany(admin: TestClient, msp: TTestMsp, name: string): Promise<TCompany | undefined> {
  const response = await admin.get(`/db/${msp.customDomain}/psaClients?search=${encodeURIComponent(name)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TCompanyPage>().items.find((item) => item.name === name);
}

// Review s29: these run last, as the blank-named company they add changes the simulator's company count.
describe('a second load and what a save keeps (review s29)', () => {
  it('R-365: a second load flags exactly the companies saved before (isAlreadySaved), and saved copies carry the PSA phone and city (A-008)', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    const first = (await stream(admin, msp, 'clients')).rows as TProgressiveClient[];
    expect(first.filter((row) => row.isAlreadySaved !== false)).toEqual([]);
    const chosen = first.slice(20, 30);
    expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: chosen })).json()).toMatchObject({ saved: 10, created: 10 });
    const again = (await stream(admin, msp, 'clients')).rows as TProgressiveClient[];
    expect(again).toHaveLength(COMPANIES);
    expect(again.filter((row) => row.isAlreadySaved === true).map((row) => row.id)).toEqual(chosen.map((row) => row.id));
    expect(again.filter((row) => row.isAlreadySaved === false)).toHaveLength(COMPANIES - 10);
    // Finding 6: the Companies table's Phone and City were always blank for imported companies.
    const sample = chosen[0];
    if (!sample) throw new Error('no company streamed');
    const atPsa = await companyAtPsa(sample.id);
    expect(atPsa.phoneNumber).not.toBe('');
    expect(await listedCompany(admin, msp, sample.name)).toMatchObject({ phone: atPsa.phoneNumber, city: atPsa.city });
  });

  it('a PSA company with a blank name streams as "Company {id}" and saves with the rest (its whole batch was refused with "Name is required.")', async () => {
    const { msp, admin } = await connectedMsp('autotask');
    const { companyId } = sim.addCompanyWithContacts({ name: '  ', contacts: 0 });
    const rows = (await stream(admin, msp, 'clients')).rows as TProgressiveClient[];
    expect(rows.find((row) => row.id === companyId)?.name).toBe(`Company ${companyId}`);
    const saved = await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: rows });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ saved: rows.length });
    // Autotask's phone and city reach the copy too (finding 6).
    const atPsa = await companyAtPsa(companyId);
    expect(await listedCompany(admin, msp, `Company ${companyId}`)).toMatchObject({ phone: atPsa.phoneNumber, city: atPsa.city });
  });
});
