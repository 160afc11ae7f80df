import { and, eq, sql } from 'drizzle-orm';
import { permissionMap } from '@switchboard/contracts';
import { integrations, msps, roles, users, type TDatabase } from '@switchboard/db';
import { DEMO_CREDENTIALS, demoDirectory, type TDemoDirectory } from '@switchboard/psa-sim';
import type { TAppDeps } from '../app-deps';
import { encryptSecret, hashPassword } from '../lib/crypto';
import { ensureBuiltInRoles } from '../modules/roles/built-in-roles';
import type { TIntegrationSecrets } from '../modules/integrations/integrations.schemas';
import { upsertPsaDirectory } from '../modules/psa-directory/psa-directory.repository';
import { loadDemoKbArticles, seedKbArticles } from '../modules/knowledge/kb-articles';

export const DEMO_MSP = {
  customDomain: 'northwind',
  name: 'Northwind IT Partners',
  phone: '7205550100',
  websiteUrl: 'https://www.northwind-it.example',
} as const;

/** The one documented password of every demo user. */
export const DEMO_PASSWORD = 'Switchboard!1';

/** The simulator's fixed ConnectWise credentials, taken from the simulator so the two never drift. */
export const DEMO_CONNECTWISE = DEMO_CREDENTIALS.connectWise;

export interface TDemoSignIn {
  role: string;
  email: string;
  kind: 'technician' | 'client';
  mspCustomDomain: string;
}

/**
 * Demo users, picked from the shared demo data: the most senior technician (Lead Security
 * Engineer, Tier3) is the admin; one Tier1 and one Tier2 technician; two contacts of Brightwater
 * Family Dental as client users.
 */
const DEMO_TECHNICIANS = [
  { label: 'Admin (technician)', email: 'samuel.whitaker@northwind-it.example', role: 'Admin', tierLevel: 'Tier3' },
  { label: 'Tier 1 technician', email: 'jordan.avila@northwind-it.example', role: 'Technician', tierLevel: 'Tier1' },
  { label: 'Tier 2 technician', email: 'tomasz.nowak@northwind-it.example', role: 'Technician', tierLevel: 'Tier2' },
] as const;
const DEMO_CLIENTS = [
  { label: 'Client user (Brightwater Family Dental)', email: 'tanya.beaulieu@brightwaterdental.example' },
  { label: 'Client user (Brightwater Family Dental)', email: 'helen.marchetti@brightwaterdental.example' },
] as const;

/** What the start script prints: who can sign in to the demo, all with DEMO_PASSWORD. */
export const DEMO_SIGN_INS: TDemoSignIn[] = [
  ...DEMO_TECHNICIANS.map((technician) => ({ role: technician.label, email: technician.email, kind: 'technician' as const, mspCustomDomain: DEMO_MSP.customDomain })),
  ...DEMO_CLIENTS.map((client) => ({ role: client.label, email: client.email, kind: 'client' as const, mspCustomDomain: DEMO_MSP.customDomain })),
];

export const DEMO_CUSTOM_ROLE = { name: 'Dispatcher', permissions: permissionMap(['boardView', 'technicianUserManagement']) } as const;

export interface TSeedDemoOptions {
  /** Base URL of the PSA simulator; when given, the MSP's ConnectWise integration points at it. */
  simulatorUrl?: string;
  /** The PSA directory to copy; defaults to the simulator's own demo directory so ids agree. */
  directory?: TDemoDirectory;
}

export interface TSeedDemoResult {
  mspId: string;
  created: { msp: boolean; companies: number; contacts: number; members: number; users: number; customRole: boolean; integration: boolean; knowledgeArticles: number };
}

const PSA_TYPE = 'CONNECTWISE' as const;

async function ensureMsp(db: TDatabase): Promise<{ id: string; created: boolean }> {
  const inserted = await db.insert(msps).values(DEMO_MSP).onConflictDoNothing({ target: msps.customDomain }).returning({ id: msps.id });
  const first = inserted[0];
  if (first) return { id: first.id, created: true };
  const [existing] = await db.select({ id: msps.id }).from(msps).where(eq(msps.customDomain, DEMO_MSP.customDomain)).limit(1);
  if (!existing) throw new Error('Demo MSP neither inserted nor found');
  return { id: existing.id, created: false };
}

