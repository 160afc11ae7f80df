import { and, eq, isNull } from 'drizzle-orm';
import { BOARD_DEFAULTS, MESSAGES } from '@switchboard/contracts';
import { psaTickets, queueEvents, queueTickets, type TDatabase } from '@switchboard/db';
import { loadDemoData } from '@switchboard/psa-sim';
import type { TAppDeps } from '../app-deps';
import { listStoredBoards, type TStoredBoard } from '../modules/boards/boards.repository';
import { insertQueueEvent } from '../modules/queue/queue-events.repository';
import { queueTimeZoneOf } from '../modules/queue/queue-settings.repository';
import { dayIn, sessionFlag, shiftDay, startOfDayIn, tierRank } from '../modules/queue/queue.scoring';
import { insertSession, insertTimer } from '../modules/queue/timers.repository';
import { findActiveTechniciansByEmail } from '../modules/teams/teams.repository';
import { DEMO_SIGN_INS } from './seed-demo';

/** How many working days (Monday to Friday) before today the demo technicians have a record of; today's work so far comes on top. */
export const DEMO_WORK_DAYS = 10;

const PSA_TYPE = 'CONNECTWISE' as const;
const MINUTE_MS = 60_000;
/** A demo working day: the first ticket is taken between 8:30 and 9:10, none is finished after 17:45 (the MSP's wall clock). */
const WORKDAY = { startMinute: 8 * 60 + 30, startJitter: 40, lastEndMinute: 17 * 60 + 45 };
/** What a ticket without recorded time took (minutes), and the most one ticket takes in a day. */
const MINUTES = { min: 15, max: 90, cap: 240 };

type TCopy = {
  id: string;
  externalId: string;
  ownerExternalId: string | null;
  typeExternalId: string | null;
  subtypeExternalId: string | null;
  priorityExternalId: string | null;
  timeSpentMinutes: number | null;
  closedAt: Date | null;
};

type TPlannedTicket = {
  copy: TCopy;
  techId: string;
  claimedAt: Date;
  sessions: Array<{ startedAt: Date; endedAt: Date }>;
  completedAt: Date;
};

/** A number in [0, 1) from a key (FNV-1a): the demo's "chance" is the same on every machine and every start. */
function unitOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193) >>> 0;
  return hash / 0x1_0000_0000;
}
const between = (key: string, min: number, max: number) => min + Math.floor(unitOf(key) * (max - min + 1));
const plusMinutes = (at: Date, minutes: number) => new Date(at.getTime() + minutes * MINUTE_MS);

