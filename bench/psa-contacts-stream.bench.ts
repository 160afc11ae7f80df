import { once } from 'node:events';
import { createPsaClient, type PsaClient, type TPsaType } from '@switchboard/psa';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { startSimulatorProcess } from './simulator-process';

// Streams 50,000 contacts through each PSA adapter and reports wall time, requests and peak RSS.
// The simulator runs in a child process, so this process's RSS is the adapter's alone: it stays
// flat because pages are yielded and dropped, never collected.
const CONTACT_COUNT = 50_000;


function clientFor(psaType: TPsaType, url: string): PsaClient {
  if (psaType === 'connectwise') {
    return createPsaClient({ psaType, siteUrl: url, ...DEMO_CREDENTIALS.connectWise }, { tenantKey: 'bench-connectwise', timeoutMs: 60_000 });
  }
  const zoneDiscoveryUrl = `${url}/atservicesrest/v1.0/zoneInformation`;
  return createPsaClient({ psaType, zoneDiscoveryUrl, ...DEMO_CREDENTIALS.autotask }, { tenantKey: 'bench-autotask', timeoutMs: 60_000 });
}

async function simulatorRequests(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/__sim/stats`)).json()) as { requests: number };
  return stats.requests;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function measure(psaType: TPsaType, url: string): Promise<void> {
  const client = clientFor(psaType, url);
  const simRequestsBefore = await simulatorRequests(url);
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const startedAt = performance.now();
  let streamed = 0;
  const ids = new Set<number>();
  for await (const contact of client.streamContacts()) {
    streamed += 1;
    ids.add(contact.id);
  }
  const elapsedMs = performance.now() - startedAt;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const simRequests = (await simulatorRequests(url)) - simRequestsBefore;
  console.log(
    `${psaType.padEnd(11)} contacts=${streamed} distinct=${ids.size} wall=${(elapsedMs / 1000).toFixed(2)} s ` +
      `requests(client)=${client.requestCount()} requests(sim)=${simRequests} RSS before=${megabytes(rssBefore)} peak=${megabytes(peakRss)}`,
  );
  if (streamed !== CONTACT_COUNT || ids.size !== CONTACT_COUNT) throw new Error(`expected ${CONTACT_COUNT} distinct contacts, streamed ${streamed}`);
}

const { child, url } = await startSimulatorProcess(['--seed', 'empty', '--scale-companies', '500', '--scale-contacts', String(CONTACT_COUNT)]);
try {
  await measure('connectwise', url);
  await measure('autotask', url);
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
}
