import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { psaCompanies, psaContacts, psaMembers, type TDatabase } from '@switchboard/db';
import type { TPsaType } from '@switchboard/psa';

/** How the tables spell a PSA (psa_* copies, integrations, teams, boards). */
export type TDbPsaType = (typeof psaMembers.$inferSelect)['psaType'];
/** The adapter's PSA type as the tables store it. */
export const DB_PSA_TYPE: Record<TPsaType, TDbPsaType> = { connectwise: 'CONNECTWISE', autotask: 'AUTOTASK' };

/** A PSA company as a source (the live PSA, the demo directory) knows it. Absent details are kept as stored. */
export interface TPsaCompanyCopy {
  externalId: string;
  name: string;
  identifier: string | null;
  /** The source's status: a stored company takes it (unless the copy says `keepCompanyStatus`); absent, it keeps its own and a new one is active. */
  isActive?: boolean;
  /** The company's client types by name; absent when the source does not see them (a stored company keeps its own). */
  companyTypes?: string[];
  phone?: string | null;
  website?: string | null;
  city?: string | null;
  state?: string | null;
}

export interface TPsaContactCopy {
  externalId: string;
  externalCompanyId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  isActive: boolean;
  title?: string | null;
}

export interface TPsaMemberCopy {
  externalId: string;
  identifier: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  isActive: boolean;
  title?: string | null;
}

export interface TPsaDirectoryCopy {
  companies?: TPsaCompanyCopy[];
  /**
   * The source saw only a reference to each company (the activation lookup: ConnectWise's contact names its company
   * without a status), so a stored company keeps its status; the imports and syncs read the company.
   */
  keepCompanyStatus?: boolean;
  /** Linked to their company row by `externalCompanyId`, among the companies written here or stored before. */
  contacts?: TPsaContactCopy[];
  members?: TPsaMemberCopy[];
}

type TWithIsNew<TRow> = TRow & { isNew: boolean };
export type TPsaCompanyRow = TWithIsNew<typeof psaCompanies.$inferSelect>;
export type TPsaContactRow = TWithIsNew<typeof psaContacts.$inferSelect>;
export type TPsaMemberRow = TWithIsNew<typeof psaMembers.$inferSelect>;

export interface TPsaDirectoryUpsert {
  companies: TPsaCompanyRow[];
  contacts: TPsaContactRow[];
  members: TPsaMemberRow[];
  /** Company rows by external id: those written here and the stored ones a contact here references. */
  companiesByExternalId: Map<string, { id: string; name: string }>;
}

// A row that was inserted (not updated) by INSERT … ON CONFLICT has no deleting transaction yet.
const isNewRow = sql<boolean>`(xmax = 0)`.as('is_new');

/** Keeps the stored value when the source does not know it (inserted as NULL). */
const keepWhenUnknown = (column: PgColumn) => sql`coalesce(excluded.${sql.identifier(column.name)}, ${column})`;

/**
 * Writes PSA records into the synchronized copies (psa_companies, psa_contacts, psa_members), keyed by
 * (msp, PSA, external id): new records are inserted, known ones take the source's values. Every copy of a
 * PSA record goes through here (the activation lookup, the demo seed). Pass a transaction when contacts
 * and their companies must land together.
 */
export async function upsertPsaDirectory(db: TDatabase, mspId: string, psaType: TDbPsaType, copy: TPsaDirectoryCopy, now: Date): Promise<TPsaDirectoryUpsert> {
  const companies = await upsertCompanies(db, mspId, psaType, copy.companies ?? [], copy.keepCompanyStatus === true, now);
  const companiesByExternalId = await withReferencedCompanies(db, mspId, psaType, new Map(companies.map((company) => [company.externalId, { id: company.id, name: company.name }])), copy.contacts ?? []);
  const contacts = await upsertContacts(db, mspId, psaType, copy.contacts ?? [], companiesByExternalId, now);
  const members = await upsertMembers(db, mspId, psaType, copy.members ?? [], now);
  return { companies, contacts, members, companiesByExternalId };
}

/**
 * Writes contacts as upsertPsaDirectory does, answering only how many were written and how many were new. For bulk
 * saves (50,000 contacts a thousand at a time, issue #7: the server's RSS stays bounded): one array parameter per
 * column (`unnest`) instead of one parameter per value, and one boolean read back per row instead of every column.
 */
export async function upsertPsaContactsCounted(db: TDatabase, mspId: string, psaType: TDbPsaType, contacts: TPsaContactCopy[], now: Date): Promise<{ saved: number; created: number }> {
  if (contacts.length === 0) return { saved: 0, created: 0 };
  const companiesByExternalId = await withReferencedCompanies(db, mspId, psaType, new Map(), contacts);
  const written = await writeContacts(db, mspId, psaType, contacts, companiesByExternalId, now);
  return { saved: written.length, created: written.filter((row) => row.isNew).length };
}

