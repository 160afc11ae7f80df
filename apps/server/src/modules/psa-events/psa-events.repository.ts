import { and, eq, sql } from 'drizzle-orm';
import { integrations, psaEventSubscriptions, psaReconcileCursors, type TDatabase } from '@switchboard/db';

export type TPsaEventSubscriptionRow = typeof psaEventSubscriptions.$inferSelect;

/** The MSP's registered ticket webhook, or null. */
export async function findEventSubscription(db: TDatabase, mspId: string): Promise<TPsaEventSubscriptionRow | null> {
  const [row] = await db.select().from(psaEventSubscriptions).where(eq(psaEventSubscriptions.mspId, mspId)).limit(1);
  return row ?? null;
}

/** Stores (or replaces) the MSP's subscription after the PSA has registered the webhook; the reconcile cursor is not its business. */
export async function saveEventSubscription(db: TDatabase, row: Omit<TPsaEventSubscriptionRow, 'eventsReceived' | 'eventsRefused' | 'lastEventAt' | 'lastReconciledAt'>): Promise<void> {
  await db
    .insert(psaEventSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: psaEventSubscriptions.mspId,
      set: { psaType: row.psaType, webhookId: row.webhookId, routeTokenHash: row.routeTokenHash, secretCiphertext: row.secretCiphertext, createdAt: row.createdAt },
    });
}

export async function deleteEventSubscription(db: TDatabase, mspId: string): Promise<void> {
  await db.delete(psaEventSubscriptions).where(eq(psaEventSubscriptions.mspId, mspId));
}

/** Counts an accepted or refused event (what the operator sees when a PSA's deliveries go wrong). */
export async function countEvent(db: TDatabase, mspId: string, isAccepted: boolean, at: Date): Promise<void> {
  await db
    .update(psaEventSubscriptions)
    .set(isAccepted ? { eventsReceived: sql`${psaEventSubscriptions.eventsReceived} + 1`, lastEventAt: at } : { eventsRefused: sql`${psaEventSubscriptions.eventsRefused} + 1` })
    .where(eq(psaEventSubscriptions.mspId, mspId));
}

/** When the MSP's last complete reconcile pass started, or null before its first (with or without a webhook). */
export async function findLastReconciledAt(db: TDatabase, mspId: string): Promise<Date | null> {
  const [row] = await db.select({ lastReconciledAt: psaReconcileCursors.lastReconciledAt }).from(psaReconcileCursors).where(eq(psaReconcileCursors.mspId, mspId)).limit(1);
  return row?.lastReconciledAt ?? null;
}

/** Moves the MSP's reconcile cursor to the start of a complete pass. */
export async function markReconciled(db: TDatabase, mspId: string, at: Date): Promise<void> {
  await db.insert(psaReconcileCursors).values({ mspId, lastReconciledAt: at }).onConflictDoUpdate({ target: psaReconcileCursors.mspId, set: { lastReconciledAt: at } });
}

export async function deleteReconcileCursor(db: TDatabase, mspId: string): Promise<void> {
  await db.delete(psaReconcileCursors).where(eq(psaReconcileCursors.mspId, mspId));
}

/** Every connected MSP (integrator flag on) with its subscription if it has one: what the reconcile loop walks. */
export async function listConnectedMsps(db: TDatabase): Promise<{ mspId: string; psaType: TPsaEventSubscriptionRow['psaType']; subscription: TPsaEventSubscriptionRow | null }[]> {
  const rows = await db
    .select({ mspId: integrations.mspId, psaType: integrations.psaType, subscription: psaEventSubscriptions })
    .from(integrations)
    .leftJoin(psaEventSubscriptions, and(eq(psaEventSubscriptions.mspId, integrations.mspId)))
    .where(eq(integrations.connectWiseManageIntegrator, true));
  return rows.map((row) => ({ mspId: row.mspId, psaType: row.psaType, subscription: row.subscription }));
}
