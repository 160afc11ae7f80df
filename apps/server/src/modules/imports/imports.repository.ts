import { and, eq, sql } from 'drizzle-orm';
import { importJobs, psaTicketingConfigs, type TDatabase } from '@switchboard/db';
import type { TPsaType } from '@switchboard/contracts';

export type TImportJobRow = typeof importJobs.$inferSelect;
export type TImportKind = TImportJobRow['kind'];

/** Starts an import job (one progressive load) of the PSA connection `psaConnection` (decision 042). */
export async function insertImportJob(db: TDatabase, mspId: string, kind: TImportKind, createdBy: string, psaConnection: string | null, now: Date): Promise<TImportJobRow> {
  const [job] = await db.insert(importJobs).values({ mspId, kind, createdBy, psaConnection, createdAt: now, updatedAt: now }).returning();
  if (!job) throw new Error('import job insert returned nothing');
  return job;
}

/** The tenant's job of this kind, or undefined. */
export async function findImportJob(db: TDatabase, mspId: string, jobId: string, kind: TImportKind): Promise<TImportJobRow | undefined> {
  const [job] = await db.select().from(importJobs).where(and(eq(importJobs.mspId, mspId), eq(importJobs.id, jobId), eq(importJobs.kind, kind)));
  return job;
}

/** Records a stream's progress or end. */
export async function updateImportJob(db: TDatabase, mspId: string, jobId: string, patch: Partial<Pick<TImportJobRow, 'status' | 'fetched' | 'total' | 'lastExternalId' | 'updatedAt'>>): Promise<void> {
  await db.update(importJobs).set(patch).where(and(eq(importJobs.mspId, mspId), eq(importJobs.id, jobId)));
}

/**
 * Records a stream's progress or end only while the job is still the one this stream last wrote (`ownedAt` is its last
 * `updatedAt`); false when a resume or a cancel has written it since, so a stream that lost its browser cannot undo them.
 */
export async function updateOwnedImportJob(db: TDatabase, mspId: string, jobId: string, ownedAt: Date, patch: Partial<Pick<TImportJobRow, 'status' | 'fetched' | 'total' | 'lastExternalId'>> & { updatedAt: Date }): Promise<boolean> {
  const rows = await db
    .update(importJobs)
    .set(patch)
    .where(and(eq(importJobs.mspId, mspId), eq(importJobs.id, jobId), eq(importJobs.updatedAt, ownedAt)))
    .returning({ id: importJobs.id });
  return rows.length > 0;
}

/**
 * Adds saved rows to the job's count and returns the new total. It leaves `updatedAt` alone: that is the stream's
 * ownership mark (updateOwnedImportJob), and a save made while the stream still runs must not look like a resume.
 */
export async function addSavedToImportJob(db: TDatabase, mspId: string, jobId: string, saved: number): Promise<number> {
  const [row] = await db
    .update(importJobs)
    .set({ saved: sql`${importJobs.saved} + ${saved}` })
    .where(and(eq(importJobs.mspId, mspId), eq(importJobs.id, jobId)))
    .returning({ saved: importJobs.saved });
  return row?.saved ?? 0;
}

/** Records the client type the wizard's finish step auto-syncs; creates the configuration row when absent. */
export async function saveClientSyncType(db: TDatabase, mspId: string, psaType: TPsaType, clientTypeId: number, now: Date): Promise<void> {
  await db
    .insert(psaTicketingConfigs)
    .values({ mspId, psaType, syncClientsTypeId: clientTypeId, updatedAt: now })
    .onConflictDoUpdate({ target: [psaTicketingConfigs.mspId, psaTicketingConfigs.psaType], set: { syncClientsTypeId: clientTypeId, updatedAt: now } });
}

/**
 * The client type A-043 copies, or null when none was chosen. Read here rather than through the boards
 * repository (which owns the row) because this module is the column's only writer and reader.
 */
export async function findClientSyncTypeId(db: TDatabase, mspId: string, psaType: TPsaType): Promise<number | null> {
  const [row] = await db
    .select({ syncClientsTypeId: psaTicketingConfigs.syncClientsTypeId })
    .from(psaTicketingConfigs)
    .where(and(eq(psaTicketingConfigs.mspId, mspId), eq(psaTicketingConfigs.psaType, psaType)))
    .limit(1);
  return row?.syncClientsTypeId ?? null;
}