/**
 * The one contact upsert rule: new contacts are inserted, known ones take the source's values (a title the source does
 * not know keeps the stored one). One array parameter per column (`unnest`); answers each written row's id and whether
 * it was new.
 */
async function writeContacts(db: TDatabase, mspId: string, psaType: TDbPsaType, contacts: TPsaContactCopy[], companiesByExternalId: Map<string, { id: string }>, now: Date): Promise<{ id: string; isNew: boolean }[]> {
  const column = <T>(pick: (contact: TPsaContactCopy) => T) => sql.param(contacts.map(pick));
  const at = now.toISOString();
  const result: unknown = await db.execute(sql`
    insert into psa_contacts (msp_id, psa_type, external_id, external_company_id, company_row_id, first_name, last_name, email, phone, title, is_active, created_at, updated_at)
    select ${mspId}::uuid, ${psaType}, r.external_id, r.external_company_id, r.company_row_id, r.first_name, r.last_name, r.email, r.phone, r.title, r.is_active, ${at}::timestamptz, ${at}::timestamptz
    from unnest(
      ${column((contact) => contact.externalId)}::text[],
      ${column((contact) => contact.externalCompanyId)}::text[],
      ${column((contact) => companiesByExternalId.get(contact.externalCompanyId)?.id ?? null)}::uuid[],
      ${column((contact) => contact.firstName)}::text[],
      ${column((contact) => contact.lastName)}::text[],
      ${column((contact) => contact.email)}::text[],
      ${column((contact) => contact.phone)}::text[],
      ${column((contact) => contact.title ?? null)}::text[],
      ${column((contact) => contact.isActive)}::boolean[]
    ) as r(external_id, external_company_id, company_row_id, first_name, last_name, email, phone, title, is_active)
    on conflict (msp_id, psa_type, external_id) do update set
      external_company_id = excluded.external_company_id,
      company_row_id = excluded.company_row_id,
      first_name = excluded.first_name,
      last_name = excluded.last_name,
      email = excluded.email,
      phone = excluded.phone,
      title = coalesce(excluded.title, psa_contacts.title),
      is_active = excluded.is_active,
      updated_at = excluded.updated_at
    returning id, (xmax = 0) as is_new`);
  // node-postgres and PGlite both answer { rows }.
  const written = (result as { rows: { id: string; is_new: boolean }[] }).rows.map((row) => ({ id: row.id, isNew: row.is_new }));
  await linkClientAccountsToContacts(db, mspId, written.map((row) => row.id));
  return written;
}

/**
 * A client account without a PSA contact (its links cleared when another PSA was connected, decision 042) is linked to
 * the contact just written with its e-mail, as activation would have linked it — only when exactly one active contact
 * of that PSA has the address, so an account is never tied to someone else's contact. A linked account is never moved.
 */
async function linkClientAccountsToContacts(db: TDatabase, mspId: string, contactRowIds: string[]): Promise<void> {
  if (contactRowIds.length === 0) return;
  await db.execute(sql`
    update users u set psa_contact_id = c.external_id, psa_contact_row_id = c.id, psa_company_id = c.external_company_id, company_row_id = c.company_row_id
    from psa_contacts c
    where u.msp_id = ${mspId} and u.kind = 'client' and u.psa_contact_id is null
      and c.msp_id = u.msp_id and c.id = any(${sql.param(contactRowIds)}::uuid[]) and c.is_active and lower(c.email) = lower(u.email)
      and not exists (select 1 from psa_contacts d where d.msp_id = c.msp_id and d.psa_type = c.psa_type and d.is_active and d.id <> c.id and lower(d.email) = lower(c.email))`);
}

/** Of these PSA company ids, those the MSP holds a copy of for this PSA (R-365 isAlreadySaved): one `= any` query. */
export async function findSavedCompanyExternalIds(db: TDatabase, mspId: string, psaType: TDbPsaType, externalIds: string[]): Promise<Set<string>> {
  if (externalIds.length === 0) return new Set();
  const rows = await db
    .select({ externalId: psaCompanies.externalId })
    .from(psaCompanies)
    .where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), sql`${psaCompanies.externalId} = any(${sql.param(externalIds)}::text[])`));
  return new Set(rows.map((row) => row.externalId));
}

