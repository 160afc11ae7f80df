import { and, asc, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TActivityKind } from '@switchboard/contracts';
import { auditEvents, users, type TDatabase } from '@switchboard/db';

/** Which audit actions make up each kind the log filters by (checked in this order; the rest are changes). */
const KIND_PREFIXES: ReadonlyArray<readonly [Exclude<TActivityKind, 'change'>, readonly string[]]> = [
  ['access-refused', ['access.']],
  // Signing in and out only: the authenticator app, passwords and activation (auth.totp.*, auth.password_*,
  // auth.activation) change the account, so they fall through to 'account'.
  ['sign-in', ['auth.sign_in', 'auth.two_factor', 'auth.lockout', 'auth.logout', 'account.sign_in', 'account.provider_sign_in']],
  // Giving a person another role is a role event (review s29 #2), though it is recorded against the person (user.*).
  ['role', ['role.', 'user.role_change']],
  ['account', ['auth.', 'technician.', 'client_user.', 'user.', 'public_user.', 'account.', 'team_member.']],
];

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
const matchesAny = (prefixes: readonly string[]): SQL => or(...prefixes.map((prefix) => sql`${auditEvents.action} like ${likePrefix(prefix)}`)) ?? sql`false`;

/** The kind of one action, as the filter sees it. */
export function kindOfAction(action: string): TActivityKind {
  for (const [kind, prefixes] of KIND_PREFIXES) if (prefixes.some((prefix) => action.startsWith(prefix))) return kind;
  return 'change';
}

function kindCondition(kind: TActivityKind): SQL {
  const index = KIND_PREFIXES.findIndex(([candidate]) => candidate === kind);
  const earlier = (index === -1 ? KIND_PREFIXES : KIND_PREFIXES.slice(0, index)).flatMap(([, prefixes]) => prefixes);
  const notEarlier = earlier.length > 0 ? sql`not (${matchesAny(earlier)})` : undefined;
  const entry = KIND_PREFIXES[index];
  return and(notEarlier, entry ? matchesAny(entry[1]) : undefined) ?? sql`true`;
}

export interface TActivityFilter {
  userId: string | null;
  kind: TActivityKind | null;
  /** Inclusive start, exclusive end. */
  from: Date | null;
  until: Date | null;
}

const whereOf = (mspId: string, filter: TActivityFilter) =>
  and(
    eq(auditEvents.mspId, mspId),
    filter.userId === null ? undefined : eq(auditEvents.actorId, filter.userId),
    filter.kind === null ? undefined : kindCondition(filter.kind),
    filter.from === null ? undefined : gte(auditEvents.createdAt, filter.from),
    filter.until === null ? undefined : lt(auditEvents.createdAt, filter.until),
  );

const selection = {
  id: auditEvents.id,
  createdAt: auditEvents.createdAt,
  actorKind: auditEvents.actorKind,
  actorId: auditEvents.actorId,
  action: auditEvents.action,
  target: auditEvents.target,
  outcome: auditEvents.outcome,
  ip: auditEvents.ip,
  details: auditEvents.details,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

export type TActivityRow = { id: string; createdAt: Date; actorKind: string; actorId: string | null; action: string; target: string | null; outcome: 'success' | 'failure'; ip: string | null; details: Record<string, unknown> | null; firstName: string | null; lastName: string | null; email: string | null };

// Audit rows name their actor by id as text; the user is joined within the same MSP only.
const userJoin = (mspId: string) => and(eq(users.mspId, mspId), sql`${users.id}::text = ${auditEvents.actorId}`);

/** One page of the MSP's audit events, newest first, with who did them. */
export async function listActivity(db: TDatabase, mspId: string, filter: TActivityFilter, paging: { page: number; pageSize: number }): Promise<{ rows: TActivityRow[]; total: number }> {
  const where = whereOf(mspId, filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select(selection)
      .from(auditEvents)
      .leftJoin(users, userJoin(mspId))
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize),
    db.select({ total: count() }).from(auditEvents).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * The MSP's audit events in pages of `batchSize` (keyset, newest first), for the CSV export. The cursor is the last row's
 * created_at as the database's own text: a JavaScript Date keeps milliseconds, created_at microseconds, so a Date cursor
 * skipped the rows of the same millisecond that came after a page's last row.
 */
export async function* streamActivity(db: TDatabase, mspId: string, filter: TActivityFilter, batchSize = 500): AsyncGenerator<TActivityRow[]> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const keyset: SQL | undefined = after ? sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined;
    const rows: Array<TActivityRow & { cursorAt: string }> = await db
      .select({ ...selection, cursorAt: sql<string>`${auditEvents.createdAt}::text` })
      .from(auditEvents)
      .leftJoin(users, userJoin(mspId))
      .where(and(whereOf(mspId, filter), keyset))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { createdAt: last.cursorAt, id: last.id };
  }
}

/** The MSP's users who appear in its log, for the person filter. */
export async function listActivityPeople(db: TDatabase, mspId: string): Promise<Array<{ userId: string; name: string }>> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.mspId, mspId), sql`exists (select 1 from ${auditEvents} where ${auditEvents.mspId} = ${mspId} and ${auditEvents.actorId} = ${users.id}::text)`))
    .orderBy(asc(users.firstName), asc(users.lastName));
  return rows.map((row) => ({ userId: row.id, name: `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim() || row.email }));
}

/** Whether the user belongs to this MSP (another tenant's user reads as absent). */
export async function isUserOfMsp(db: TDatabase, mspId: string, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.mspId, mspId), eq(users.id, userId))).limit(1);
  return row !== undefined;
}
