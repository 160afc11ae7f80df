import { eq } from 'drizzle-orm';
import { integrations, type TDatabase } from '@switchboard/db';

export type TIntegrationRow = typeof integrations.$inferSelect;

/** The MSP's integration row, or null when it never saved one. */
export async function findIntegration(db: TDatabase, mspId: string): Promise<TIntegrationRow | null> {
  const [row] = await db.select().from(integrations).where(eq(integrations.mspId, mspId)).limit(1);
  return row ?? null;
}

/**
 * The PSA type of the MSP's integration (null without one): the copies and requests of that type are the MSP's; those
 * of an earlier PSA are not shown (their ids mean other records in the PSA connected now).
 */
export async function findPsaTypeOfMsp(db: TDatabase, mspId: string): Promise<TIntegrationRow['psaType'] | null> {
  return (await findIntegration(db, mspId))?.psaType ?? null;
}

/** The same, locked until the caller's transaction ends: what a change of keys compares with cannot change meanwhile. */
export async function findIntegrationForUpdate(db: TDatabase, mspId: string): Promise<TIntegrationRow | null> {
  const [row] = await db.select().from(integrations).where(eq(integrations.mspId, mspId)).limit(1).for('update');
  return row ?? null;
}

/**
 * The same, locked FOR SHARE until the caller's transaction ends: work that writes PSA data reads which PSA the MSP is
 * connected to, and a save of keys (FOR UPDATE) waits for that write or the write waits for the save (decision 042).
 */
export async function findIntegrationForShare(db: TDatabase, mspId: string): Promise<TIntegrationRow | null> {
  const [row] = await db.select().from(integrations).where(eq(integrations.mspId, mspId)).limit(1).for('share');
  return row ?? null;
}

export interface TSaveIntegration {
  psaType: TIntegrationRow['psaType'];
  settings: Record<string, string>;
  secretCiphertext: string;
  keyHint: string;
  /**
   * The PSA these keys reach (`psaConnectionKeyOf`): the MSP's data comes from it from now on (decision 042). The
   * integrations service always sets it; left out (tests that store keys directly), the column is not changed.
   */
  dataPsaConnection?: string;
}

/** Saves new keys; new keys are unverified, so the integrator flag drops until they are checked again. */
export async function saveIntegrationKeys(db: TDatabase, mspId: string, values: TSaveIntegration, now: Date): Promise<TIntegrationRow> {
  const [row] = await db
    .insert(integrations)
    .values({ mspId, ...values, connectWiseManageIntegrator: false, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: integrations.mspId, set: { ...values, connectWiseManageIntegrator: false, updatedAt: now } })
    .returning();
  if (!row) throw new Error('integration not saved');
  return row;
}

export async function setConnectWiseManageIntegrator(db: TDatabase, mspId: string, isIntegrated: boolean, now: Date): Promise<void> {
  await db.update(integrations).set({ connectWiseManageIntegrator: isIntegrated, updatedAt: now }).where(eq(integrations.mspId, mspId));
}

/** Disconnect: the keys are wiped (the row stays for the other integrators' flags, and says where the data came from). */
export async function clearIntegrationKeys(db: TDatabase, mspId: string, now: Date): Promise<void> {
  await db
    .update(integrations)
    .set({ secretCiphertext: '', keyHint: '', settings: {}, connectWiseManageIntegrator: false, updatedAt: now })
    .where(eq(integrations.mspId, mspId));
}
