import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import { loadCategoriser, trainCategoriser, type TBoardCatalogue, type TCategoriser, type TTrainingTicket } from '@switchboard/assistant';
import { MESSAGES, type TPsaType } from '@switchboard/contracts';
import { categoriserModels, psaTickets, type TDatabase } from '@switchboard/db';
import { AppError } from '../../lib/app-error';
import { findLatestConfigPsaType, listStoredBoards, type TStoredBoard } from '../boards/boards.repository';
import { findIntegration } from '../integrations/integrations.repository';

/** The MSP's configured boards (boards module) as the engine sees them, with the stored rows for lookups. */
export interface TMspBoard {
  psaType: TPsaType;
  catalogue: TBoardCatalogue;
  stored: TStoredBoard[];
}

/** The MSP's PSA and its configured boards; null when it has no PSA or no board with a type yet. */
export async function loadMspBoard(db: TDatabase, mspId: string): Promise<TMspBoard | null> {
  const integration = await findIntegration(db, mspId);
  const psaType = integration?.psaType ?? (await findLatestConfigPsaType(db, mspId));
  if (!psaType) return null;
  const stored = await listStoredBoards(db, mspId, psaType);
  const catalogue: TBoardCatalogue = {
    boards: stored
      .map((board) => ({
        id: String(board.board.boardId),
        name: board.board.boardName,
        types: board.types
          .map((type) => ({
            id: String(type.typeId),
            name: type.typeName,
            subtypes: board.subtypes
              .filter((subtype) => subtype.typeId === type.typeId)
              .map((subtype) => ({ id: String(subtype.subtypeId), name: subtype.subtypeName, priorityId: subtype.priorityId === null ? null : String(subtype.priorityId), tier: subtype.tier, slaHours: subtype.slaHours })),
          }))
          .filter((type) => type.subtypes.length > 0),
      }))
      .filter((board) => board.types.length > 0),
  };
  if (catalogue.boards.length === 0) return null;
  return { psaType, catalogue, stored };
}

export const boardNotConfigured = () => new AppError('psa_not_configured', MESSAGES.assistant.boardNotConfigured);

/** Closed tickets with a type and subtype, oldest closed first: what the categoriser learns from. */
async function closedTickets(db: TDatabase, mspId: string, psaType: TPsaType, closedAfter: Date | null): Promise<{ tickets: TTrainingTicket[]; newestClosedAt: Date | null }> {
  const rows = await db
    .select({
      summary: psaTickets.summary,
      description: psaTickets.description,
      typeName: psaTickets.typeName,
      subtypeName: psaTickets.subtypeName,
      boardId: psaTickets.boardExternalId,
      resolution: psaTickets.resolution,
      closedAt: sql<Date | null>`coalesce(${psaTickets.psaClosedAt}, ${psaTickets.syncedAt})`,
    })
    .from(psaTickets)
    .where(
      and(
        eq(psaTickets.mspId, mspId),
        eq(psaTickets.psaType, psaType),
        eq(psaTickets.isClosed, true),
        isNotNull(psaTickets.typeName),
        isNotNull(psaTickets.subtypeName),
        closedAfter ? gt(sql`coalesce(${psaTickets.psaClosedAt}, ${psaTickets.syncedAt})`, closedAfter) : undefined,
      ),
    )
    .orderBy(asc(sql`coalesce(${psaTickets.psaClosedAt}, ${psaTickets.syncedAt})`))
    .limit(20_000);
  let newestClosedAt: Date | null = null;
  const tickets = rows.map((row) => {
    const closedAt = row.closedAt === null ? null : new Date(row.closedAt);
    if (closedAt && (!newestClosedAt || closedAt > newestClosedAt)) newestClosedAt = closedAt;
    return { summary: row.summary, description: row.description ?? '', typeName: row.typeName ?? '', subtypeName: row.subtypeName ?? '', boardId: row.boardId, resolution: row.resolution };
  });
  return { tickets, newestClosedAt };
}

interface TCached {
  categoriser: TCategoriser;
  boardKey: string;
  trainedUntil: Date | null;
  checkedAt: number;
}

/** How often a cached model looks for newly closed tickets to learn from. */
const RECHECK_MS = 60_000;

