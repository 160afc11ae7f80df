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
  /** Whole days (UTC), both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

const DAY_MS = 24 * 60 * 60_000;

function filterOf(query: Omit<TActivityQuery, 'page' | 'pageSize'>): TActivityFilter {
  return {
    userId: query.userId ?? null,
    kind: query.kind ?? null,
    from: query.from ? new Date(`${query.from}T00:00:00.000Z`) : null,
    until: query.to ? new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS) : null,
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

  /** The whole filtered log as CSV lines, read in batches so a long log never sits in memory; the filter is checked before the first byte. */
  async function csvLines(mspId: string, query: Omit<TActivityQuery, 'page' | 'pageSize'>): Promise<AsyncGenerator<string>> {
    await assertPerson(mspId, query.userId);
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(CSV_HEADER);
      for await (const batch of streamActivity(db, mspId, filterOf(query))) yield (await present(mspId, batch)).map(activityCsvLine).join('');
    }
    return lines();
  }

  return { listPage, csvLines };
}
