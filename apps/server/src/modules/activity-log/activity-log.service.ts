import type { TActivityKind, TActivityPage } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import { activityCsvLine, csvLine, CSV_HEADER, presentActivity } from './activity-log.presenter';
import { isUserOfMsp, listActivity, listActivityPeople, streamActivity, type TActivityFilter, type TActivityRow } from './activity-log.repository';
import { resolveTargetLabels } from './activity-log.targets';

export interface TActivityQuery {
  page: number;
  pageSize: number;
  userId?: string | undefined;
  kind?: TActivityKind | undefined;
  /** Whole days of `tz` (UTC without it), both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** The IANA time zone the days are days of: the admin's browser's, so From and To match the times the table shows. */
  tz?: string | undefined;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (negative west of Greenwich). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  const wallClock = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wallClock - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a day (YYYY-MM-DD) starts in the time zone. The offset is read at the UTC midnight guess and again at the
 * answer, because a change of summer time between the two moves it; a midnight the clocks skip starts at the first
 * instant after the jump.
 */
export function startOfDay(day: string, timeZone = 'UTC'): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  const guess = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  const start = midnightUtc - zoneOffsetMs(guess, timeZone);
  // Still the day before on the zone's clock: midnight was skipped, and the guess is where the clocks jumped.
  return new Date(start + zoneOffsetMs(start, timeZone) < midnightUtc ? guess : start);
}

/** The day after a YYYY-MM-DD day, as YYYY-MM-DD. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 24 * 60 * 60_000).toISOString().slice(0, 10);

function filterOf(query: Omit<TActivityQuery, 'page' | 'pageSize'>): TActivityFilter {
  return {
    userId: query.userId ?? null,
    kind: query.kind ?? null,
    from: query.from ? startOfDay(query.from, query.tz) : null,
    until: query.to ? startOfDay(nextDay(query.to), query.tz) : null,
  };
}

/** The activity log (beyond the spec): the MSP's audit events — sign-ins, refusals and every change. */
export function createActivityLogService(deps: Pick<TAppDeps, 'database'>) {
  const db = deps.database.db;

  /** A person filter names one of this MSP's users; any other id is 404, as everywhere (DESIGN §4). */
  async function assertPerson(mspId: string, userId: string | undefined): Promise<void> {
    if (userId !== undefined && !(await isUserOfMsp(db, mspId, userId))) throw notFound();
  }

  /** Rows as events, their targets named with one lookup per kind of target for the whole batch. */
  async function present(mspId: string, rows: TActivityRow[]) {
    const labels = await resolveTargetLabels(db, mspId, rows);
    return rows.map((row) => presentActivity(row, labels.get(row.id) ?? null));
  }

  /** One page, newest first, with the people the filter offers. */
  async function listPage(mspId: string, query: TActivityQuery): Promise<TActivityPage> {
    await assertPerson(mspId, query.userId);
    const [{ rows, total }, people] = await Promise.all([listActivity(db, mspId, filterOf(query), query), listActivityPeople(db, mspId)]);
    return { items: await present(mspId, rows), total, page: query.page, pageSize: query.pageSize, people };
  }

  /**
   * The whole filtered log as CSV lines, read in batches so a long log never sits in memory. The filter is checked and
   * the first batch read before this returns, so a failure is still an error answer rather than a CSV cut short after
   * its headers have gone out.
   */
  async function csvLines(mspId: string, query: Omit<TActivityQuery, 'page' | 'pageSize'>): Promise<AsyncGenerator<string>> {
    await assertPerson(mspId, query.userId);
    const batches = streamActivity(db, mspId, filterOf(query));
    const first = await batches.next();
    const firstLines = first.done === true ? '' : (await present(mspId, first.value)).map(activityCsvLine).join('');
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(CSV_HEADER) + firstLines;
      if (first.done === true) return;
      for await (const batch of batches) yield (await present(mspId, batch)).map(activityCsvLine).join('');
    }
    return lines();
  }

  return { listPage, csvLines };
}
