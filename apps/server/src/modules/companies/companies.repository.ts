import { and, asc, count, desc, eq, ilike, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaOutbox, psaTickets, type TDatabase } from '@switchboard/db';
import type { TPsaOutboxRow } from '../psa-outbox/psa-outbox';
import { CONTACT_CREATE, CONTACT_TARGET } from './companies.psa-writes';

export type TCompanyRow = typeof psaCompanies.$inferSelect;
export type TContactRow = typeof psaContacts.$inferSelect & { companyName: string | null };
export type TTicketRow = typeof psaTickets.$inferSelect;
export type TPsaTypeName = TCompanyRow['psaType'];

export interface TPageRequest {
  page: number;
  pageSize: number;
}

/** `%text%` for ILIKE, with the pattern characters of the search taken literally. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * `offset 0`, written out: a subquery with an OFFSET is planned on its own (PostgreSQL does not merge it into the outer
 * query). Drizzle leaves a plain 0 out, so it is given as SQL (its offset type names only numbers and placeholders).
 */
const OFFSET_ZERO = sql`0` as unknown as number;

const offsetOf = (paging: TPageRequest) => (paging.page - 1) * paging.pageSize;

export interface TCompanyFilter {
  psaType: TPsaTypeName | null;
  search: string;
  clientType: string | null;
  /** Client users: only their own company (by external id). */
  onlyExternalId: string | null;
}

function companyConditions(mspId: string, filter: TCompanyFilter): SQL | undefined {
  return and(
    eq(psaCompanies.mspId, mspId),
    filter.psaType ? eq(psaCompanies.psaType, filter.psaType) : undefined,
    filter.search === '' ? undefined : or(ilike(psaCompanies.name, containsPattern(filter.search)), ilike(psaCompanies.identifier, containsPattern(filter.search))),
    filter.clientType ? sql`${psaCompanies.companyTypes} @> ${JSON.stringify([filter.clientType])}::jsonb` : undefined,
    filter.onlyExternalId === null ? undefined : eq(psaCompanies.externalId, filter.onlyExternalId),
  );
}

/** One page of the MSP's synchronized companies, by name, and how many match. */
export async function listCompanies(db: TDatabase, mspId: string, filter: TCompanyFilter, paging: TPageRequest): Promise<{ rows: TCompanyRow[]; total: number }> {
  const where = companyConditions(mspId, filter);
  const [rows, [counted]] = await Promise.all([
    db.select().from(psaCompanies).where(where).orderBy(asc(psaCompanies.name), asc(psaCompanies.id)).limit(paging.pageSize).offset(offsetOf(paging)),
    db.select({ total: count() }).from(psaCompanies).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** Every client type named on the MSP's companies, for the filter's options. */
export async function listClientTypes(db: TDatabase, mspId: string, psaType: TPsaTypeName | null, onlyExternalId: string | null): Promise<string[]> {
  const type = sql<string>`jsonb_array_elements_text(${psaCompanies.companyTypes})`;
  const rows = await db
    .selectDistinct({ type })
    .from(psaCompanies)
    .where(companyConditions(mspId, { psaType, search: '', clientType: null, onlyExternalId }))
    .orderBy(type);
  return rows.map((row) => row.type);
}

/** The synchronized company with this PSA id, or null. */
export async function findCompanyByExternalId(db: TDatabase, mspId: string, psaType: TPsaTypeName | null, externalId: string): Promise<TCompanyRow | null> {
  const [row] = await db
    .select()
    .from(psaCompanies)
    .where(and(eq(psaCompanies.mspId, mspId), psaType ? eq(psaCompanies.psaType, psaType) : undefined, eq(psaCompanies.externalId, externalId)))
    .orderBy(asc(psaCompanies.psaType))
    .limit(1);
  return row ?? null;
}

/** The synchronized company with this row id (the client database id of A-003 / A-005), or null. */
export async function findCompanyById(db: TDatabase, mspId: string, id: string): Promise<TCompanyRow | null> {
  const [row] = await db.select().from(psaCompanies).where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.id, id))).limit(1);
  return row ?? null;
}

export interface TContactFilter {
  psaType: TPsaTypeName | null;
  externalCompanyId: string | null;
  isActive: boolean;
  search: string;
}

