import { and, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { users, verificationCodes, type TDatabase } from '@switchboard/db';

export type TInvitationRow = typeof verificationCodes.$inferSelect;
type TUserRow = typeof users.$inferSelect;

/** SQL: whether the user row has an invitation that is still open at `now` (for the employees list). */
export function hasOpenInvitationSql(now: Date): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${verificationCodes} where ${verificationCodes.mspId} = ${users.mspId} and ${verificationCodes.userId} = ${users.id} and ${verificationCodes.purpose} = 'invitation' and ${verificationCodes.consumedAt} is null and ${verificationCodes.expiresAt} > ${now.toISOString()}::timestamptz)`;
}

/** Active technicians of the MSP without a password and without an open invitation. */
export async function findUninvitedTechnicians(db: TDatabase, mspId: string, now: Date): Promise<TUserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'technician'), eq(users.isActive, true), isNull(users.passwordHash), sql`not ${hasOpenInvitationSql(now)}`))
    .orderBy(users.lastName, users.firstName);
}

/**
 * Locks the users' rows until the transaction ends, so two invitations for one technician take turns: the second closes
 * what the first stored instead of both leaving a link open (review s27 #5; READ COMMITTED would let both pass).
 */
export async function lockUsersForInvitation(db: TDatabase, mspId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.mspId, mspId), inArray(users.id, [...userIds])))
    .orderBy(users.id)
    .for('update');
}

/** Closes the user's open invitations (a new one replaces them; an accepted one is used up). */
export async function closeOpenInvitations(db: TDatabase, mspId: string, userIds: readonly string[], now: Date): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.mspId, mspId), inArray(verificationCodes.userId, [...userIds]), eq(verificationCodes.purpose, 'invitation'), isNull(verificationCodes.consumedAt)));
}

export async function insertInvitations(db: TDatabase, rows: Array<{ id: string; mspId: string; userId: string; codeHash: string; expiresAt: Date }>): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(verificationCodes).values(rows.map((row) => ({ ...row, purpose: 'invitation' as const })));
}

/** Deletes invitations whose link was never mailed, so the technician counts as uninvited again. */
export async function deleteInvitations(db: TDatabase, mspId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(verificationCodes).where(and(eq(verificationCodes.mspId, mspId), inArray(verificationCodes.id, [...ids]), eq(verificationCodes.purpose, 'invitation')));
}

/** An open invitation of the MSP by its id, with its technician. */
export async function findOpenInvitation(db: TDatabase, mspId: string, id: string, now: Date): Promise<{ code: TInvitationRow; user: TUserRow } | undefined> {
  const [row] = await db
    .select({ code: verificationCodes, user: users })
    .from(verificationCodes)
    .innerJoin(users, and(eq(users.mspId, verificationCodes.mspId), eq(users.id, verificationCodes.userId)))
    .where(and(eq(verificationCodes.mspId, mspId), eq(verificationCodes.id, id), eq(verificationCodes.purpose, 'invitation'), isNull(verificationCodes.consumedAt), gt(verificationCodes.expiresAt, now), eq(users.kind, 'technician')))
    .limit(1);
  return row;
}

/** Uses the invitation up and sets the password, only while both are still open; false when a concurrent accept won. */
export async function acceptInvitationRow(db: TDatabase, code: TInvitationRow, passwordHash: string, now: Date): Promise<boolean> {
  const used = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.mspId, code.mspId), eq(verificationCodes.id, code.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  if (used.length === 0) return false;
  const set = await db
    .update(users)
    .set({ passwordHash, updatedAt: now })
    .where(and(eq(users.mspId, code.mspId), eq(users.id, code.userId), isNull(users.passwordHash), eq(users.isActive, true)))
    .returning({ id: users.id });
  return set.length > 0;
}
