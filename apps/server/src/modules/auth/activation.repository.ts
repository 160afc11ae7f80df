import { and, eq, sql } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaMembers, type TDatabase } from '@switchboard/db';
import type { TPsaContactRecord, TPsaMemberRecord } from '@switchboard/contracts';
import type { TMspUserKind } from './auth.repository';

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

/**
 * The PSA records of an MSP with this email (case-insensitive), from the synchronized copies. The
 * one place to change when activation asks the live PSA instead.
 */
export async function findPsaRecordsByEmail(db: TDatabase, mspId: string, kind: TMspUserKind, email: string): Promise<TPsaMatches> {
  const lower = email.trim().toLowerCase();
  if (kind === 'technician') {
    const rows = await db
      .select()
      .from(psaMembers)
      .where(and(eq(psaMembers.mspId, mspId), eq(psaMembers.isActive, true), sql`lower(${psaMembers.email}) = ${lower}`))
      .orderBy(psaMembers.lastName, psaMembers.firstName);
    return {
      kind,
      matches: rows.map((member) => ({
        rowId: member.id,
        phone: member.phone,
        record: { psaMembersAutopilotDbId: member.id, psaMembersId: member.externalId, firstName: member.firstName, lastName: member.lastName, email: member.email ?? lower },
      })),
    };
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
  return {
    kind,
    matches: rows.map(({ contact, company }) => ({
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
        email: contact.email ?? lower,
      },
    })),
  };
}
