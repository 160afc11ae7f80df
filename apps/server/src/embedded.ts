import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import { ConfigError, loadConfig, processEnvironment, type TConfig } from './config/env';
import { buildApp } from './app';
import type { TAppDeps, TApp } from './app-deps';
import { createRuntimeDeps } from './runtime';
import { DEMO_MSP, DEMO_PASSWORD, DEMO_SIGN_INS, seedDemoMsp, type TDemoSignIn } from './demo/seed-demo';
import { copyDemoTickets } from './demo/demo-tickets';
import { seedDemoJarvis } from './demo/seed-demo-jarvis';
import { ensureDemoOpenTickets } from './demo/demo-open-tickets';
import { seedDemoTeam } from './demo/demo-team';
import { seedDemoWorkHistory } from './demo/demo-work-history';
import { highestPsaIdsHeld } from './demo/demo-psa-ids';
import { FABRIKAM_MSP, FABRIKAM_SIGN_INS, seedFabrikamMsp } from './demo/seed-demo-fabrikam';
import { createPsaEventsService } from './modules/psa-events/psa-events.service';
import { eventDeliveryNotice } from './modules/psa-events/psa-events.delivery';

const here = dirname(fileURLToPath(import.meta.url));

export interface TEmbeddedOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra data for a scenario (the e2e suite adds a second MSP). */
  afterSeed?: (deps: TAppDeps, simulator: TPsaSimulator) => Promise<void>;
  printBanner?: boolean;
}

export interface TEmbedded {
  app: TApp;
  deps: TAppDeps;
  simulator: TPsaSimulator;
  url: string;
  close(): Promise<void>;
}

/** Where the simulated PSA keeps its data between starts, beside the app's own (the file name is in the README). */
export const SIMULATOR_STATE_FILE = 'psa-simulator.json';

async function startSimulatorNear(port: number, stateFile: string): Promise<TPsaSimulator> {
  try {
    return await startPsaSimulator({ port, seed: 'demo', stateFile });
  } catch (error) {
    // A second copy of the app (or anything else) holds the usual port: take any free one.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return startPsaSimulator({ port: 0, seed: 'demo', stateFile });
    throw error;
  }
}

/**
 * The embedded default: PGlite in the data folder, the PSA simulator on a local port (allow-listed
 * for the SSRF guard) with its data kept in the same folder, the demo MSP seeded and pointing at it,
 * the SPA and API on one port. A second start on the folder goes on where the first stopped, in the
 * app and in the simulated PSA alike, as a real PSA keeps its tickets while the app restarts.
 */
