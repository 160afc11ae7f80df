import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { TEditableBoard, TPsaType } from '@switchboard/contracts';
import { auditEvents, boardConfigs, boardPriorities, boardSubtypes, boardTypes, psaCompanies, psaTicketingConfigs, psaTickets, type TDatabase } from '@switchboard/db';
import type { THistoryTicket } from './board-scoring';

export type TTicketingConfigRow = typeof psaTicketingConfigs.$inferSelect;
export type TBoardConfigRow = typeof boardConfigs.$inferSelect;
export type TBoardTypeRow = typeof boardTypes.$inferSelect;
export type TBoardSubtypeRow = typeof boardSubtypes.$inferSelect;
export type TBoardPriorityRow = typeof boardPriorities.$inferSelect;

export interface TStoredBoard {
  board: TBoardConfigRow;
  types: TBoardTypeRow[];
  subtypes: TBoardSubtypeRow[];
  priorities: TBoardPriorityRow[];
}

/** Autotask's extra per-queue settings (null on ConnectWise). */
export interface TBoardExtras {
  ticketTypeId: number | null;
  ticketTypeLabel: string | null;
  ticketCategoryValue: number | null;
  ticketCategoryLabel: string | null;
  sourceValue: number | null;
  sourceLabel: string | null;
}
export const NO_EXTRAS: TBoardExtras = { ticketTypeId: null, ticketTypeLabel: null, ticketCategoryValue: null, ticketCategoryLabel: null, sourceValue: null, sourceLabel: null };

export async function findTicketingConfig(db: TDatabase, mspId: string, psaType: TPsaType): Promise<TTicketingConfigRow | undefined> {
  const [row] = await db.select().from(psaTicketingConfigs).where(and(eq(psaTicketingConfigs.mspId, mspId), eq(psaTicketingConfigs.psaType, psaType))).limit(1);
  return row;
}

/** Where A-050 put a board it created for this MSP (its `board.create` audit event), or undefined when it did not create it. */
export async function findBoardCreatedHere(db: TDatabase, mspId: string, boardId: number): Promise<{ departmentId: number; locationId: number } | undefined> {
  // The audit trail is the one record of which PSA boards Switchboard created; it is written with the create and never pruned.
  const [row] = await db
    .select({ details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.mspId, mspId), eq(auditEvents.action, 'board.create'), eq(auditEvents.target, String(boardId)), eq(auditEvents.outcome, 'success')))
    .orderBy(desc(auditEvents.createdAt))
    .limit(1);
  const departmentId = row?.details?.departmentId;
  const locationId = row?.details?.locationId;
  return typeof departmentId === 'number' && typeof locationId === 'number' ? { departmentId, locationId } : undefined;
}

/** The PSA type of the MSP's most recently saved configuration, when it has one. */
export async function findLatestConfigPsaType(db: TDatabase, mspId: string): Promise<TPsaType | undefined> {
  const [row] = await db.select({ psaType: psaTicketingConfigs.psaType }).from(psaTicketingConfigs).where(eq(psaTicketingConfigs.mspId, mspId)).orderBy(sql`${psaTicketingConfigs.updatedAt} desc`).limit(1);
  return row?.psaType;
}

/** Every stored board of the MSP under one PSA type, each with its types, subtypes and priorities in editor order. */
export async function listStoredBoards(db: TDatabase, mspId: string, psaType: TPsaType, boardIds?: number[]): Promise<TStoredBoard[]> {
  const scope = (table: typeof boardConfigs | typeof boardTypes | typeof boardSubtypes | typeof boardPriorities) =>
    and(eq(table.mspId, mspId), eq(table.psaType, psaType), boardIds ? inArray(table.boardId, boardIds) : undefined);
  if (boardIds?.length === 0) return [];
  const [boards, types, subtypes, priorities] = await Promise.all([
    db.select().from(boardConfigs).where(scope(boardConfigs)).orderBy(asc(boardConfigs.boardName)),
    db.select().from(boardTypes).where(scope(boardTypes)).orderBy(asc(boardTypes.position)),
    db.select().from(boardSubtypes).where(scope(boardSubtypes)).orderBy(asc(boardSubtypes.position)),
    db.select().from(boardPriorities).where(scope(boardPriorities)).orderBy(asc(boardPriorities.priorityId)),
  ]);
  return boards.map((board) => ({
    board,
    types: types.filter((row) => row.boardId === board.boardId),
    subtypes: subtypes.filter((row) => row.boardId === board.boardId),
    priorities: priorities.filter((row) => row.boardId === board.boardId),
  }));
}

export interface TConfigCommon {
  defaultCompanyId?: number | null;
  defaultCompanyName?: string | null;
  boardTicketSync?: { boardId: number; boardName: string }[];
  syncClientsTypeId?: number | null;
}

/** Creates the configuration row or updates the fields given (A-034 "add or update"). */
export async function upsertTicketingConfig(db: TDatabase, mspId: string, psaType: TPsaType, common: TConfigCommon, now: Date): Promise<void> {
  const set: Partial<typeof psaTicketingConfigs.$inferInsert> = { updatedAt: now };
  if (common.defaultCompanyId !== undefined) set.defaultCompanyId = common.defaultCompanyId;
  if (common.defaultCompanyName !== undefined) set.defaultCompanyName = common.defaultCompanyName;
  if (common.boardTicketSync !== undefined) set.boardTicketSync = common.boardTicketSync;
  if (common.syncClientsTypeId !== undefined) set.syncClientsTypeId = common.syncClientsTypeId;
  await db
    .insert(psaTicketingConfigs)
    .values({ mspId, psaType, ...set })
    .onConflictDoUpdate({ target: [psaTicketingConfigs.mspId, psaTicketingConfigs.psaType], set });
}

