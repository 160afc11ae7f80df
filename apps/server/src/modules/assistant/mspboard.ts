import { and, asc, eq, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { loadCategoriser, predictionKey, type TBoardCatalogue, type TCategoriser, type TTrainingTicket } from '@switchboard/assistant';
import { MESSAGES, type TPsaType } from '@switchboard/contracts';
import { categoriserModels, psaTickets, type TDatabase } from '@switchboard/db';
import { AppError } from '../../lib/app-error';
import { findLatestConfigPsaType, listStoredBoards, type TStoredBoard } from '../boards/boards.repository';
import { findIntegration } from '../integrations/integrations.repository';
import { trainInWorker, type TTrainCategoriser } from './categoriser-training';

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

/**
 * How long a closed ConnectWise copy without a description waits for its notes (decision 035: its description is a note,
 * read in the background) before the categoriser learns it from what it has: the notes reader may be off, or behind.
 */
export const NOTES_WAIT_MS = 6 * 3_600_000;

/** Copies marked learnt per statement when a model is stored. */
const MARK_PER_STATEMENT = 1_000;

/** Closed copies one learning pass takes (the oldest closed first); the next pass takes the rest. */
const PENDING_PER_PASS = 5_000;

interface TLearnable {
  id: string;
  ticket: TTrainingTicket;
  closedAt: Date | null;
}

/**
 * Closed tickets with a type and subtype, oldest closed first: what the categoriser learns from. `isPendingOnly` keeps
 * those it has not learnt yet. A ConnectWise copy without a description waits for its notes, up to NOTES_WAIT_MS.
 */
async function closedTickets(db: TDatabase, mspId: string, psaType: TPsaType, at: Date, options: { isPendingOnly: boolean }): Promise<TLearnable[]> {
  const closedAt = sql<Date | null>`coalesce(${psaTickets.psaClosedAt}, ${psaTickets.syncedAt})`;
  const rows = await db
    .select({
      id: psaTickets.id,
      summary: psaTickets.summary,
      description: psaTickets.description,
      typeName: psaTickets.typeName,
      subtypeName: psaTickets.subtypeName,
      boardId: psaTickets.boardExternalId,
      resolution: psaTickets.resolution,
      closedAt,
    })
    .from(psaTickets)
    .where(
      and(
        eq(psaTickets.mspId, mspId),
        eq(psaTickets.psaType, psaType),
        eq(psaTickets.isClosed, true),
        isNotNull(psaTickets.typeName),
        isNotNull(psaTickets.subtypeName),
        options.isPendingOnly ? isNull(psaTickets.categoriserLearntAt) : undefined,
        or(
          ne(psaTickets.psaType, 'CONNECTWISE'),
          isNotNull(psaTickets.notesReadAt),
          sql`coalesce(${psaTickets.description}, '') <> ''`,
          lte(psaTickets.syncedAt, new Date(at.getTime() - NOTES_WAIT_MS)),
        ),
      ),
    )
    .orderBy(asc(closedAt))
    .limit(options.isPendingOnly ? PENDING_PER_PASS : 20_000);
  return rows.map((row) => ({
    id: row.id,
    closedAt: row.closedAt === null ? null : new Date(row.closedAt),
    ticket: { summary: row.summary, description: row.description ?? '', typeName: row.typeName ?? '', subtypeName: row.subtypeName ?? '', boardId: row.boardId, resolution: row.resolution },
  }));
}

const newestOf = (dates: (Date | null)[], since: Date | null): Date | null => dates.reduce<Date | null>((newest, date) => (date && (!newest || date > newest) ? date : newest), since);

/** Another process learnt some of these copies first: its stored model is read again instead. */
class LearntElsewhere extends Error {}

interface TCached {
  categoriser: TCategoriser;
  predictionKey: string;
  trainedUntil: Date | null;
  checkedAt: number;
}

/** How often a cached model looks for newly closed tickets to learn from. */
const RECHECK_MS = 60_000;

/** What a caller of forMsp may ask: `isFresh` learns pending copies now; aborting `signal` stops a full training (the job's, on shutdown). */
export interface TForMspOptions {
  isFresh?: boolean;
  signal?: AbortSignal;
}

/**
 * The categoriser of each MSP (issue #9): trained on its closed ticket copies and its board, stored serialised in
 * categoriser_models, retrained only when the board changes what it predicts (a tier or SLA edit is taken as it is), and
 * taught incrementally (online update) from each closed copy it has not learnt yet (psa_tickets.categoriser_learnt_at,
 * marked in the transaction that stores the model). Kept in memory between requests. A full training runs in a worker
 * thread (`train`, decision 045); an update stays on this thread (1,000 updates take tens of milliseconds).
 */
export function createCategoriserStore(db: TDatabase, now: () => Date, train: TTrainCategoriser = trainInWorker) {
  const cache = new Map<string, TCached>();
  const locks = new Map<string, Promise<TCategoriser>>();

  /**
   * Stores the model and marks the copies it learnt, together. `isNewModel` (a full training) marks them whatever they
   * held; an update marks only copies still unmarked, and refuses (LearntElsewhere) when another process marked one first.
   */
  async function store(mspId: string, psaType: TPsaType, categoriser: TCategoriser, serialised: string, trainedUntil: Date | null, learnt: readonly string[], isNewModel: boolean): Promise<void> {
    const at = now();
    const values = { trainedOn: categoriser.stats.trainedOn + categoriser.stats.updates, trainedUntil, macroF1: null, updatedAt: at };
    await db.transaction(async (tx) => {
      // In slices: on PGlite each statement holds the server's thread while it runs (20,000 rows at once took seconds).
      for (let start = 0; start < learnt.length; start += MARK_PER_STATEMENT) {
        const slice = learnt.slice(start, start + MARK_PER_STATEMENT);
        const ids = sql`(select jsonb_array_elements_text(${JSON.stringify(slice)}::jsonb)::uuid)`;
        const marked = await tx
          .update(psaTickets)
          .set({ categoriserLearntAt: at })
          .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), sql`${psaTickets.id} in ${ids}`, isNewModel ? undefined : isNull(psaTickets.categoriserLearntAt)))
          .returning({ id: psaTickets.id });
        if (!isNewModel && marked.length < slice.length) throw new LearntElsewhere();
      }
      // The serialised JSON goes to the database as it is, once (the update takes the inserted row's): parsed here and
      // stringified again by the driver, or sent twice, a model of 20,000 tickets (about 4 MB) held the thread longer.
      await tx
        .insert(categoriserModels)
        .values({ mspId, psaType, model: sql`${serialised}::jsonb`, ...values })
        .onConflictDoUpdate({ target: [categoriserModels.mspId, categoriserModels.psaType], set: { model: sql`excluded.model`, ...values } });
    });
  }

  /** Teaches the model the closed copies it has not learnt yet and stores it; the cache entry is dropped when that fails. */
  async function learnPending(mspId: string, board: TMspBoard, entry: TCached): Promise<TCached> {
    const pending = await closedTickets(db, mspId, board.psaType, now(), { isPendingOnly: true });
    if (pending.length === 0) return { ...entry, checkedAt: now().getTime() };
    // The cached model is taught in place: if the store fails, it holds what the stored one does not, so it is dropped
    // and the next pass starts again from the stored model (it learnt every ticket twice before).
    cache.delete(mspId);
    for (const { ticket } of pending) entry.categoriser.update(ticket);
    const trainedUntil = newestOf(pending.map((item) => item.closedAt), entry.trainedUntil);
    await store(mspId, board.psaType, entry.categoriser, entry.categoriser.serialise(), trainedUntil, pending.map((item) => item.id), false);
    return { ...entry, trainedUntil, checkedAt: now().getTime() };
  }

  return {
    /** The MSP's categoriser for its current board (trained on first use). */
    async forMsp(mspId: string, board: TMspBoard, options: TForMspOptions = {}): Promise<TCategoriser> {
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

  /** The model on the current board: the same model when the edit keeps its classes (a tier, SLA or priority change). */
  function onBoard(categoriser: TCategoriser, board: TMspBoard): TCategoriser {
    return JSON.stringify(categoriser.board) === JSON.stringify(board.catalogue) ? categoriser : categoriser.withBoard(board.catalogue);
  }

  async function forMspNow(mspId: string, board: TMspBoard, options: TForMspOptions & { isRetry?: boolean }): Promise<TCategoriser> {
    const key = predictionKey(board.catalogue);
    const cached = cache.get(mspId);
    if (cached && cached.predictionKey === key) {
      const current = { ...cached, categoriser: onBoard(cached.categoriser, board) };
      cache.set(mspId, current);
      if (!options.isFresh && now().getTime() - current.checkedAt < RECHECK_MS) return current.categoriser;
      const refreshed = await learnPendingOrReload(mspId, board, current);
      if (refreshed) return refreshed;
    }
    const [row] = await db.select().from(categoriserModels).where(and(eq(categoriserModels.mspId, mspId), eq(categoriserModels.psaType, board.psaType))).limit(1);
    if (row) {
      let loaded: TCategoriser | null = null;
      try {
        const stored = loadCategoriser(JSON.stringify(row.model));
        if (predictionKey(stored.board) === key) loaded = onBoard(stored, board);
      } catch {
        // An unreadable or outdated stored model is simply retrained below.
      }
      if (loaded) {
        const refreshed = await learnPendingOrReload(mspId, board, { categoriser: loaded, predictionKey: key, trainedUntil: row.trainedUntil, checkedAt: 0 });
        if (refreshed) return refreshed;
        // Another process stored a model with those copies meanwhile: read it once more (it has them); after a second
        // race the loaded model answers as it is and a later pass learns.
        if (!options.isRetry) return forMspNow(mspId, board, { ...options, isRetry: true });
        return loaded;
      }
    }
    const tickets = await closedTickets(db, mspId, board.psaType, now(), { isPendingOnly: false });
    // Nothing is stored when the training fails (its worker crashed, or the server is closing): the job fails and is retried.
    const { categoriser, serialised } = await train({ board: board.catalogue, tickets: tickets.map((item) => item.ticket) }, options.signal ? { signal: options.signal } : {});
    const trainedUntil = newestOf(tickets.map((item) => item.closedAt), null);
    await store(mspId, board.psaType, categoriser, serialised, trainedUntil, tickets.map((item) => item.id), true);
    cache.set(mspId, { categoriser, predictionKey: key, trainedUntil, checkedAt: now().getTime() });
    return categoriser;
  }

  /** learnPending, caching the result; null when another process learnt the same copies first (its model is read again). */
  async function learnPendingOrReload(mspId: string, board: TMspBoard, entry: TCached): Promise<TCategoriser | null> {
    try {
      const refreshed = await learnPending(mspId, board, entry);
      cache.set(mspId, refreshed);
      return refreshed.categoriser;
    } catch (error) {
      if (error instanceof LearntElsewhere) return null;
      throw error;
    }
  }
}

export type TCategoriserStore = ReturnType<typeof createCategoriserStore>;

const stores = new WeakMap<TDatabase, TCategoriserStore>();

/**
 * One categoriser store per app database: the chat and the learning job share its in-memory models, so a
 * ticket learnt by the job is not learnt a second time by a stale cached copy. `train` is taken by the call that builds
 * the store: the tickets-by-chat module's, registered before the email connector's (app deps' `trainCategoriser`).
 */
export function categoriserStoreFor(db: TDatabase, now: () => Date, train: TTrainCategoriser = trainInWorker): TCategoriserStore {
  let store = stores.get(db);
  if (!store) {
    store = createCategoriserStore(db, now, train);
    stores.set(db, store);
  }
  return store;
}