const isWorkingDay = (day: string) => {
  const weekday = new Date(`${day}T12:00:00.000Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/** Today (when a working day) and the DEMO_WORK_DAYS working days before it, oldest first, in the MSP's time zone. */
function workingDaysUpTo(now: Date, timeZone: string): string[] {
  const today = dayIn(now, timeZone);
  const days = isWorkingDay(today) ? [today] : [];
  for (let day = shiftDay(today, -1); days.length < DEMO_WORK_DAYS + (isWorkingDay(today) ? 1 : 0); day = shiftDay(day, -1)) if (isWorkingDay(day)) days.push(day);
  return days.reverse();
}

/**
 * The closed history copies of the demo board that have no queue row yet, and the order a technician's day takes them
 * in: the ones they closed in the PSA that day, then their own from before the window, then anyone's from before it
 * who is not a demo technician (most recent first), so a copy another demo technician closed stays theirs.
 */
function copyPicker(copies: TCopy[], memberIds: Set<string>, windowStart: Date, timeZone: string) {
  const used = new Set<string>();
  const byRecency = (a: TCopy, b: TCopy) => (b.closedAt?.getTime() ?? 0) - (a.closedAt?.getTime() ?? 0) || Number(a.externalId) - Number(b.externalId);
  const beforeWindow = copies.filter((copy) => copy.closedAt === null || copy.closedAt < windowStart).sort(byRecency);
  const others = beforeWindow.filter((copy) => copy.ownerExternalId === null || !memberIds.has(copy.ownerExternalId));
  return {
    next(day: string, memberId: string | null): TCopy | undefined {
      const own = memberId === null ? [] : copies.filter((copy) => copy.ownerExternalId === memberId);
      const closedThatDay = own.filter((copy) => copy.closedAt !== null && dayIn(copy.closedAt, timeZone) === day).sort(byRecency);
      const ownBefore = beforeWindow.filter((copy) => memberId !== null && copy.ownerExternalId === memberId);
      return [...closedThatDay, ...ownBefore, ...others].find((copy) => !used.has(copy.id));
    },
    take(copy: TCopy) {
      used.add(copy.id);
    },
  };
}

/**
 * One technician's day: tickets one after another from the morning, each worked for the time the history recorded (or a
 * believable 15–90 minutes), a long one in two sittings with a pause; nothing after the end of the working day or `until`.
 */
function planDay(day: string, timeZone: string, technician: { id: string; email: string; psaMemberId: string | null }, until: Date, picker: ReturnType<typeof copyPicker>): TPlannedTicket[] {
  const midnight = startOfDayIn(day, timeZone);
  const dayEnd = plusMinutes(midnight, WORKDAY.lastEndMinute);
  const limit = until < dayEnd ? until : dayEnd;
  const key = `${day}:${technician.email}`;
  let cursor = plusMinutes(midnight, WORKDAY.startMinute + between(`${key}:start`, 0, WORKDAY.startJitter));
  const planned: TPlannedTicket[] = [];
  const count = between(`${key}:count`, 3, 5);
  while (planned.length < count) {
    const copy = picker.next(day, technician.psaMemberId);
    if (!copy) break;
    const minutes = Math.min(Math.max(copy.timeSpentMinutes ?? between(`${copy.externalId}:minutes`, MINUTES.min, MINUTES.max), 5), MINUTES.cap);
    const firstStart = plusMinutes(cursor, between(`${copy.externalId}:pickup`, 2, 8));
    const firstPart = minutes > 60 ? Math.round(minutes * (0.4 + 0.2 * unitOf(`${copy.externalId}:split`))) : minutes;
    const sessions = [{ startedAt: firstStart, endedAt: plusMinutes(firstStart, firstPart) }];
    if (firstPart < minutes) {
      const resumed = plusMinutes(firstStart, firstPart + between(`${copy.externalId}:pause`, 10, 40));
      sessions.push({ startedAt: resumed, endedAt: plusMinutes(resumed, minutes - firstPart) });
    }
    const completedAt = sessions[sessions.length - 1]?.endedAt ?? firstStart;
    // Past the working day (or today's now), or a session the queue would flag for confirmation: the day is full.
    if (completedAt > limit || sessions.some((session) => sessionFlag(session.startedAt, session.endedAt, timeZone) !== null)) break;
    picker.take(copy);
    planned.push({ copy, techId: technician.id, claimedAt: cursor, sessions, completedAt });
    cursor = plusMinutes(completedAt, between(`${copy.externalId}:gap`, 5, 25));
  }
  return planned;
}

/**
 * When the ticket came in, so that its SLA (the board's hours for its subtype) was met, or, for about one in eight, missed
 * (and any whose work alone took longer than its SLA).
 */
function slaOf(planned: TPlannedTicket, slaHours: number): { createdAt: Date; slaDueAt: Date } {
  const key = planned.copy.externalId;
  const spanMinutes = (planned.completedAt.getTime() - planned.claimedAt.getTime()) / MINUTE_MS;
  const slaMinutes = slaHours * 60;
  const isMissed = between(`${key}:sla`, 0, 7) === 0;
  const waitMinutes = isMissed
    ? Math.max(0, slaMinutes - spanMinutes) + between(`${key}:late`, 10, 120)
    : slaMinutes > spanMinutes
      ? Math.floor((slaMinutes - spanMinutes) * (0.15 + 0.7 * unitOf(`${key}:wait`)))
      : between(`${key}:wait`, 5, 20);
  const createdAt = plusMinutes(planned.claimedAt, -waitMinutes);
  return { createdAt, slaDueAt: plusMinutes(createdAt, slaMinutes) };
}

/** Writes one worked, completed and closed ticket: its queue row, timer, sessions and events, as the queue would have. */
async function writeWorkedTicket(tx: TDatabase, mspId: string, board: TStoredBoard, planned: TPlannedTicket): Promise<void> {
  const { copy } = planned;
  const subtype = board.subtypes.find((row) => String(row.typeId) === copy.typeExternalId && String(row.subtypeId) === copy.subtypeExternalId);
  const priority = board.priorities.find((row) => String(row.priorityId) === copy.priorityExternalId);
  const slaHours = subtype?.slaHours ?? BOARD_DEFAULTS.slaHours.CONNECTWISE;
  const { createdAt, slaDueAt } = slaOf(planned, slaHours);
  const tier = subtype?.tier ?? 'Tier1';
  const firstStart = planned.sessions[0]?.startedAt ?? planned.claimedAt;
  const [row] = await tx
    .insert(queueTickets)
    .values({
      mspId,
      ticketRowId: copy.id,
      psaTicketId: Number(copy.externalId),
      boardId: board.board.boardId,
      tier,
      tierRank: tierRank(tier),
      priorityScore: priority?.priorityScore ?? subtype?.priorityScore ?? 0,
      subtypeScore: subtype?.subtypeScore ?? 0,
      slaHours,
      slaDueAt,
      ticketCreatedAt: createdAt,
      state: 'closed',
      assignedTechId: planned.techId,
      claimedAt: planned.claimedAt,
      startedAt: firstStart,
      completedAt: planned.completedAt,
      closedAt: planned.completedAt,
      updatedAt: planned.completedAt,
    })
    .returning({ id: queueTickets.id });
  if (!row) throw new Error('Demo work history: queue row insert returned no row');
  const timer = await insertTimer(tx, { mspId, queueTicketId: row.id, techId: planned.techId, state: 'completed', startedAt: firstStart, completedAt: planned.completedAt, notes: MESSAGES.queue.completed });
  for (const session of planned.sessions) {
    await insertSession(tx, { mspId, timerId: timer.id, queueTicketId: row.id, techId: planned.techId, startedAt: session.startedAt, endedAt: session.endedAt, flag: null });
  }
  // As A-119's close by the technician who worked it writes them: the completion with its SLA due time, then the close.
  await insertQueueEvent(tx, mspId, row.id, planned.techId, 'completed', planned.completedAt, { slaDueAt: slaDueAt.toISOString() });
  await insertQueueEvent(tx, mspId, row.id, planned.techId, 'closed', planned.completedAt);
}

const hasQueueCompletions = async (db: TDatabase, mspId: string) =>
  (await db.select({ id: queueEvents.id }).from(queueEvents).where(and(eq(queueEvents.mspId, mspId), eq(queueEvents.kind, 'completed'))).limit(1)).length > 0;

/**
 * The demo technicians' past work (first-run review: the Dashboards were all zeros, because the demo history is ticket
 * copies and the Dashboards count queue work): for the last DEMO_WORK_DAYS working days in the MSP's time zone and today
 * so far, closed history copies of the demo board worked through the queue by the demo technicians (closed queue rows,
 * ended timer sessions, `completed` events with their SLA due time, `closed` events). Nothing goes to the PSA (no outbox
 * row) and nothing awaits confirmation; the open tickets' queue rows are not touched. Idempotent: an MSP with any
 * completion in its queue keeps what it has. Returns the days and tickets written.
 */
export async function seedDemoWorkHistory(deps: Pick<TAppDeps, 'database' | 'now'>, mspId: string): Promise<{ days: number; tickets: number }> {
  const db = deps.database.db;
  const none = { days: 0, tickets: 0 };
  if (await hasQueueCompletions(db, mspId)) return none;
  const board = (await listStoredBoards(db, mspId, PSA_TYPE)).find((stored) => stored.board.boardName === loadDemoData().boardTemplate.boardName);
  if (!board) return none;
  const emails = DEMO_SIGN_INS.filter((signIn) => signIn.kind === 'technician').map((signIn) => signIn.email);
  const found = await findActiveTechniciansByEmail(db, mspId, emails);
  const technicians = emails.flatMap((email) => found.filter((user) => user.email.toLowerCase() === email));
  if (technicians.length === 0) return none;

  const now = deps.now();
  const timeZone = await queueTimeZoneOf(db, mspId);
  const days = workingDaysUpTo(now, timeZone);
  const firstDay = days[0];
  if (firstDay === undefined) return none;
  const copies = (
    await db
      .select({
        id: psaTickets.id,
        externalId: psaTickets.externalId,
        ownerExternalId: psaTickets.ownerExternalId,
        typeExternalId: psaTickets.typeExternalId,
        subtypeExternalId: psaTickets.subtypeExternalId,
        priorityExternalId: psaTickets.priorityExternalId,
        timeSpentMinutes: psaTickets.timeSpentMinutes,
        closedAt: psaTickets.psaClosedAt,
      })
      .from(psaTickets)
      .leftJoin(queueTickets, and(eq(queueTickets.mspId, psaTickets.mspId), eq(queueTickets.ticketRowId, psaTickets.id)))
      .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, PSA_TYPE), eq(psaTickets.boardExternalId, String(board.board.boardId)), eq(psaTickets.isClosed, true), isNull(queueTickets.id)))
  ).filter((copy) => /^[0-9]{1,9}$/.test(copy.externalId));
  const memberIds = new Set(technicians.flatMap((technician) => (technician.psaMemberId === null ? [] : [technician.psaMemberId])));
  const picker = copyPicker(copies, memberIds, startOfDayIn(firstDay, timeZone), timeZone);
  const planned = days.flatMap((day) => technicians.flatMap((technician) => planDay(day, timeZone, technician, now, picker)));
  if (planned.length === 0) return none;

  const written = await db.transaction(async (tx) => {
    // A second start that raced this one wrote the history already.
    if (await hasQueueCompletions(tx, mspId)) return false;
    for (const ticket of planned) await writeWorkedTicket(tx, mspId, board, ticket);
    return true;
  });
  if (!written) return none;
  return { days: new Set(planned.map((ticket) => dayIn(ticket.completedAt, timeZone))).size, tickets: planned.length };
}
