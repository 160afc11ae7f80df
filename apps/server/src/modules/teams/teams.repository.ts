import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { teamMembers, teams, users, type TDatabase } from '@switchboard/db';

export type TTeamRow = typeof teams.$inferSelect;
export type TTeamMemberTier = (typeof teamMembers.$inferSelect)['tierLevel'];
export interface TTeamMemberRow {
  teamId: string;
  tierLevel: TTeamMemberTier;
  user: typeof users.$inferSelect;
}

/** The MSP's teams by name. */
export function listTeams(db: TDatabase, mspId: string): Promise<TTeamRow[]> {
  return db.select().from(teams).where(eq(teams.mspId, mspId)).orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}

export async function findTeam(db: TDatabase, mspId: string, teamId: string): Promise<TTeamRow | undefined> {
  const [row] = await db.select().from(teams).where(and(eq(teams.mspId, mspId), eq(teams.id, teamId))).limit(1);
  return row;
}

/** The team, its row locked until the transaction ends: what serialises the changes of one team's member list. */
export async function lockTeam(tx: TDatabase, mspId: string, teamId: string): Promise<TTeamRow | undefined> {
  const [row] = await tx.select().from(teams).where(and(eq(teams.mspId, mspId), eq(teams.id, teamId))).limit(1).for('update');
  return row;
}

/** Members of these teams (inactive technicians included: they stay on the PSA team until removed), by name. */
export async function listMembersOfTeams(db: TDatabase, mspId: string, teamIds: string[]): Promise<TTeamMemberRow[]> {
  if (teamIds.length === 0) return [];
  return db
    .select({ teamId: teamMembers.teamId, tierLevel: teamMembers.tierLevel, user: users })
    .from(teamMembers)
    .innerJoin(users, and(eq(users.mspId, teamMembers.mspId), eq(users.id, teamMembers.userId)))
    .where(and(eq(teamMembers.mspId, mspId), inArray(teamMembers.teamId, teamIds)))
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`));
}

export async function isTeamNameTaken(db: TDatabase, mspId: string, boardId: number, name: string, exceptTeamId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.mspId, mspId), eq(teams.boardId, boardId), eq(sql`lower(${teams.name})`, name.toLowerCase())));
  return rows.some((row) => row.id !== exceptTeamId);
}

/** Active technicians of the MSP with these e-mails (compared case-insensitively). */
export function findActiveTechniciansByEmail(db: TDatabase, mspId: string, emails: string[]): Promise<Array<typeof users.$inferSelect>> {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'technician'), eq(users.isActive, true), inArray(sql`lower(${users.email})`, emails.map((email) => email.toLowerCase()))));
}

export async function insertTeam(db: TDatabase, values: typeof teams.$inferInsert): Promise<TTeamRow> {
  const [row] = await db.insert(teams).values(values).returning();
  if (!row) throw new Error('Team insert returned no row');
  return row;
}

export async function insertTeamMembers(db: TDatabase, mspId: string, teamId: string, members: Array<{ userId: string; tierLevel: TTeamMemberTier }>): Promise<void> {
  if (members.length === 0) return;
  await db.insert(teamMembers).values(members.map((member) => ({ mspId, teamId, userId: member.userId, tierLevel: member.tierLevel })));
}

export async function deleteTeamMember(db: TDatabase, mspId: string, teamId: string, userId: string): Promise<void> {
  await db.delete(teamMembers).where(and(eq(teamMembers.mspId, mspId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

export async function updateTeamMemberTier(db: TDatabase, mspId: string, teamId: string, userId: string, tierLevel: TTeamMemberTier): Promise<void> {
  await db.update(teamMembers).set({ tierLevel }).where(and(eq(teamMembers.mspId, mspId), eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

export async function updateTeamName(db: TDatabase, mspId: string, teamId: string, name: string, now: Date): Promise<void> {
  await db.update(teams).set({ name, updatedAt: now }).where(and(eq(teams.mspId, mspId), eq(teams.id, teamId)));
}
