import { and, eq, sql } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaMembers, type TDatabase } from '@switchboard/db';
import type { TPsaContactRecord, TPsaMemberRecord } from '@switchboard/contracts';
import type { TPsaContactWithCompany, TPsaMemberWithPhone } from '@switchboard/psa';
import type { TMspUserKind } from '../auth/auth.repository';
import { assertStillConnectedTo, type TWorkConnection } from '../integrations/psa-identity';
import { lookUpLivePsaRecords, type TActivationPsaLookup } from './activation-psa-lookup';
import { DB_PSA_TYPE, upsertPsaDirectory, type TDbPsaType } from '../psa-directory/psa-directory.repository';

/** A PSA member (technician) found for activation, with the row id the user will link to. */
export interface TMemberMatch {
  record: TPsaMemberRecord;
  rowId: string;
  phone: string | null;
}

/** A PSA contact (client) found for activation, with its company row. */
export interface TContactMatch {
  record: TPsaContactRecord;
  rowId: string;
  companyRowId: string | null;
  phone: string | null;
}

export type TPsaMatches = { kind: 'technician'; matches: TMemberMatch[] } | { kind: 'client'; matches: TContactMatch[] };

type TMemberRow = typeof psaMembers.$inferSelect;
type TContactRow = typeof psaContacts.$inferSelect;
type TCompanyRow = typeof psaCompanies.$inferSelect;

const byName = (a: { lastName: string; firstName: string }, b: { lastName: string; firstName: string }): number =>
  a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName);

function toMemberMatch(member: TMemberRow, email: string): TMemberMatch {
  return {
    rowId: member.id,
    phone: member.phone,
    record: { psaMembersAutopilotDbId: member.id, psaMembersId: member.externalId, firstName: member.firstName, lastName: member.lastName, email: member.email ?? email },
  };
}

function toContactMatch(contact: TContactRow, company: Pick<TCompanyRow, 'id' | 'name'> | null | undefined, email: string): TContactMatch {
  return {
    rowId: contact.id,
    companyRowId: company?.id ?? contact.companyRowId,
    phone: contact.phone,
    record: {
      psaContactAutopilotDbId: contact.id,
      psaContactId: contact.externalId,
      psaCompanyId: contact.externalCompanyId,
      psaCompanyName: company?.name ?? '',
      firstName: contact.firstName,
      lastName: contact.lastName,
      email: contact.email ?? email,
    },
  };
}

/**
 * The PSA records of an MSP with this email (case-insensitive). `live` first: with a configured integration the live PSA
 * answers and what it returned is upserted into the synchronized copies (so the user links to a stable row id); without
 * one, or when the PSA is unavailable, rate limiting or refusing the keys, the
 * synchronized copies answer (with the MSP's anonymous budget spent, 429: activation-psa-lookup.ts). `copies` first: the copies answer when they have the address, and only an address they
 * do not have is asked of the live PSA as above (the public look-up, which must not spend the MSP's PSA requests on
 * addresses the synchronization already brought in; creating the account asks the PSA, so a stale copy activates nothing).
 * `connection` is the MSP's PSA connection read before anything else (null: none): the live answer is copied only while
 * the MSP is still connected to it, else PsaConnectionChanged (decision 042, "Work in flight").
 */
export async function findPsaRecordsByEmail(
  db: TDatabase,
  mspId: string,
  connection: TWorkConnection | null,
  kind: TMspUserKind,
  email: string,
  psa: TActivationPsaLookup,
  now: Date,
  first: 'live' | 'copies',
): Promise<TPsaMatches> {
  const lower = email.trim().toLowerCase();
  if (first === 'copies') {
    const local = await findLocalPsaRecordsByEmail(db, mspId, kind, lower);
    if (local.matches.length > 0) return local;
  }
  const live = await lookUpLivePsaRecords(psa, mspId, connection, kind, lower);
  if (!live || !connection) return findLocalPsaRecordsByEmail(db, mspId, kind, lower);
  // The integrations lock first (decision 042): keys for another PSA saved since `connection` was read refuse the copy.
  return db.transaction(async (tx) => {
    await assertStillConnectedTo(tx, mspId, connection);
    if (live.kind === 'technician') return { kind: 'technician' as const, matches: await upsertLiveMembers(tx, mspId, DB_PSA_TYPE[live.psaType], live.members, lower, now) };
    return { kind: 'client' as const, matches: await upsertLiveContacts(tx, mspId, DB_PSA_TYPE[live.psaType], live.contacts, lower, now) };
  });
}

