import { and, count, eq, isNotNull } from 'drizzle-orm';
import { boardSubtypes, psaCompanies, psaContacts, teams, users, wizardProgress, type TDatabase } from '@switchboard/db';

export type TWizardProgressRow = typeof wizardProgress.$inferSelect;

/** The MSP's wizard row, or null when it never opened the wizard (it is then on step 1). */
export async function findWizardProgress(db: TDatabase, mspId: string): Promise<TWizardProgressRow | null> {
  const [row] = await db.select().from(wizardProgress).where(eq(wizardProgress.mspId, mspId)).limit(1);
  return row ?? null;
}

export type TWizardProgressChange = Pick<TWizardProgressRow, 'currentStep' | 'completedSteps' | 'boardId' | 'boardName' | 'finishedAt'>;

/** Writes the whole progress (one row per MSP). */
export async function saveWizardProgress(db: TDatabase, mspId: string, change: TWizardProgressChange, now: Date): Promise<TWizardProgressRow> {
  const [row] = await db
    .insert(wizardProgress)
    .values({ mspId, ...change, updatedAt: now })
    .onConflictDoUpdate({ target: wizardProgress.mspId, set: { ...change, updatedAt: now } })
    .returning();
  if (!row) throw new Error('wizard progress not saved');
  return row;
}

/** back to step 1 with nothing completed (called when the PSA is disconnected). */
export async function resetWizardProgress(db: TDatabase, mspId: string): Promise<void> {
  await db.delete(wizardProgress).where(eq(wizardProgress.mspId, mspId));
}

/** How many saved subtypes the stored board has (stored subtypes exist at the PSA, so none is new). */
export async function countSavedSubtypesOfBoard(db: TDatabase, mspId: string, boardId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(boardSubtypes).where(and(eq(boardSubtypes.mspId, mspId), eq(boardSubtypes.boardId, boardId)));
  return row?.total ?? 0;
}

/** Active technicians imported from PSA members (wizard step 2's result); a deactivated one no longer counts. */
export async function countImportedTechnicians(db: TDatabase, mspId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'technician'), isNotNull(users.psaMemberId), eq(users.isActive, true)));
  return row?.total ?? 0;
}

/** Teams on one board (wizard step 3's result for the board chosen in step 1). */
export async function countTeamsOnBoard(db: TDatabase, mspId: string, boardId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(teams).where(and(eq(teams.mspId, mspId), eq(teams.boardId, boardId)));
  return row?.total ?? 0;
}

type TPsaTypeName = (typeof psaCompanies.$inferSelect)['psaType'];

/** Client companies saved from one PSA (wizard step 4's result). */
export async function countSavedCompanies(db: TDatabase, mspId: string, psaType: TPsaTypeName): Promise<number> {
  const [row] = await db.select({ total: count() }).from(psaCompanies).where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType)));
  return row?.total ?? 0;
}

/** Contacts saved from one PSA (wizard step 5's result). */
export async function countSavedContacts(db: TDatabase, mspId: string, psaType: TPsaTypeName): Promise<number> {
  const [row] = await db.select({ total: count() }).from(psaContacts).where(and(eq(psaContacts.mspId, mspId), eq(psaContacts.psaType, psaType)));
  return row?.total ?? 0;
}
