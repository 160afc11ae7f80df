import { parseArgs } from 'node:util';
import { startPsaSimulator } from './index';

// Runs the simulator in the foreground for manual testing and e2e runs: `npm run psa-sim -- --port 4010`.

function parseCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`${flag} must be a non-negative integer`);
  return count;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: 'demo' },
    'scale-companies': { type: 'string' },
    'scale-contacts': { type: 'string' },
    'scale-tickets': { type: 'string' },
    'rate-limit-per-minute': { type: 'string' },
  },
});

const port = parseCount(values.port, '--port') ?? 4010;
const seed = values.seed === 'empty' ? 'empty' : 'demo';
const scale = {
  companies: parseCount(values['scale-companies'], '--scale-companies'),
  contacts: parseCount(values['scale-contacts'], '--scale-contacts'),
  tickets: parseCount(values['scale-tickets'], '--scale-tickets'),
};
const perMinute = parseCount(values['rate-limit-per-minute'], '--rate-limit-per-minute');
const hasScale = Object.values(scale).some((count) => count !== undefined && count > 0);

const simulator = await startPsaSimulator({ port, host: values.host, seed, scale: hasScale ? scale : undefined, rateLimit: perMinute ? { perMinute } : false });
const lines = [
  `PSA simulator listening on ${simulator.url}`,
  '',
  'ConnectWise Manage',
  `  site URL:     ${simulator.connectWise.siteUrl} (discovery: ${simulator.connectWise.siteUrl}/login/companyinfo/${simulator.connectWise.companyId})`,
  `  company id:   ${simulator.connectWise.companyId}`,
  `  public key:   ${simulator.connectWise.publicKey}`,
  `  private key:  ${simulator.connectWise.privateKey}`,
  `  client id:    ${simulator.connectWise.clientId}`,
  '',
  'Autotask',
  `  zone discovery: ${simulator.autotask.zoneDiscoveryUrl}?user=${simulator.autotask.username}`,
  `  username:         ${simulator.autotask.username}`,
  `  secret:           ${simulator.autotask.secret}`,
  `  integration code: ${simulator.autotask.integrationCode}`,
  '',
  `Admin: POST ${simulator.url}/__sim/faults, POST ${simulator.url}/__sim/reset, GET ${simulator.url}/__sim/stats`,
];
process.stdout.write(`${lines.join('\n')}\n`);

const shutdown = (): void => {
  simulator.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