/** The synchronized copies' answer: active members or contacts with this (lower-cased) email. */
async function findLocalPsaRecordsByEmail(db: TDatabase, mspId: string, kind: TMspUserKind, lower: string): Promise<TPsaMatches> {
  if (kind === 'technician') {
    const rows = await db
      .select()
      .from(psaMembers)
      .where(and(eq(psaMembers.mspId, mspId), eq(psaMembers.isActive, true), sql`lower(${psaMembers.email}) = ${lower}`))
      .orderBy(psaMembers.lastName, psaMembers.firstName);
    return { kind, matches: rows.map((member) => toMemberMatch(member, lower)) };
  }
  const rows = await db
    .select({ contact: psaContacts, company: psaCompanies })
    .from(psaContacts)
    .leftJoin(
      psaCompanies,
      and(eq(psaCompanies.mspId, psaContacts.mspId), eq(psaCompanies.psaType, psaContacts.psaType), eq(psaCompanies.externalId, psaContacts.externalCompanyId)),
    )
    .where(and(eq(psaContacts.mspId, mspId), eq(psaContacts.isActive, true), sql`lower(${psaContacts.email}) = ${lower}`))
    .orderBy(psaContacts.lastName, psaContacts.firstName);
  return { kind, matches: rows.map(({ contact, company }) => toContactMatch(contact, company, lower)) };
}

/** Copies the members the PSA returned into the synchronized copies and returns the active ones (inside the caller's transaction). */
async function upsertLiveMembers(tx: TDatabase, mspId: string, psaType: TDbPsaType, members: TPsaMemberWithPhone[], lower: string, now: Date): Promise<TMemberMatch[]> {
  const copied = await upsertPsaDirectory(
    tx,
    mspId,
    psaType,
    {
      members: members.map((member) => ({
        externalId: String(member.id),
        identifier: member.identifier,
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        phone: member.phone,
        isActive: member.isActive,
      })),
    },
    now,
  );
  return copied.members
    .filter((row) => row.isActive)
    .sort(byName)
    .map((row) => toMemberMatch(row, lower));
}

/** Copies the contacts the PSA returned, with their companies, and returns the active contacts (inside the caller's transaction). */
async function upsertLiveContacts(tx: TDatabase, mspId: string, psaType: TDbPsaType, contacts: TPsaContactWithCompany[], lower: string, now: Date): Promise<TContactMatch[]> {
  // A contact without a company cannot sign up as a client (A-090 names the company), nor be stored.
  const withCompany = contacts.flatMap((contact) => (contact.companyId === null ? [] : [{ ...contact, externalCompanyId: String(contact.companyId) }]));
  if (withCompany.length === 0) return [];
  const companies = [...new Map(withCompany.flatMap((contact) => (contact.company ? [[contact.company.id, contact.company] as const] : []))).values()];
  const copied = await upsertPsaDirectory(
    tx,
    mspId,
    psaType,
    {
      companies: companies.map((company) => ({ externalId: String(company.id), name: company.name, identifier: company.identifier, isActive: company.isActive })),
      // A contact's company reference: its status is a guess for a new copy, never a change to a stored one.
      keepCompanyStatus: true,
      contacts: withCompany.map((contact) => ({
        externalId: String(contact.id),
        externalCompanyId: contact.externalCompanyId,
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone,
        isActive: contact.isActive,
      })),
    },
    now,
  );
  return copied.contacts
    .filter((row) => row.isActive)
    .sort(byName)
    .map((row) => toContactMatch(row, copied.companiesByExternalId.get(row.externalCompanyId), lower));
}
