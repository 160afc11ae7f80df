import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { integrations, psaEventSubscriptions, psaReconcileCursors, psaTickets, type TDatabase } from '@switchboard/db';

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

export type TReconcileCursorRow = typeof psaReconcileCursors.$inferSelect;

/** The MSP's reconcile cursor row (the cursor, an unfinished window, the deleted-ticket check's position), or null before its first pass. */
export async function findReconcileCursor(db: TDatabase, mspId: string): Promise<TReconcileCursorRow | null> {
  const [row] = await db.select().from(psaReconcileCursors).where(eq(psaReconcileCursors.mspId, mspId)).limit(1);
  return row ?? null;
}

/** Moves the MSP's reconcile cursor at the end of a complete window, and closes the window. */
export async function markReconciled(db: TDatabase, mspId: string, at: Date): Promise<void> {
  const closed = { windowSince: null, windowAfterId: null, windowStartedAt: null, windowLastUpdatedAt: null };
  await db.insert(psaReconcileCursors).values({ mspId, lastReconciledAt: at, ...closed }).onConflictDoUpdate({ target: psaReconcileCursors.mspId, set: { lastReconciledAt: at, ...closed } });
}

/**
 * Keeps the window a cut pass left unfinished (the next pass goes on after `afterId`); the cursor stays. Before the
 * MSP's first complete pass the cursor is set so that it, too, reads from the window's start (`cursorIfNone`).
 */
export async function saveReconcileWindow(
  db: TDatabase,
  mspId: string,
  window: { since: Date; afterId: number; startedAt: Date; lastUpdatedAt: Date | null },
  cursorIfNone: Date,
): Promise<void> {
  const set = { windowSince: window.since, windowAfterId: window.afterId, windowStartedAt: window.startedAt, windowLastUpdatedAt: window.lastUpdatedAt };
  await db.insert(psaReconcileCursors).values({ mspId, lastReconciledAt: cursorIfNone, ...set }).onConflictDoUpdate({ target: psaReconcileCursors.mspId, set });
}

/** Where the check for open copies deleted in the PSA goes on next pass (0: from the start). */
export async function saveCheckedAfterId(db: TDatabase, mspId: string, checkedAfterId: number): Promise<void> {
  await db.update(psaReconcileCursors).set({ checkedAfterId }).where(eq(psaReconcileCursors.mspId, mspId));
}

/** Ticket ids of the MSP's open copies above `afterId`, in id order: what the deleted-ticket check rereads next. */
export async function listOpenCopyIds(db: TDatabase, mspId: string, psaType: TPsaEventSubscriptionRow['psaType'], afterId: number, limit: number): Promise<number[]> {
  const ticketId = sql<number>`cast(${psaTickets.externalId} as integer)`;
  const rows = await db
    .select({ ticketId })
    .from(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), eq(psaTickets.isClosed, false), gt(ticketId, afterId)))
    .orderBy(asc(ticketId))
    .limit(limit);
  return rows.map((row) => Number(row.ticketId));
}

/** Removes the copies of tickets the PSA no longer has (their queue entries go with them). */
export async function deleteTicketCopies(db: TDatabase, mspId: string, psaType: TPsaEventSubscriptionRow['psaType'], ticketIds: readonly number[]): Promise<number> {
  if (ticketIds.length === 0) return 0;
  const removed = await db
    .delete(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), inArray(psaTickets.externalId, ticketIds.map(String))))
    .returning({ id: psaTickets.id });
  return removed.length;
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
