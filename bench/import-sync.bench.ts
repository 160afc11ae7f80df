import { count, eq } from 'drizzle-orm';
import { createPsaClient } from '@switchboard/psa';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { psaContacts } from '@switchboard/db';
import { createTestApp } from '../apps/server/test/test-app';
import { buildMsp, buildUser, signedInClient } from '../apps/server/test/factories';
import { startSimulatorProcess } from './simulator-process';

// Issue #7 figures: contacts import (SSE stream + batched saves) and batch ticket sync through the real server on
// PGlite, against the simulator in a child process (so this process's RSS is the server's): 2,000 companies,
// 50,000 contacts, 100,000 tickets. Also the simulator's raw paging speed for the same tickets, for the ratio.
const COMPANIES = 2_000;
const CONTACTS = 50_000;
const TICKETS = 100_000;


const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function simRequests(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__sim/stats`)).json()) as { requests: number }).requests;
}

const { child, url: simUrl } = await startSimulatorProcess(['--seed', 'empty', '--scale-companies', String(COMPANIES), '--scale-contacts', String(CONTACTS), '--scale-tickets', String(TICKETS)]);
const t = await createTestApp({ config: { outboundAllowList: [new URL(simUrl).host] }, jobs: { queue: { pollingIntervalSeconds: 0.5 } } });
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 25);
try {
  const msp = await buildMsp(t);
  const admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
  const cw = DEMO_CREDENTIALS.connectWise;
  await admin.post(`/db/${msp.customDomain}/integrations/update`, { connectWiseManageIntegration: { companyId: cw.companyId, publicKey: cw.publicKey, privateKey: cw.privateKey, psaUrl: simUrl, clientId: cw.clientId } });
  await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`); // companies (and contacts) present, as after step 4

  // Contacts: the stream over a real socket, saved a thousand at a time as the panel does.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const headers = { cookie: `sb_session=${admin.sessionCookie ?? ''}`, 'x-switchboard-csrf': '1', 'content-type': 'application/json' };
  peak = process.memoryUsage().rss;
  const importStarted = performance.now();
  const response = await fetch(`${base}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${msp.customDomain}`, { headers });
  const decoder = new TextDecoder();
  let buffered = '';
  let jobId = '';
  let pending: unknown[] = [];
  let streamed = 0;
  const save = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    const saved = await fetch(`${base}/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${msp.customDomain}&jobId=${jobId}`, { method: 'POST', headers, body: JSON.stringify(rows) });
    if (!saved.ok) throw new Error(`save failed: ${saved.status} ${await saved.text()}`);
  };
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
      if (event === 'started') jobId = (data as { importJobId: string }).importJobId;
      if (event === 'data') {
        const rows = data as unknown[];
        streamed += rows.length;
        pending.push(...rows);
        if (pending.length >= 1_000) await save();
      }
    }
  }
  await save();
  const importMs = performance.now() - importStarted;
  const importPeak = peak;
  const [{ value: savedContacts }] = (await t.deps.database.db.select({ value: count() }).from(psaContacts).where(eq(psaContacts.mspId, msp.id))) as [{ value: number }];
  console.log(`contacts import: ${streamed.toLocaleString()} streamed, ${savedContacts.toLocaleString()} stored in ${seconds(importMs)} (target <= 60 s); server peak RSS ${mb(importPeak)} (target < 300 MB)`);

  // Tickets: every board, the 90 days with the most tickets (the scale data spans two years).
  const direct = createPsaClient({ psaType: 'connectwise', siteUrl: simUrl, ...cw }, { tenantKey: 'bench-raw', timeoutMs: 60_000 });
  const boards = (await direct.listBoards()).map((board) => board.id);
  const endDate = '2025-12-31';
  const startDate = '2025-10-02';
  const filter = { boardIds: boards, createdFrom: new Date(`${startDate}T00:00:00Z`), createdBefore: new Date('2026-01-01T00:00:00Z') };
  const rawStarted = performance.now();
  let rawCount = 0;
  for await (const _ticket of direct.streamTickets(filter)) rawCount += 1;
  const rawMs = performance.now() - rawStarted;

  peak = process.memoryUsage().rss;
  const requestsBefore = await simRequests(simUrl);
  const syncStarted = performance.now();
  const started = await admin.post('/psa/api/batch/sync-boards', { mspCustomDomain: msp.customDomain, boardIds: boards, startDate, endDate });
  const runId = started.json<{ parentRunId: string }>().parentRunId;
  let status: { phase1: { status: string }; phase2?: { status: string; processed: number } } = { phase1: { status: 'QUEUED' } };
  while (!(status.phase2?.status === 'COMPLETED' || status.phase2?.status === 'FAILED' || status.phase1.status === 'FAILED')) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await admin.get(`/psa/api/batch/status?parentRunId=${runId}`)).json();
  }
  const syncMs = performance.now() - syncStarted;
  const requests = (await simRequests(simUrl)) - requestsBefore;
  console.log(
    `ticket sync: ${status.phase2?.processed.toLocaleString() ?? 0} of ${rawCount.toLocaleString()} tickets in range (of ${TICKETS.toLocaleString()}) in ${seconds(syncMs)}, ${requests} PSA requests (status polls not included), peak RSS ${mb(peak)}`,
  );
  console.log(`raw paging of the same tickets: ${seconds(rawMs)}; sync speed / raw paging speed = ${((rawMs / syncMs) * 100).toFixed(0)}% (target >= 90%)`);
} finally {
  clearInterval(sampler);
  await t.close();
  child.kill();
}
