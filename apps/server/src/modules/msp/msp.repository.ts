import { and, count, eq, gt, isNotNull, lte, notExists, sql } from 'drizzle-orm';
import type { TMspBrand } from '@switchboard/contracts';
import { auditEvents, msps, users, type TDatabase } from '@switchboard/db';

export type TMspRow = typeof msps.$inferSelect;
export type TNewMsp = typeof msps.$inferInsert;
export type TUserRow = typeof users.$inferSelect;
export type TNewUser = typeof users.$inferInsert;

/** The MSP with this custom domain (compared in lower case), or undefined. */
export async function findMspByDomain(db: TDatabase, customDomain: string): Promise<TMspRow | undefined> {
  const [row] = await db.select().from(msps).where(eq(msps.customDomain, customDomain.toLowerCase())).limit(1);
  return row;
}

export async function insertMsp(db: TDatabase, values: TNewMsp): Promise<TMspRow> {
  const [row] = await db.insert(msps).values(values).returning();
  if (!row) throw new Error('MSP insert returned no row');
  return row;
}

/**
 * An abandoned sign-up's MSP (its first-technician token expired unspent, and it has no user) started again with
 * new details and a new token, in one conditional UPDATE: of two people taking it over at once, one gets it.
 */
export async function reclaimAbandonedMsp(db: TDatabase, mspId: string, now: Date, values: Omit<TNewMsp, 'id' | 'customDomain'>): Promise<TMspRow | undefined> {
  const [row] = await db
    .update(msps)
    .set(values)
    .where(
      and(
        eq(msps.id, mspId),
        isNotNull(msps.bootstrapTokenHash),
        lte(msps.bootstrapExpiresAt, now),
        notExists(db.select({ id: users.id }).from(users).where(eq(users.mspId, mspId))),
      ),
    )
    .returning();
  return row;
}

/**
 * A taken-over sign-up's earlier audit events (the abandoned sign-up's `msp.create` with that person's MSP name and
 * address, its failed first-technician tries) leave the MSP's activity log: kept for the operator, with no MSP.
 */
export async function detachAuditEventsOf(db: TDatabase, mspId: string): Promise<void> {
  await db.update(auditEvents).set({ mspId: null }).where(eq(auditEvents.mspId, mspId));
}

/** The MSP by its id, or undefined (read in the change's transaction, to know the logo it replaces). */
export async function findMspById(db: TDatabase, mspId: string): Promise<TMspRow | undefined> {
  const [row] = await db.select().from(msps).where(eq(msps.id, mspId)).limit(1);
  return row;
}

/** Points the MSP at its new logo upload. */
export async function updateMspLogo(db: TDatabase, mspId: string, logoPath: string, logoMime: string): Promise<TMspRow | undefined> {
  const [row] = await db.update(msps).set({ logoPath, logoMime }).where(eq(msps.id, mspId)).returning();
  return row;
}

export async function updateMspBrand(db: TDatabase, mspId: string, brand: TMspBrand): Promise<TMspRow | undefined> {
  const [row] = await db.update(msps).set(brand).where(eq(msps.id, mspId)).returning();
  return row;
}

export async function countTechnicians(db: TDatabase, mspId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(users).where(and(eq(users.mspId, mspId), eq(users.kind, 'technician')));
  return row?.total ?? 0;
}

/**
 * Clears the bootstrap token if it is still the one presented and unexpired; true when this call
 * spent it. One UPDATE, so two racing requests cannot both spend it.
 */
export async function spendBootstrapToken(db: TDatabase, mspId: string, tokenHash: string, now: Date): Promise<boolean> {
  const spent = await db
    .update(msps)
    .set({ bootstrapTokenHash: null, bootstrapExpiresAt: null })
    .where(and(eq(msps.id, mspId), eq(msps.bootstrapTokenHash, tokenHash), gt(msps.bootstrapExpiresAt, now)))
    .returning({ id: msps.id });
  return spent.length === 1;
}

export async function isTechnicianEmailTaken(db: TDatabase, mspId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'technician'), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return row !== undefined;
}

export async function insertUser(db: TDatabase, values: TNewUser): Promise<TUserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('User insert returned no row');
  return row;
}