export async function startEmbedded(options: TEmbeddedOptions = {}): Promise<TEmbedded> {
  const env = options.env ?? processEnvironment();
  const preliminary = loadConfig(env);
  const simulator = await startSimulatorNear(preliminary.psaSimPort, join(preliminary.dataDir, SIMULATOR_STATE_FILE));
  const simHost = new URL(simulator.url).host;
  const config: TConfig = {
    ...preliminary,
    outboundAllowList: [...preliminary.outboundAllowList, simHost],
    // The simulator stands in for ConnectWise's developer portal too.
    connectWiseClientId: preliminary.connectWiseClientId ?? simulator.connectWise.clientId,
    // The demo rereads changed tickets every 30 s (production: 5 min), unless PSA_RECONCILE_INTERVAL_MS says otherwise.
    psaReconcileIntervalMs: env.PSA_RECONCILE_INTERVAL_MS === undefined ? 30_000 : preliminary.psaReconcileIntervalMs,
    // The simulator calls the app on its own port; with PORT=0 that port is unknown until listening, and the reconcile alone keeps the copies in step.
    psaEventsUrl: preliminary.psaEventsUrl ?? (preliminary.port === 0 ? undefined : `http://127.0.0.1:${preliminary.port}`),
  };
  const deps = await createRuntimeDeps(config);
  // A simulator that starts from the seed while this database holds tickets of an earlier run (its file was unreadable,
  // or the folder predates the file) must not number new tickets as those: a client would see another's ticket as theirs.
  simulator.numberAbove(await highestPsaIdsHeld(deps.database.db));
  const seeded = await seedDemoMsp(deps, { simulatorUrl: simulator.url });
  // Jarvis's demo board and history come from the simulator; a failure here leaves the demo usable without them.
  await seedDemoJarvis(deps, seeded.mspId).catch((error: unknown) => console.warn('Demo board and ticket history for Jarvis were not seeded:', error));
  // Northwind is onboarded: its technicians are a team on the Help Desk board (issue #7 "The demo").
  await seedDemoTeam(deps, seeded.mspId).catch((error: unknown) => console.warn('The demo team was not created:', error));
  // A simulator fresh from the seed has only closed history: raise a few open tickets so the queue has work to hand out.
  await ensureDemoOpenTickets(deps, seeded.mspId).catch((error: unknown) => console.warn('Demo open tickets were not created:', error));
  // Northwind's open tickets in psa_tickets (issue #7 "The demo"); the psa-events reconcile loop and webhooks keep them in step.
  await copyDemoTickets(deps, seeded.mspId);
  // The Dashboards count queue work, which the copied history is not: the demo technicians' last working days through the queue.
  await seedDemoWorkHistory(deps, seeded.mspId).catch((error: unknown) => console.warn('Past work of the demo technicians was not seeded:', error));
  // The second demo MSP: Autotask, connected, not onboarded (issue #7 "The demo").
  const fabrikamId = await seedFabrikamMsp(deps, { simulatorUrl: simulator.url });
  if (options.afterSeed) await options.afterSeed(deps, simulator);
  const app = await buildApp(deps, {
    webDist: join(here, '..', '..', 'web', 'dist'),
    logger: env.LOG_LEVEL !== undefined,
    // A person opening the bare address lands on the demo MSP's sign-in page.
    homePath: `/${DEMO_MSP.customDomain}`,
  });
  await app.listen({ port: config.port, host: config.host });
  // With PORT=0 the system picks the port, so the URL reports the bound one.
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  // The app's address may differ from the last start's: both demo MSPs register their webhooks again, and each
  // registration removes the MSP's previous one at the simulator (decision 016).
  const events = createPsaEventsService(deps);
  for (const mspId of [seeded.mspId, fabrikamId]) await events.subscribe(mspId).catch((error: unknown) => console.warn('Demo ticket webhook not registered:', error));
  if (options.printBanner !== false) process.stdout.write(startBanner(url, simulator, config));
  return {
    app,
    deps,
    simulator,
    url,
    close: async () => {
      await app.close();
      await simulator.close();
      await deps.database.close();
    },
  };
}

/**
 * The sign-in page of the person's own list: the MSP page opens on "Client" unless told otherwise, where a
 * technician's e-mail answers "Account does not exists". `as` is the web app's LOGIN_AS_PARAM ('tech' | 'client').
 */
export function signInLink(url: string, signIn: TDemoSignIn): string {
  return `${url}/${signIn.mspCustomDomain}?as=${signIn.kind === 'client' ? 'client' : 'tech'}`;
}

/** What `npm start` prints: where the app runs, and who can sign in where. */
export function startBanner(url: string, simulator: TPsaSimulator, config: TConfig): string {
  const signInLine = (signIn: TDemoSignIn) => `    ${signIn.role.padEnd(40)} ${signIn.email.padEnd(44)} ${signInLink(url, signIn)}`;
  const lines = [
    '',
    `  Switchboard is running at ${url}`,
    '',
    `  Demo MSP: ${url}/northwind  (data in ${config.dataDir})`,
    `  Demo sign-ins (password for all: ${DEMO_PASSWORD}), each with its sign-in page:`,
    ...DEMO_SIGN_INS.map(signInLine),
    '',
    `  Second demo MSP on Autotask, connected but not onboarded (walk the setup wizard): ${url}/${FABRIKAM_MSP.customDomain}`,
    ...FABRIKAM_SIGN_INS.map(signInLine),
    '',
    `  2FA and password-reset codes are not mailed in this mode: read them at ${url}/dev/outbox`,
    // PORT=0 leaves the simulator no address to call the app on (decision 022): say what keeps the copies in step instead.
    ...[eventDeliveryNotice(config)].filter((notice): notice is string => notice !== null).map((notice) => `  ${notice}`),
    `  PSA simulator (ConnectWise + Autotask): ${simulator.url}  (data in ${join(config.dataDir, SIMULATOR_STATE_FILE)})`,
    `    ConnectWise  company ${simulator.connectWise.companyId}, public key ${simulator.connectWise.publicKey}, private key ${simulator.connectWise.privateKey}, clientId ${simulator.connectWise.clientId}`,
    `    Autotask     user ${simulator.autotask.username}, secret ${simulator.autotask.secret}, integration code ${simulator.autotask.integrationCode}`,
    '',
  ];
  return lines.join('\n') + '\n';
}

const isEntryPoint = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isEntryPoint) {
  try {
    const embedded = await startEmbedded();
    const shutdown = () => void embedded.close().then(() => process.exit(0));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