async function ensureCustomRole(db: TDatabase, mspId: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.mspId, mspId), eq(sql`lower(${roles.name})`, DEMO_CUSTOM_ROLE.name.toLowerCase())))
    .limit(1);
  if (existing) return false;
  await db.insert(roles).values({ mspId, name: DEMO_CUSTOM_ROLE.name, custom: true, permissions: DEMO_CUSTOM_ROLE.permissions });
  return true;
}

/** Copies the PSA directory into psa_* with the simulator's external ids; the copies follow the directory. */
async function copyDirectory(db: TDatabase, mspId: string, directory: TDemoDirectory, now: Date) {
  const copied = await upsertPsaDirectory(
    db,
    mspId,
    PSA_TYPE,
    {
      companies: directory.companies.map((company) => ({
        externalId: String(company.id),
        name: company.name,
        identifier: company.identifier,
        companyTypes: [company.companyType],
        phone: company.phone,
        website: company.website,
        city: company.city,
        state: company.state,
      })),
      contacts: directory.contacts.map((contact) => ({
        externalId: String(contact.id),
        externalCompanyId: String(contact.companyId),
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone,
        title: contact.title,
        isActive: true,
      })),
      members: directory.members.map((member) => ({
        externalId: String(member.id),
        identifier: member.identifier,
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        phone: member.phone,
        title: member.title,
        isActive: true,
      })),
    },
    now,
  );
  const newCount = (rows: Array<{ isNew: boolean }>) => rows.filter((row) => row.isNew).length;
  return {
    companies: newCount(copied.companies),
    contacts: newCount(copied.contacts),
    members: newCount(copied.members),
    companyRowIds: new Map([...copied.companiesByExternalId].map(([externalId, company]) => [externalId, company.id])),
    contactRowIds: new Map(copied.contacts.map((row) => [row.externalId, row.id])),
    memberRowIds: new Map(copied.members.map((row) => [row.externalId, row.id])),
  };
}

/**
 * Seeds the demo MSP "northwind" (DESIGN §1 embedded default). Idempotent: a second run with the
 * same options inserts nothing and hashes no password (the PSA copies are refreshed from the
 * directory); a changed simulator URL is followed.
 */
