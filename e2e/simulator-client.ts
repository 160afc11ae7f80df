import { createPsaClient, type PsaClient } from '@switchboard/psa';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { simulatorPort } from './scenario';

/** The PSA simulator as ConnectWise, read and written directly: what really is in the PSA. */
export function simulatorClient(): PsaClient {
  const port = simulatorPort(Number(process.env.E2E_PORT ?? 4317));
  return createPsaClient({ psaType: 'connectwise', siteUrl: `http://127.0.0.1:${port}`, ...DEMO_CREDENTIALS.connectWise }, { tenantKey: 'e2e-queue-journeys' });
}
