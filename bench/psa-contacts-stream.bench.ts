import { createPsaClient, type PsaClient, type TPsaType } from '@switchboard/psa';
import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';

// Streams 50,000 contacts through each PSA adapter and reports wall time, requests and peak RSS,
// showing the adapters page through the PSA without holding every contact in memory.
const CONTACT_COUNT = 50_000;

function clientFor(psaType: TPsaType, sim: TPsaSimulator): PsaClient {
  if (psaType === 'connectwise') {
    const { companyId, publicKey, privateKey, clientId, siteUrl } = sim.connectWise;
    return createPsaClient({ psaType, siteUrl, companyId, publicKey, privateKey, clientId }, { tenantKey: 'bench-connectwise' });
  }
  const { username, secret, integrationCode, zoneDiscoveryUrl } = sim.autotask;
  return createPsaClient({ psaType, username, secret, integrationCode, zoneDiscoveryUrl }, { tenantKey: 'bench-autotask' });
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function measure(psaType: TPsaType, sim: TPsaSimulator): Promise<void> {
  const client = clientFor(psaType, sim);
  const simRequestsBefore = sim.stats().requests;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const startedAt = performance.now();
  let streamed = 0;
  let withEmail = 0;
  for await (const contact of client.streamContacts()) {
    streamed += 1;
    if (contact.email) withEmail += 1;
  }
  const elapsedMs = performance.now() - startedAt;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(
    `${psaType.padEnd(11)} contacts=${streamed} withEmail=${withEmail} wall=${(elapsedMs / 1000).toFixed(2)} s ` +
      `requests(client)=${client.requestCount()} requests(sim)=${sim.stats().requests - simRequestsBefore} peakRSS=${megabytes(peakRss)}`,
  );
  if (streamed !== CONTACT_COUNT) throw new Error(`expected ${CONTACT_COUNT} contacts, streamed ${streamed}`);
}

// The simulator runs in this process too, so its store of 50,000 contacts is part of the baseline RSS.
const sim = await startPsaSimulator({ port: 0, seed: 'empty', scale: { companies: 500, contacts: CONTACT_COUNT }, rateLimit: false });
try {
  console.log(`baseline RSS with the simulator's store loaded: ${megabytes(process.memoryUsage().rss)}`);
  await measure('connectwise', sim);
  await measure('autotask', sim);
} finally {
  await sim.close();
}
