import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { msps, users } from '@switchboard/db';
import { permissionMap } from '@switchboard/contracts';
import { startEmbedded } from '../apps/server/src/embedded';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { insertCustomRole } from '../apps/server/src/modules/roles/roles.repository';
import { hashPassword } from '../apps/server/src/lib/crypto';
import { DEMO_SIGN_INS } from '../apps/server/src/demo/seed-demo';
import { seedQueueJourneys } from './queue-seed';
import { defaultReply, startLlmServer } from '@switchboard/assistant/testing';
import { startImapServer } from '../apps/server/test/imap-server';
import { CLIENT_DESK, E2E_PASSWORD, IMPORT_JOURNEY, MAILBOX_JOURNEY, SECOND_MSP, imapPort, llmPort, simulatorPort } from './scenario';

/**
 * The server the journeys drive: a fresh data folder every run, the demo seed, a second MSP
 * in which the demo's first client user also has an account, and Northwind's client-desk technician (CLIENT_DESK).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'sb-e2e-'));
const port = process.env.E2E_PORT ?? '4317';
// A fake AI model the AI-settings journey can save and test (plain http on loopback: allow-listed below).
const llm = await startLlmServer({ port: llmPort(Number(port)), reply: defaultReply });
// The help-desk mailbox the email connector journey connects (plain IMAP on loopback: allow-listed below).
const imap = await startImapServer({ [MAILBOX_JOURNEY.address]: MAILBOX_JOURNEY.appPassword }, { port: imapPort(Number(port)) });

await startEmbedded({
  env: {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: port,
    HOST: '127.0.0.1',
    // A known port (the app's + 1), so the queue journeys can read the simulator's tickets, notes and time entries.
    PSA_SIM_PORT: String(simulatorPort(Number(port))),
    DATABASE_URL: undefined,
    // Every journey signs in from 127.0.0.1 (about 60 journeys, several sign-ins each); the per-IP limit itself is covered by the API tests.
    AUTH_RATE_LIMIT_PER_IP: '2000',
    // The SLA journey's alerts are recorded within a second of the claim, not the production minute.
    SLA_SWEEP_INTERVAL_MS: '1000',
    // The email connector journey's mail becomes a ticket within seconds, not the production minute.
    EMAIL_CONNECTOR_INTERVAL_MS: '1000',
    OUTBOUND_ALLOW_LIST: [process.env.OUTBOUND_ALLOW_LIST, new URL(llm.url).host, imap.hostPort].filter(Boolean).join(','),
  },
  printBanner: false,
  afterSeed: async (deps, simulator) => {
    const db = deps.database.db;
    const client = DEMO_SIGN_INS.find((s) => s.kind === 'client');
    if (!client) throw new Error('the demo seed has no client user');
    const [northwindClient] = await db.select().from(users).where(and(eq(users.kind, 'client'), eq(users.email, client.email))).limit(1);
    if (!northwindClient) throw new Error('demo client missing');
    const [second] = await db
      .insert(msps)
      .values({ customDomain: SECOND_MSP.customDomain, name: SECOND_MSP.name, phone: '2065550100', websiteUrl: 'https://contoso-it.example' })
      .returning();
    if (!second) throw new Error('second MSP not created');
    const roles = await ensureBuiltInRoles(db, second.id);
    await db.insert(users).values({
      mspId: second.id,
      kind: 'client',
      roleId: roles.Client,
      firstName: northwindClient.firstName,
      lastName: northwindClient.lastName,
      email: northwindClient.email,
      phone: northwindClient.phone,
      passwordHash: await hashPassword(E2E_PASSWORD),
    });
    const clientDesk = await insertCustomRole(db, northwindClient.mspId, CLIENT_DESK.roleName, permissionMap(['adminPortal', 'clientUserManagement']));
    await db.insert(users).values({
      mspId: northwindClient.mspId,
      kind: 'technician',
      roleId: clientDesk.id,
      firstName: CLIENT_DESK.firstName,
      lastName: CLIENT_DESK.lastName,
      email: CLIENT_DESK.email,
      phone: '3035550177',
      passwordHash: await hashPassword(E2E_PASSWORD),
    });
    await seedQueueJourneys(deps, simulator);
    simulator.addCompanyWithContacts({ name: IMPORT_JOURNEY.companyName, contacts: IMPORT_JOURNEY.contacts });
  },
});
process.stdout.write(`e2e server on http://127.0.0.1:${port} (data ${dataDir})\n`);