/** `text%` for ILIKE, the pattern characters of the search taken literally. */
const prefixPattern = (search: string): string => `${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * One or two letters match the start of a name or e-mail ("al" finds Alan, not Donald): a trigram
 * index can answer an anchored pattern that short, but not "%al%", which would read every row.
 */
const SHORT_SEARCH_LENGTH = 2;
const searchPattern = (word: string): string => (word.length <= SHORT_SEARCH_LENGTH ? prefixPattern(word) : containsPattern(word));

/** A word matches a first name, last name or e-mail; "first last" matches the two names. */
function contactSearchCondition(search: string): SQL | undefined {
  if (search === '') return undefined;
  const [first, ...rest] = search.split(/\s+/);
  if (first !== undefined && rest.length > 0) {
    return and(ilike(psaContacts.firstName, searchPattern(first)), ilike(psaContacts.lastName, searchPattern(rest.join(' '))));
  }
  const pattern = searchPattern(search);
  return or(ilike(psaContacts.firstName, pattern), ilike(psaContacts.lastName, pattern), ilike(psaContacts.email, pattern));
}

/** One page of synchronized contacts (one company's, or all the MSP's), by name, with their company's name; the count stops at `countCap`. */
export async function listContacts(db: TDatabase, mspId: string, filter: TContactFilter, paging: TPageRequest, countCap: number): Promise<{ rows: TContactRow[]; total: number; isTotalCapped: boolean }> {
  const where = and(
    eq(psaContacts.mspId, mspId),
    filter.psaType ? eq(psaContacts.psaType, filter.psaType) : undefined,
    filter.externalCompanyId === null ? undefined : eq(psaContacts.externalCompanyId, filter.externalCompanyId),
    eq(psaContacts.isActive, filter.isActive),
    contactSearchCondition(filter.search),
  );
  // The page's ids first (from the name index alone when there is no search), then those rows with their company's
  // name: joining before the limit would look up a company for every row the offset skips (10,000 on the last page).
  // A search finds its matches through the trigram index first and sorts only them: `offset 0` keeps the planner from
  // walking the whole name index instead and filtering every contact of the MSP, which it prefers when it overrates
  // how many rows match (a rare name: 260 ms against 2 ms). The cost of a search is then that of its matches.
  const ordered = [asc(psaContacts.lastName), asc(psaContacts.firstName), asc(psaContacts.id)];
  const matches = db.select({ id: psaContacts.id, lastName: psaContacts.lastName, firstName: psaContacts.firstName }).from(psaContacts).where(where).offset(OFFSET_ZERO).as('matches');
  const page =
    filter.search === ''
      ? db.select({ id: psaContacts.id }).from(psaContacts).where(where).orderBy(...ordered).limit(paging.pageSize).offset(offsetOf(paging)).as('page')
      : db.select({ id: matches.id }).from(matches).orderBy(asc(matches.lastName), asc(matches.firstName), asc(matches.id)).limit(paging.pageSize).offset(offsetOf(paging)).as('page');
  const [rows, [counted]] = await Promise.all([
    db
      .select({ contact: psaContacts, companyName: psaCompanies.name })
      .from(page)
      .innerJoin(psaContacts, and(eq(psaContacts.mspId, mspId), eq(psaContacts.id, page.id)))
      .leftJoin(psaCompanies, and(eq(psaCompanies.mspId, psaContacts.mspId), eq(psaCompanies.id, psaContacts.companyRowId)))
      .orderBy(...ordered),
    // Counting stops one past the cap: an exact count of 50,000 matches would cost more than the page itself.
    db.select({ total: count() }).from(db.select({ one: sql`1` }).from(psaContacts).where(where).limit(countCap + 1).as('capped')),
  ]);
  const total = counted?.total ?? 0;
  return { rows: rows.map((row) => ({ ...row.contact, companyName: row.companyName })), total: Math.min(total, countCap), isTotalCapped: total > countCap };
}

/** The ticket form's company choice (decision 028): `limit` active companies by name (id and name only), and whether more match. */
export async function listCompanyOptions(db: TDatabase, mspId: string, filter: { psaType: TPsaTypeName | null; search: string }, limit: number): Promise<{ rows: Array<{ externalId: string; name: string }>; hasMore: boolean }> {
  const rows = await db
    .select({ externalId: psaCompanies.externalId, name: psaCompanies.name })
    .from(psaCompanies)
    .where(and(companyConditions(mspId, { ...filter, clientType: null, onlyExternalId: null }), eq(psaCompanies.isActive, true)))
    .orderBy(asc(psaCompanies.name), asc(psaCompanies.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The ticket form's contact choice (decision 028): `limit` active contacts of one company (the columns a ticket carries), and whether more match. */
export async function listContactOptions(
  db: TDatabase,
  mspId: string,
  filter: { psaType: TPsaTypeName; externalCompanyId: string; search: string },
  limit: number,
): Promise<{ rows: Array<{ externalId: string; firstName: string; lastName: string; email: string | null; phone: string | null }>; hasMore: boolean }> {
  const rows = await db
    .select({ externalId: psaContacts.externalId, firstName: psaContacts.firstName, lastName: psaContacts.lastName, email: psaContacts.email, phone: psaContacts.phone })
    .from(psaContacts)
    .where(
      and(
        eq(psaContacts.mspId, mspId),
        eq(psaContacts.psaType, filter.psaType),
        eq(psaContacts.externalCompanyId, filter.externalCompanyId),
        eq(psaContacts.isActive, true),
        contactSearchCondition(filter.search),
      ),
    )
    .orderBy(asc(psaContacts.lastName), asc(psaContacts.firstName), asc(psaContacts.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The synchronized contact with this PSA id, or null. */
export async function findContactByExternalId(db: TDatabase, mspId: string, psaType: TPsaTypeName | null, externalId: string): Promise<TContactRow | null> {
  const [row] = await db
    .select({ contact: psaContacts, companyName: psaCompanies.name })
    .from(psaContacts)
    .leftJoin(psaCompanies, and(eq(psaCompanies.mspId, psaContacts.mspId), eq(psaCompanies.id, psaContacts.companyRowId)))
    .where(and(eq(psaContacts.mspId, mspId), psaType ? eq(psaContacts.psaType, psaType) : undefined, eq(psaContacts.externalId, externalId)))
    .limit(1);
  return row ? { ...row.contact, companyName: row.companyName } : null;
}

export interface TTicketFilter {
  psaType: TPsaTypeName | null;
  externalCompanyId: string | null;
  externalContactId: string | null;
  open: 'all' | 'open' | 'closed';
}

/** One page of synchronized ticket copies for a company and/or contact, newest first. */
export async function listTickets(db: TDatabase, mspId: string, filter: TTicketFilter, paging: TPageRequest): Promise<{ rows: TTicketRow[]; total: number }> {
  const where = and(
    eq(psaTickets.mspId, mspId),
    filter.psaType ? eq(psaTickets.psaType, filter.psaType) : undefined,
    filter.externalCompanyId === null ? undefined : eq(psaTickets.companyExternalId, filter.externalCompanyId),
    filter.externalContactId === null ? undefined : eq(psaTickets.contactExternalId, filter.externalContactId),
    filter.open === 'all' ? undefined : eq(psaTickets.isClosed, filter.open === 'closed'),
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(psaTickets)
      .where(where)
      .orderBy(sql`${psaTickets.psaCreatedAt} desc nulls last`, desc(psaTickets.id))
      .limit(paging.pageSize)
      .offset(offsetOf(paging)),
    db.select({ total: count() }).from(psaTickets).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

// ——— add-contact writes in the PSA outbox (decision 013) ———

/** An add-contact write already stored under this idempotency key (a resubmitted form), or null. */
export async function findContactWriteByKey(db: TDatabase, mspId: string, idempotencyKey: string): Promise<TPsaOutboxRow | null> {
  const [row] = await db
    .select()
    .from(psaOutbox)
    .where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.kind, CONTACT_CREATE), eq(psaOutbox.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

/**
 * The adds the PSA does not have yet (pending or failed), newest first, of one company (its PSA id)
 * or of every company. The outbox's psaWritesFor needs the target ids; the Contacts view has none.
 */
export async function listUnfinishedContactWrites(db: TDatabase, mspId: string, externalCompanyId: string | null, limit: number): Promise<TPsaOutboxRow[]> {
  return db
    .select()
    .from(psaOutbox)
    .where(
      and(
        eq(psaOutbox.mspId, mspId),
        eq(psaOutbox.kind, CONTACT_CREATE),
        eq(psaOutbox.targetType, CONTACT_TARGET),
        ne(psaOutbox.status, 'done'),
        // An add an admin discarded (review s29) is not waiting for the PSA any more.
        isNull(psaOutbox.discardedAt),
        externalCompanyId === null ? undefined : eq(psaOutbox.targetId, externalCompanyId),
      ),
    )
    .orderBy(desc(psaOutbox.seq))
    .limit(limit);
}

/**
 * Removes an add the PSA refused while its author was waiting: they see the PSA's message (422)
 * and send the form again, so nothing is kept (only a failed add-contact row is ever removed).
 */
export async function discardRefusedContactWrite(db: TDatabase, mspId: string, id: string): Promise<void> {
  await db.delete(psaOutbox).where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id), eq(psaOutbox.kind, CONTACT_CREATE), eq(psaOutbox.status, 'failed')));
}