/**
 * The categoriser of each MSP (issue #9): trained on its closed ticket copies and its board, stored
 * serialised in categoriser_models, retrained when the board changes, and taught incrementally
 * (online update) from tickets closed since it was stored. Kept in memory between requests.
 */
export function createCategoriserStore(db: TDatabase, now: () => Date) {
  const cache = new Map<string, TCached>();
  const locks = new Map<string, Promise<TCategoriser>>();

  async function store(mspId: string, psaType: TPsaType, categoriser: TCategoriser, trainedUntil: Date | null): Promise<void> {
    const values = { model: JSON.parse(categoriser.serialise()) as unknown, trainedOn: categoriser.stats.trainedOn + categoriser.stats.updates, trainedUntil, macroF1: null, updatedAt: now() };
    await db
      .insert(categoriserModels)
      .values({ mspId, psaType, ...values })
      .onConflictDoUpdate({ target: [categoriserModels.mspId, categoriserModels.psaType], set: values });
  }

  async function learnSince(mspId: string, board: TMspBoard, entry: TCached): Promise<TCached> {
    const { tickets, newestClosedAt } = await closedTickets(db, mspId, board.psaType, entry.trainedUntil);
    if (tickets.length === 0) return { ...entry, checkedAt: now().getTime() };
    for (const ticket of tickets) entry.categoriser.update(ticket);
    await store(mspId, board.psaType, entry.categoriser, newestClosedAt);
    return { ...entry, trainedUntil: newestClosedAt, checkedAt: now().getTime() };
  }

  return {
    /** The MSP's categoriser for its current board (trained on first use). */
    async forMsp(mspId: string, board: TMspBoard, options: { isFresh?: boolean } = {}): Promise<TCategoriser> {
      // One update at a time per MSP: the cached model is taught in place, so two overlapping updates would learn a ticket twice.
      const previous = locks.get(mspId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(() => forMspNow(mspId, board, options));
      locks.set(mspId, next);
      try {
        return await next;
      } finally {
        if (locks.get(mspId) === next) locks.delete(mspId);
      }
    },

    /** Drops the MSP's model from memory: its data was started over for another PSA (decision 042). */
    forget(mspId: string): void {
      cache.delete(mspId);
    },
  };

  async function forMspNow(mspId: string, board: TMspBoard, options: { isFresh?: boolean }): Promise<TCategoriser> {
    const boardKey = JSON.stringify(board.catalogue);
    const cached = cache.get(mspId);
    if (cached && cached.boardKey === boardKey) {
      if (!options.isFresh && now().getTime() - cached.checkedAt < RECHECK_MS) return cached.categoriser;
      const refreshed = await learnSince(mspId, board, cached);
      cache.set(mspId, refreshed);
      return refreshed.categoriser;
    }
    const [row] = await db.select().from(categoriserModels).where(and(eq(categoriserModels.mspId, mspId), eq(categoriserModels.psaType, board.psaType))).limit(1);
    if (row) {
      try {
        const loaded = loadCategoriser(JSON.stringify(row.model));
        if (JSON.stringify(loaded.board) === boardKey) {
          const refreshed = await learnSince(mspId, board, { categoriser: loaded, boardKey, trainedUntil: row.trainedUntil, checkedAt: 0 });
          cache.set(mspId, refreshed);
          return refreshed.categoriser;
        }
      } catch {
        // An unreadable or outdated stored model is simply retrained below.
      }
    }
    const { tickets, newestClosedAt } = await closedTickets(db, mspId, board.psaType, null);
    const categoriser = trainCategoriser(board.catalogue, tickets);
    await store(mspId, board.psaType, categoriser, newestClosedAt);
    cache.set(mspId, { categoriser, boardKey, trainedUntil: newestClosedAt, checkedAt: now().getTime() });
    return categoriser;
  }
}

export type TCategoriserStore = ReturnType<typeof createCategoriserStore>;

const stores = new WeakMap<TDatabase, TCategoriserStore>();

/**
 * One categoriser store per app database: the chat and the learning job share its in-memory models, so a
 * ticket learnt by the job is not learnt a second time by a stale cached copy.
 */
export function categoriserStoreFor(db: TDatabase, now: () => Date): TCategoriserStore {
  let store = stores.get(db);
  if (!store) {
    store = createCategoriserStore(db, now);
    stores.set(db, store);
  }
  return store;
}