export async function seedDemoMsp(deps: Pick<TAppDeps, 'database' | 'config' | 'audit' | 'now'>, options: TSeedDemoOptions = {}): Promise<TSeedDemoResult> {
  const db = deps.database.db;
  const directory = options.directory ?? demoDirectory();
  const technicianPeople = DEMO_TECHNICIANS.map((technician) => {
    const member = directory.members.find((candidate) => candidate.email.toLowerCase() === technician.email);
    if (!member) throw new Error(`Demo technician ${technician.email} is not in the PSA directory`);
    return { ...technician, member };
  });
  const clientPeople = DEMO_CLIENTS.map((client) => {
    const contact = directory.contacts.find((candidate) => candidate.email.toLowerCase() === client.email);
    if (!contact) throw new Error(`Demo client ${client.email} is not in the PSA directory`);
    return { ...client, contact };
  });

  // Passwords are hashed outside the transaction, and only for users that do not exist yet.
  const [existingMsp] = await db.select({ id: msps.id }).from(msps).where(eq(msps.customDomain, DEMO_MSP.customDomain)).limit(1);
  const existingEmails = new Set(
    existingMsp ? (await db.select({ email: users.email }).from(users).where(eq(users.mspId, existingMsp.id))).map((row) => row.email.toLowerCase()) : [],
  );
  const missingCount = [...DEMO_TECHNICIANS, ...DEMO_CLIENTS].filter((person) => !existingEmails.has(person.email)).length;
  const passwordHash = missingCount > 0 ? await hashPassword(DEMO_PASSWORD) : null;

  const result = await db.transaction(async (tx) => {
    const msp = await ensureMsp(tx);
    const roleIds = await ensureBuiltInRoles(tx, msp.id);
    const customRole = await ensureCustomRole(tx, msp.id);
    const copied = await copyDirectory(tx, msp.id, directory, deps.now());
    const { memberRowIds, contactRowIds } = copied;

    let createdUsers = 0;
    if (passwordHash) {
      const newUsers: Array<typeof users.$inferInsert> = [
        ...technicianPeople.map((person) => ({
          mspId: msp.id,
          kind: 'technician' as const,
          roleId: roleIds[person.role],
          firstName: person.member.firstName,
          lastName: person.member.lastName,
          email: person.email,
          phone: person.member.phone,
          passwordHash,
          tierLevel: person.tierLevel,
          psaMemberId: String(person.member.id),
          psaMemberRowId: memberRowIds.get(String(person.member.id)) ?? null,
        })),
        ...clientPeople.map((person) => ({
          mspId: msp.id,
          kind: 'client' as const,
          roleId: roleIds.Client,
          firstName: person.contact.firstName,
          lastName: person.contact.lastName,
          email: person.email,
          phone: person.contact.phone,
          passwordHash,
          tierLevel: null,
          psaContactId: String(person.contact.id),
          psaContactRowId: contactRowIds.get(String(person.contact.id)) ?? null,
          psaCompanyId: String(person.contact.companyId),
          companyRowId: copied.companyRowIds.get(String(person.contact.companyId)) ?? null,
        })),
      ].filter((user) => !existingEmails.has(user.email.toLowerCase()));
      createdUsers = (await tx.insert(users).values(newUsers).onConflictDoNothing().returning({ id: users.id })).length;
    }

    let integration = false;
    if (options.simulatorUrl) integration = await ensureSimulatorIntegration(tx, deps.config.encryptionKey, msp.id, options.simulatorUrl);

    // The demo knowledge base (issue #9): Jarvis's articles, each added once.
    const knowledgeArticles = await seedKbArticles(tx, msp.id, loadDemoKbArticles());

    const created = { msp: msp.created, companies: copied.companies, contacts: copied.contacts, members: copied.members, users: createdUsers, customRole, integration, knowledgeArticles };
    if (Object.values(created).some((value) => value === true || (typeof value === 'number' && value > 0))) {
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'system', action: 'demo.seed', target: DEMO_MSP.customDomain, outcome: 'success', details: created });
    }
    return { mspId: msp.id, created };
  });
  return result;
}

/** Stores the ConnectWise integration pointing at the simulator; true when it was created or re-pointed. */
async function ensureSimulatorIntegration(db: TDatabase, encryptionKey: Buffer, mspId: string, simulatorUrl: string): Promise<boolean> {
  const settings = { companyId: DEMO_CONNECTWISE.companyId, psaUrl: simulatorUrl, clientId: DEMO_CONNECTWISE.clientId };
  const [existing] = await db.select().from(integrations).where(eq(integrations.mspId, mspId)).limit(1);
  if (existing) {
    // The simulator may listen on another port than last time; keep pointing at it, nothing else changes.
    if (existing.settings.psaUrl === simulatorUrl || existing.settings.companyId !== DEMO_CONNECTWISE.companyId) return false;
    await db.update(integrations).set({ settings: { ...existing.settings, psaUrl: simulatorUrl }, updatedAt: new Date() }).where(eq(integrations.mspId, mspId));
    return true;
  }
  await db.insert(integrations).values({
    mspId,
    psaType: PSA_TYPE,
    settings,
    secretCiphertext: encryptSecret(encryptionKey, JSON.stringify({ psaType: 'CONNECTWISE', publicKey: DEMO_CONNECTWISE.publicKey, privateKey: DEMO_CONNECTWISE.privateKey } satisfies TIntegrationSecrets)),
    keyHint: '••••Key1',
    connectWiseManageIntegrator: true,
  });
  return true;
}