/**
 * When one board was last saved (its version, decision 012), or null when it is not stored; `isLocked` holds the row
 * until the transaction ends, so two saves of one board check and write one after the other.
 */
export async function findBoardSavedAt(db: TDatabase, mspId: string, psaType: TPsaType, boardId: number, isLocked = false): Promise<Date | null> {
  const query = db
    .select({ updatedAt: boardConfigs.updatedAt })
    .from(boardConfigs)
    .where(and(eq(boardConfigs.mspId, mspId), eq(boardConfigs.psaType, psaType), eq(boardConfigs.boardId, boardId)))
    .limit(1);
  const [row] = isLocked ? await query.for('update') : await query;
  return row?.updatedAt ?? null;
}

/** Replaces one board's stored configuration; `board` has only real ids by now. */
export async function replaceBoard(db: TDatabase, mspId: string, psaType: TPsaType, board: TEditableBoard & { boardId: number }, extras: TBoardExtras, now: Date): Promise<void> {
  const key = { mspId, psaType, boardId: board.boardId };
  const values = {
    boardName: board.boardName,
    newStatusId: board.newCreatingTicketStatusId,
    newStatusName: board.newCreatingTicketStatus,
    closingStatusId: board.closingTicketStatusId,
    closingStatusName: board.closingTicketStatus,
    ...extras,
    updatedAt: now,
  };
  await db.insert(boardConfigs).values({ ...key, ...values }).onConflictDoUpdate({ target: [boardConfigs.mspId, boardConfigs.psaType, boardConfigs.boardId], set: values });
  const where = <T extends typeof boardTypes | typeof boardPriorities>(table: T) => and(eq(table.mspId, mspId), eq(table.psaType, psaType), eq(table.boardId, board.boardId));
  // Subtypes go with their types (composite foreign key, on delete cascade).
  await db.delete(boardTypes).where(where(boardTypes));
  await db.delete(boardPriorities).where(where(boardPriorities));
  const types = board.mspConnectWiseBoardTypes.flatMap((type, position) => (type.typeId === null ? [] : [{ ...key, typeId: type.typeId, typeName: type.typeName, position }]));
  if (types.length > 0) await db.insert(boardTypes).values(types);
  const subtypes = board.mspConnectWiseBoardTypes.flatMap((type) =>
    type.typeId === null
      ? []
      : type.mspConnectWiseBoardSubTypes.flatMap((subType, position) =>
          subType.subTypeId === null
            ? []
            : [
                {
                  ...key,
                  typeId: type.typeId ?? 0,
                  subtypeId: subType.subTypeId,
                  subtypeName: subType.subTypeName,
                  priorityId: subType.priorityId,
                  priorityName: subType.priority,
                  priorityScore: subType.priorityScore,
                  subtypeScore: subType.subTypeScore,
                  tier: subType.tier,
                  slaHours: Math.round(subType.slaDeadLineInHours),
                  typeAssociationIds: subType.typeAssociationIds,
                  position,
                },
              ],
        ),
  );
  if (subtypes.length > 0) await db.insert(boardSubtypes).values(subtypes);
  if (board.priorities.length > 0) {
    await db.insert(boardPriorities).values(board.priorities.map((priority) => ({ ...key, priorityId: priority.priorityId, priorityName: priority.priority, priorityScore: priority.priorityScore })));
  }
}

/** A synchronized company of the MSP by its PSA id (the default company must be one). */
export async function findSyncedCompany(db: TDatabase, mspId: string, psaType: TPsaType, externalId: number): Promise<{ name: string } | undefined> {
  const [row] = await db
    .select({ name: psaCompanies.name })
    .from(psaCompanies)
    .where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), eq(psaCompanies.externalId, String(externalId))))
    .limit(1);
  return row;
}

/** Enough for stable percentiles; a busy board's older tickets say less about today's work. */
export const HISTORY_TICKET_LIMIT = 20_000;

/** The most recently closed tickets of one board in the synchronized copies: the history A-052 scores from. */
export async function listClosedTicketHistory(db: TDatabase, mspId: string, psaType: TPsaType, boardId: number): Promise<THistoryTicket[]> {
  return db
    .select({
      typeId: psaTickets.typeExternalId,
      typeName: psaTickets.typeName,
      subtypeId: psaTickets.subtypeExternalId,
      subtypeName: psaTickets.subtypeName,
      priorityId: psaTickets.priorityExternalId,
      priorityName: psaTickets.priorityName,
      timeSpentMinutes: psaTickets.timeSpentMinutes,
      createdAt: psaTickets.psaCreatedAt,
      closedAt: psaTickets.psaClosedAt,
    })
    .from(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), eq(psaTickets.boardExternalId, String(boardId)), eq(psaTickets.isClosed, true)))
    .orderBy(desc(sql`coalesce(${psaTickets.psaClosedAt}, ${psaTickets.psaUpdatedAt}, ${psaTickets.syncedAt})`))
    .limit(HISTORY_TICKET_LIMIT);
}

/** Up to `limit` synchronized companies whose name contains `search`, by name: the default-company choices. */
export async function searchSyncedCompanies(db: TDatabase, mspId: string, psaType: TPsaType, search: string, limit: number): Promise<{ id: number; name: string }[]> {
  const pattern = `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await db
    .select({ externalId: psaCompanies.externalId, name: psaCompanies.name })
    .from(psaCompanies)
    .where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), eq(psaCompanies.isActive, true), search === '' ? undefined : ilike(psaCompanies.name, pattern)))
    .orderBy(asc(psaCompanies.name))
    .limit(limit);
  return rows.flatMap((row) => (/^\d+$/.test(row.externalId) ? [{ id: Number(row.externalId), name: row.name }] : []));
}
