import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import { psaMembers, roles, users, type TDatabase } from '@switchboard/db';
import { hasOpenInvitationSql } from '../invitations/invitations.repository';
import { countsAsRoleManagerSql } from '../roles/roles.repository';

export type TTechnicianRow = typeof users.$inferSelect;
export type TPsaMemberRow = typeof psaMembers.$inferSelect;
export interface TTechnicianWithRole {
  user: TTechnicianRow;
  roleName: string | null;
  /** Decision 019: whether the technician has an invitation still open (only counts while they have no password). */
  hasOpenInvitation: boolean;
}

export interface TTechnicianFilter {
  isActive: boolean;
  search: string;
  roleId: string | null;
  hasPsaMember: boolean | null;
}

/** `%` and `_` typed into a search box are letters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

function technicianConditions(mspId: string, filter: TTechnicianFilter): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(users.mspId, mspId), eq(users.kind, 'technician'), eq(users.isActive, filter.isActive)];
  if (filter.roleId !== null) conditions.push(eq(users.roleId, filter.roleId));
  if (filter.hasPsaMember === true) conditions.push(isNotNull(users.psaMemberId));
  if (filter.hasPsaMember === false) conditions.push(isNull(users.psaMemberId));
  if (filter.search !== '') {
    const pattern = likePattern(filter.search);
    conditions.push(or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern)));
  }
  return and(...conditions);
}

/** One page of the MSP's technicians (active or inactive), by last then first name, with the total. */
export async function listTechnicians(db: TDatabase, mspId: string, filter: TTechnicianFilter, page: { offset: number; limit: number }, now: Date): Promise<{ rows: TTechnicianWithRole[]; total: number }> {
  const where = technicianConditions(mspId, filter);
  const rows = await db
    .select({ user: users, roleName: roles.name, hasOpenInvitation: hasOpenInvitationSql(now) })
    .from(users)
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(where)
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.id))
    .offset(page.offset)
    .limit(page.limit);
  const [counted] = await db.select({ total: count() }).from(users).where(where);
  return { rows, total: counted?.total ?? 0 };
}

/** One technician of the MSP with its role name (active or not). */
export async function findTechnician(db: TDatabase, mspId: string, userId: string, now: Date): Promise<TTechnicianWithRole | undefined> {
  const [row] = await db
    .select({ user: users, roleName: roles.name, hasOpenInvitation: hasOpenInvitationSql(now) })
    .from(users)
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, mspId), eq(users.id, userId), eq(users.kind, 'technician')))
    .limit(1);
  return row;
}

/** Users of the MSP, other than `exceptUserId`, who count as role managers (decision 025: active technicians who can sign in). */
export async function countOtherActiveRoleManagers(db: TDatabase, mspId: string, exceptUserId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .innerJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, mspId), ne(users.id, exceptUserId), countsAsRoleManagerSql()));
  return row?.total ?? 0;
}

export async function updateTechnician(db: TDatabase, mspId: string, userId: string, changes: Partial<Pick<TTechnicianRow, 'isActive' | 'tierLevel' | 'updatedAt'>>): Promise<void> {
  await db.update(users).set(changes).where(and(eq(users.mspId, mspId), eq(users.id, userId), eq(users.kind, 'technician')));
}

/** Stored PSA members of the MSP's PSA that no technician (active or not) is linked to, by name. */
export function listUnimportedPsaMembers(db: TDatabase, mspId: string, psaType: TPsaMemberRow['psaType']): Promise<TPsaMemberRow[]> {
  const linked = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'technician'), or(eq(users.psaMemberRowId, psaMembers.id), eq(users.psaMemberId, psaMembers.externalId))));
  return db
    .select()
    .from(psaMembers)
    .where(and(eq(psaMembers.mspId, mspId), eq(psaMembers.psaType, psaType), eq(psaMembers.isActive, true), notExists(linked)))
    .orderBy(asc(sql`lower(${psaMembers.lastName})`), asc(sql`lower(${psaMembers.firstName})`));
}

export function findPsaMembers(db: TDatabase, mspId: string, psaType: TPsaMemberRow['psaType'], externalIds: string[]): Promise<TPsaMemberRow[]> {
  if (externalIds.length === 0) return Promise.resolve([]);
  return db.select().from(psaMembers).where(and(eq(psaMembers.mspId, mspId), eq(psaMembers.psaType, psaType), inArray(psaMembers.externalId, externalIds)));
}

/** Technicians already linked to one of these PSA members or holding one of these e-mails. */
export function findTechniciansLinkedOrNamed(db: TDatabase, mspId: string, externalIds: string[], emails: string[]): Promise<TTechnicianRow[]> {
  const lowered = emails.map((email) => email.toLowerCase());
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.mspId, mspId),
        eq(users.kind, 'technician'),
        or(externalIds.length > 0 ? inArray(users.psaMemberId, externalIds) : undefined, lowered.length > 0 ? inArray(sql`lower(${users.email})`, lowered) : undefined),
      ),
    );
}

/**
 * Links a technician account without a PSA link to a member (decision 042: connecting another PSA cleared the links,
 * and the wizard imports the new PSA's members again). Null when the account meanwhile got a link or went away.
 */
export async function linkTechnicianToMember(db: TDatabase, mspId: string, userId: string, member: Pick<TPsaMemberRow, 'id' | 'externalId'>, now: Date): Promise<TTechnicianRow | null> {
  const [row] = await db
    .update(users)
    .set({ psaMemberId: member.externalId, psaMemberRowId: member.id, updatedAt: now })
    .where(and(eq(users.mspId, mspId), eq(users.id, userId), eq(users.kind, 'technician'), isNull(users.psaMemberId), isNull(users.psaMemberRowId)))
    .returning();
  return row ?? null;
}

export async function insertTechnicians(db: TDatabase, rows: Array<typeof users.$inferInsert>): Promise<TTechnicianRow[]> {
  if (rows.length === 0) return [];
  return db.insert(users).values(rows).returning();
}