/** Adds to `known` the stored company rows the contacts reference that it does not hold yet. */
export async function withReferencedCompanies(
  db: TDatabase,
  mspId: string,
  psaType: TDbPsaType,
  known: Map<string, { id: string; name: string }>,
  contacts: TPsaContactCopy[],
): Promise<Map<string, { id: string; name: string }>> {
  const referenced = [...new Set(contacts.map((contact) => contact.externalCompanyId))].filter((externalId) => !known.has(externalId));
  if (referenced.length > 0) {
    const stored = await db
      .select({ id: psaCompanies.id, externalId: psaCompanies.externalId, name: psaCompanies.name })
      .from(psaCompanies)
      .where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), inArray(psaCompanies.externalId, referenced)));
    for (const company of stored) known.set(company.externalId, { id: company.id, name: company.name });
  }
  return known;
}

async function upsertCompanies(db: TDatabase, mspId: string, psaType: TDbPsaType, companies: TPsaCompanyCopy[], keepStatus: boolean, now: Date): Promise<TPsaCompanyRow[]> {
  if (companies.length === 0) return [];
  const statusUnknown = companies.filter((company) => keepStatus || company.isActive === undefined).map((company) => company.externalId);
  const typesUnknown = companies.filter((company) => company.companyTypes === undefined).map((company) => company.externalId);
  return db
    .insert(psaCompanies)
    .values(
      companies.map((company) => ({
        mspId,
        psaType,
        externalId: company.externalId,
        name: company.name,
        identifier: company.identifier,
        isActive: company.isActive ?? true,
        companyTypes: company.companyTypes ?? [],
        phone: company.phone ?? null,
        website: company.website ?? null,
        city: company.city ?? null,
        state: company.state ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [psaCompanies.mspId, psaCompanies.psaType, psaCompanies.externalId],
      set: {
        name: sql`excluded.name`,
        identifier: sql`excluded.identifier`,
        // A company reactivated or deactivated in the PSA follows it; one whose status the source did not see keeps its own.
        isActive: sql`case when excluded.external_id = any(${sql.param(statusUnknown)}::text[]) then ${psaCompanies.isActive} else excluded.is_active end`,
        // A source that read the types replaces them, none included: a type removed in the PSA goes. One that
        // did not (the activation lookup) keeps the stored ones.
        companyTypes: sql`case when excluded.external_id = any(${sql.param(typesUnknown)}::text[]) then ${psaCompanies.companyTypes} else excluded.company_types end`,
        phone: keepWhenUnknown(psaCompanies.phone),
        website: keepWhenUnknown(psaCompanies.website),
        city: keepWhenUnknown(psaCompanies.city),
        state: keepWhenUnknown(psaCompanies.state),
        updatedAt: now,
      },
    })
    .returning({ ...getTableColumns(psaCompanies), isNew: isNewRow });
}

/** Writes the contacts by the one rule (writeContacts) and reads back their rows, in the order given. */
async function upsertContacts(db: TDatabase, mspId: string, psaType: TDbPsaType, contacts: TPsaContactCopy[], companiesByExternalId: Map<string, { id: string }>, now: Date): Promise<TPsaContactRow[]> {
  if (contacts.length === 0) return [];
  const written = await writeContacts(db, mspId, psaType, contacts, companiesByExternalId, now);
  const isNew = new Map(written.map((row) => [row.id, row.isNew]));
  const rows = await db.select().from(psaContacts).where(and(eq(psaContacts.mspId, mspId), inArray(psaContacts.id, [...isNew.keys()])));
  const byExternalId = new Map(rows.map((row) => [row.externalId, { ...row, isNew: isNew.get(row.id) ?? false }]));
  return contacts.flatMap((contact) => byExternalId.get(contact.externalId) ?? []);
}

async function upsertMembers(db: TDatabase, mspId: string, psaType: TDbPsaType, members: TPsaMemberCopy[], now: Date): Promise<TPsaMemberRow[]> {
  if (members.length === 0) return [];
  return db
    .insert(psaMembers)
    .values(
      members.map((member) => ({
        mspId,
        psaType,
        externalId: member.externalId,
        identifier: member.identifier,
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        phone: member.phone,
        title: member.title ?? null,
        isActive: member.isActive,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [psaMembers.mspId, psaMembers.psaType, psaMembers.externalId],
      set: {
        identifier: sql`excluded.identifier`,
        firstName: sql`excluded.first_name`,
        lastName: sql`excluded.last_name`,
        email: sql`excluded.email`,
        phone: sql`excluded.phone`,
        title: keepWhenUnknown(psaMembers.title),
        isActive: sql`excluded.is_active`,
        updatedAt: now,
      },
    })
    .returning({ ...getTableColumns(psaMembers), isNew: isNewRow });
}
