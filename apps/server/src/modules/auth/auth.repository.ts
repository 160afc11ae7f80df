import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { msps, roles, users, verificationCodes, type TDatabase } from '@switchboard/db';

export type TUserRow = typeof users.$inferSelect;
export type TMspRow = typeof msps.$inferSelect;
export type TRoleRow = typeof roles.$inferSelect;
export type TVerificationCodeRow = typeof verificationCodes.$inferSelect;
export type TMspUserKind = TUserRow['kind'];
export type TCodePurpose = TVerificationCodeRow['purpose'];

const lowerEmail = (email: string) => email.trim().toLowerCase();

/** Every MSP where an active user of this kind has the email (the sign-in email step crosses tenants by design). */
export async function findMspsOfEmail(db: TDatabase, email: string, kind: TMspUserKind): Promise<TMspRow[]> {
  const rows = await db
    .select({ msp: msps })
    .from(users)
    .innerJoin(msps, eq(msps.id, users.mspId))
    .where(and(sql`lower(${users.email}) = ${lowerEmail(email)}`, eq(users.kind, kind), eq(users.isActive, true)))
    .orderBy(msps.name);
  return rows.map((row) => row.msp);
}

/** The user of this kind with this email in one MSP (active or not). */
export async function findUserByEmail(db: TDatabase, mspId: string, kind: TMspUserKind, email: string): Promise<TUserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, kind), sql`lower(${users.email}) = ${lowerEmail(email)}`))
    .limit(1);
  return user;
}

/** One user of an MSP by id. */
export async function findUserById(db: TDatabase, mspId: string, userId: string): Promise<TUserRow | undefined> {
  const [user] = await db.select().from(users).where(and(eq(users.mspId, mspId), eq(users.id, userId))).limit(1);
  return user;
}

export interface TUserWithTenant {
  user: TUserRow;
  msp: TMspRow;
  role: TRoleRow | null;
}

/** A user with its MSP and role, as the session-user presenter needs them. */
export async function findUserWithTenant(db: TDatabase, mspId: string, userId: string): Promise<TUserWithTenant | undefined> {
  const [row] = await db
    .select({ user: users, msp: msps, role: roles })
    .from(users)
    .innerJoin(msps, eq(msps.id, users.mspId))
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, mspId), eq(users.id, userId)))
    .limit(1);
  return row;
}

export async function updateUser(db: TDatabase, mspId: string, userId: string, changes: Partial<typeof users.$inferInsert>): Promise<void> {
  await db.update(users).set(changes).where(and(eq(users.mspId, mspId), eq(users.id, userId)));
}

export async function insertVerificationCode(db: TDatabase, row: typeof verificationCodes.$inferInsert): Promise<void> {
  await db.insert(verificationCodes).values(row);
}

/** A code row by id, scoped to its MSP and purpose. */
export async function findVerificationCode(db: TDatabase, mspId: string, purpose: TCodePurpose, id: string): Promise<TVerificationCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.id, id), eq(verificationCodes.mspId, mspId), eq(verificationCodes.purpose, purpose)))
    .limit(1);
  return row;
}

/** The newest unconsumed code of a user for a purpose (password reset is addressed by email, not id). */
export async function findLatestOpenCode(db: TDatabase, mspId: string, userId: string, purpose: TCodePurpose): Promise<TVerificationCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.mspId, mspId), eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row;
}

/** Marks every open code of a user for a purpose used, so only the newest one can work. */
export async function consumeOpenCodes(db: TDatabase, mspId: string, userId: string, purpose: TCodePurpose, now: Date): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.mspId, mspId), eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)));
}

/**
 * Records an authenticator time step as used; false when it (or a later one) already was. Two codes checked together
 * (an app replaced with the old one's agreement) pass their earlier step as `earliestStepEpoch`: neither may be spent.
 */
export async function spendTotpStep(db: TDatabase, mspId: string, userId: string, stepEpoch: number, earliestStepEpoch: number = stepEpoch): Promise<boolean> {
  const spent = await db
    .update(users)
    .set({ totpLastStepEpoch: stepEpoch })
    .where(and(eq(users.mspId, mspId), eq(users.id, userId), or(isNull(users.totpLastStepEpoch), lt(users.totpLastStepEpoch, earliestStepEpoch))))
    .returning({ id: users.id });
  return spent.length === 1;
}

/** Consumes one code if still open; false when another request used it first (single use under races). */
export async function consumeCode(db: TDatabase, code: Pick<TVerificationCodeRow, 'mspId' | 'id'>, now: Date): Promise<boolean> {
  const consumed = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.mspId, code.mspId), eq(verificationCodes.id, code.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  return consumed.length === 1;
}

/** Counts one try against a code in one conditional update; false when the code is used, expired or has no try left. */
export async function takeCodeAttempt(db: TDatabase, code: Pick<TVerificationCodeRow, 'mspId' | 'id'>, now: Date, maxAttempts: number): Promise<boolean> {
  const taken = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.mspId, code.mspId),
        eq(verificationCodes.id, code.id),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, now),
        lt(verificationCodes.attempts, maxAttempts),
      ),
    )
    .returning({ id: verificationCodes.id });
  return taken.length === 1;
}

/** Gives back one try a code was charged. */
export async function returnCodeAttempt(db: TDatabase, code: Pick<TVerificationCodeRow, 'mspId' | 'id'>): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ attempts: sql`greatest(${verificationCodes.attempts} - 1, 0)` })
    .where(and(eq(verificationCodes.mspId, code.mspId), eq(verificationCodes.id, code.id)));
}

/** Replaces a code's secret and expiry in place (resend keeps the challenge id the client holds). */
export async function replaceCode(db: TDatabase, code: Pick<TVerificationCodeRow, 'mspId' | 'id'>, codeHash: string, expiresAt: Date): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ codeHash, expiresAt, attempts: 0 })
    .where(and(eq(verificationCodes.mspId, code.mspId), eq(verificationCodes.id, code.id)));
}
