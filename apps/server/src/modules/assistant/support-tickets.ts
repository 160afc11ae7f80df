import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { MESSAGES, PAGE_SIZE, isOnboardingCategory, type TClientTicketFilter, type TClientTicketSort, type TPsaType, type TSupportTicket, type TSupportTicketPage, type TTicketProgress } from '@switchboard/contracts';
import { psaCompanies, psaTickets, ticketRequests, users, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { findPsaTypeOfMsp } from '../integrations/integrations.repository';
import { psaWritesFor, type TPsaOutboxRow } from '../psa-outbox/psa-outbox';
import { TICKET_REQUEST_TARGET } from './ticket-create.psa-write';
import { withoutTriageLine } from './triage-line';

type TCopyRow = typeof psaTickets.$inferSelect;
type TRequestRow = typeof ticketRequests.$inferSelect;
type TEntrySource = 'copy' | 'request';

const numberOrNull = (value: string | null) => (value !== null && /^\d{1,10}$/.test(value) ? Number.parseInt(value, 10) : null);

function progressOf(isCreated: boolean, isAssigned: boolean, isClosed: boolean, typeName: string | null, subTypeName: string | null): TTicketProgress {
  const step = (done: boolean) => (done ? ('done' as const) : ('pending' as const));
  const progress: TTicketProgress = { ticketCreated: step(isCreated), ticketAssigned: step(isAssigned || isClosed), ticketClosed: step(isClosed) };
  // R-277: onboarding tickets also track these two; nothing here can see a directory or mailbox yet, so they stay pending until closed.
  if (isOnboardingCategory(typeName, subTypeName)) return { ...progress, userCreatedInActiveDirectory: step(isClosed), userEmailCreated: step(isClosed) };
  return progress;
}

function presentCopy(row: TCopyRow): TSupportTicket {
  return {
    id: row.id,
    ticketId: numberOrNull(row.externalId),
    ticketNumber: row.ticketNumber ?? row.externalId,
    title: row.summary,
    // The triage line is for the MSP's technicians, in the PSA; these lists are read by clients (review s29 #3).
    description: withoutTriageLine(row.description),
    boardId: numberOrNull(row.boardExternalId),
    boardName: row.boardName,
    categoryId: numberOrNull(row.typeExternalId),
    categoryName: row.typeName,
    subCategoryId: numberOrNull(row.subtypeExternalId),
    subCategoryName: row.subtypeName,
    priority: row.priorityName,
    priorityId: numberOrNull(row.priorityExternalId),
    status: row.statusName,
    companyId: row.companyExternalId,
    companyName: row.companyName,
    contactId: row.contactExternalId,
    contactName: row.contactName,
    ownerName: row.ownerName,
    isClosed: row.isClosed,
    createdAt: (row.psaCreatedAt ?? row.syncedAt).toISOString(),
    psaWriteState: 'done',
    progress: progressOf(true, row.ownerExternalId !== null, row.isClosed, row.typeName, row.subtypeName),
  };
}

function presentPending(row: TRequestRow, state: 'pending' | 'failed'): TSupportTicket {
  const draft = row.draft as { description?: string; resolved?: { boardName?: string; typeName?: string; subTypeName?: string; priority?: string | null; priorityId?: number | null } };
  const resolved = draft.resolved ?? {};
  return {
    id: row.id,
    ticketId: null,
    ticketNumber: null,
    title: row.title,
    description: withoutTriageLine(draft.description ?? null),
    boardId: numberOrNull(row.boardExternalId),
    boardName: resolved.boardName ?? null,
    categoryId: null,
    categoryName: resolved.typeName ?? null,
    subCategoryId: null,
    subCategoryName: resolved.subTypeName ?? null,
    priority: resolved.priority ?? null,
    priorityId: resolved.priorityId ?? null,
    status: state === 'pending' ? MESSAGES.assistant.pendingInPsa : MESSAGES.assistant.refusedInPsa,
    companyId: row.companyExternalId,
    companyName: null,
    contactId: row.contactExternalId,
    contactName: null,
    ownerName: null,
    isClosed: false,
    createdAt: row.createdAt.toISOString(),
    psaWriteState: state,
    progress: progressOf(false, false, false, resolved.typeName ?? null, resolved.subTypeName ?? null),
  };
}

/**
 * What a ticket not yet in the PSA shows: its latest write as it stands, so a write an admin sent again ("Send again",
 * which only the outbox row records) is pending again, and one an admin discarded stays refused; the request's own
 * state only when it has no write the PSA lacks.
 */
function shownState(row: TRequestRow, writes: readonly TPsaOutboxRow[]): 'pending' | 'failed' {
  const latest = writes.filter((write) => write.targetId === row.id).at(-1);
  if (latest) return latest.status === 'failed' ? 'failed' : 'pending';
  return row.state === 'failed' ? 'failed' : 'pending';
}

/**
 * One snapshot for the whole page: the requests still waiting, the copies and the total are read together, so a ticket
 * landing meanwhile (its request gets the PSA's id and its copy is written in one transaction) is listed once (review s26 #6).
 */
const ONE_SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

const emptyPage = (pageNumber: number): TSupportTicketPage => ({ tickets: [], page: pageNumber, pageSize: PAGE_SIZE, total: 0 });

/** A request's PSA id of its confirmed draft (ConnectWise's field, else Autotask's), as text like the copies' columns. */
const draftIdOf = (connectWiseField: string, autotaskField: string) =>
  sql`coalesce(${ticketRequests.draft} -> 'connectWiseDetails' ->> ${connectWiseField}, ${ticketRequests.draft} -> 'autotaskDetails' ->> ${autotaskField})`;

/** `text` as an ILIKE pattern that matches it anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * The client's filters (02 §3, R-285) over both sides of the list: the copies by their PSA ids, number and summary; the
 * requests not yet in the PSA by their board and the ids of the draft they confirmed (its priority as resolved), and title.
 */
function filtersOf(filter: TClientTicketFilter): { copies: SQL | undefined; requests: SQL | undefined } {
  const idText = (id: number | undefined) => (id === undefined ? undefined : String(id));
  const [board, type, subtype, priority] = [idText(filter.boardId), idText(filter.categoryId), idText(filter.subCategoryId), idText(filter.priorityId)];
  const search = filter.search === undefined || filter.search === '' ? undefined : filter.search;
  return {
    copies: and(
      board === undefined ? undefined : eq(psaTickets.boardExternalId, board),
      type === undefined ? undefined : eq(psaTickets.typeExternalId, type),
      subtype === undefined ? undefined : eq(psaTickets.subtypeExternalId, subtype),
      priority === undefined ? undefined : eq(psaTickets.priorityExternalId, priority),
      search === undefined ? undefined : or(ilike(psaTickets.summary, containing(search)), ilike(psaTickets.ticketNumber, containing(search)), eq(psaTickets.externalId, search)),
    ),
    requests: and(
      board === undefined ? undefined : eq(ticketRequests.boardExternalId, board),
      type === undefined ? undefined : sql`${draftIdOf('typeId', 'issueTypeValue')} = ${type}`,
      subtype === undefined ? undefined : sql`${draftIdOf('subTypeId', 'subIssueTypeValue')} = ${subtype}`,
      priority === undefined ? undefined : sql`${ticketRequests.draft} -> 'resolved' ->> 'priorityId' = ${priority}`,
      search === undefined ? undefined : ilike(ticketRequests.title, containing(search)),
    ),
  };
}

/** Support ticket lists (A-017, A-018, A-019): the ticket copies plus the tickets not (yet) in the PSA, newest first, 30 a page. */
export function createSupportTicketsService(deps: Pick<TAppDeps, 'database'>) {
  const db = deps.database.db;

  /**
   * One page of the copies and the requests without a PSA ticket, merged by when each was opened (a refusal from
   * months ago sorts among the tickets of its day, not on top; review s26 #2). Both sides are of the connected PSA:
   * the same company or contact id means someone else in another PSA (review s26 #1).
   */
  async function page(tx: TDatabase, mspId: string, psaType: TPsaType, copiesWhere: SQL | undefined, requestsWhere: SQL | undefined, pageNumber: number, sort: TClientTicketSort): Promise<TSupportTicketPage> {
    const order = sort === 'oldest' ? asc : desc;
    const copyScope = and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, psaType), copiesWhere);
    const requestScope = and(eq(ticketRequests.mspId, mspId), eq(ticketRequests.psaType, psaType), isNull(ticketRequests.psaTicketExternalId), requestsWhere);
    const entries = unionAll(
      tx.select({ source: sql<TEntrySource>`'copy'`.as('source'), id: psaTickets.id, openedAt: sql<Date>`coalesce(${psaTickets.psaCreatedAt}, ${psaTickets.syncedAt})`.as('opened_at') }).from(psaTickets).where(copyScope),
      tx.select({ source: sql<TEntrySource>`'request'`.as('source'), id: ticketRequests.id, openedAt: sql<Date>`${ticketRequests.createdAt}`.as('opened_at') }).from(ticketRequests).where(requestScope),
    ).as('entries');
    // The page's 30 entries are picked first, so only they are joined to their rows.
    const onPage = tx
      .select()
      .from(entries)
      .orderBy(order(entries.openedAt), order(entries.id))
      .limit(PAGE_SIZE)
      .offset((pageNumber - 1) * PAGE_SIZE)
      .as('on_page');
    const rows = await tx
      .select({ copy: psaTickets, request: ticketRequests })
      .from(onPage)
      .leftJoin(psaTickets, and(eq(onPage.source, 'copy'), eq(psaTickets.mspId, mspId), eq(psaTickets.id, onPage.id)))
      .leftJoin(ticketRequests, and(eq(onPage.source, 'request'), eq(ticketRequests.mspId, mspId), eq(ticketRequests.id, onPage.id)))
      .orderBy(order(onPage.openedAt), order(onPage.id));
    const [copyCount] = await tx.select({ value: count() }).from(psaTickets).where(copyScope);
    const [requestCount] = await tx.select({ value: count() }).from(ticketRequests).where(requestScope);
    const requestIds = rows.flatMap((row) => (row.request ? [row.request.id] : []));
    // Discarded writes too: a create the PSA refused stays refused when an admin discards it (review s29 #1).
    const outbox = await psaWritesFor(tx, mspId, TICKET_REQUEST_TARGET, requestIds, { withDiscarded: true });
    const tickets = rows.flatMap((row) => {
      if (row.copy) return [presentCopy(row.copy)];
      return row.request ? [presentPending(row.request, shownState(row.request, outbox))] : [];
    });
    return { tickets, page: pageNumber, pageSize: PAGE_SIZE, total: (copyCount?.value ?? 0) + (requestCount?.value ?? 0) };
  }

  /** The page in one read-only snapshot, of the PSA the MSP has connected now; nothing connected lists nothing. */
  function pageOfConnectedPsa(mspId: string, pageNumber: number, scopeOf: (tx: TDatabase, psaType: TPsaType) => { copies: SQL | undefined; requests: SQL | undefined } | null, sort: TClientTicketSort = 'newest') {
    return db.transaction(async (tx) => {
      const psaType = await findPsaTypeOfMsp(tx, mspId);
      if (!psaType) return emptyPage(pageNumber);
      const scope = scopeOf(tx, psaType);
      return scope ? page(tx, mspId, psaType, scope.copies, scope.requests, pageNumber, sort) : emptyPage(pageNumber);
    }, ONE_SNAPSHOT);
  }

  return {
    /** A-017: every ticket of the MSP (technicians; R-290). */
    byMsp(actor: TActor, pageNumber: number) {
      return pageOfConnectedPsa(actor.mspId, pageNumber, () => ({ copies: undefined, requests: undefined }));
    },

    /** A-018: the tickets one client user raised or is the contact of, filtered and sorted; a client only their own (404 otherwise). */
    async byClientUser(actor: TActor, clientsUserId: string, pageNumber: number, filter: TClientTicketFilter = { sort: 'newest' }) {
      if (actor.userKind === 'client' && clientsUserId !== actor.userId) throw notFound();
      const [user] = await db.select({ psaContactId: users.psaContactId }).from(users).where(and(eq(users.mspId, actor.mspId), eq(users.id, clientsUserId))).limit(1);
      if (!user) throw notFound();
      const filters = filtersOf(filter);
      const scopeOf = (tx: TDatabase, psaType: TPsaType) => {
        const raisedByUser = tx
          .select({ externalId: ticketRequests.psaTicketExternalId })
          .from(ticketRequests)
          .where(and(eq(ticketRequests.mspId, actor.mspId), eq(ticketRequests.psaType, psaType), eq(ticketRequests.createdByUserId, clientsUserId), isNotNull(ticketRequests.psaTicketExternalId)));
        const copies = or(inArray(psaTickets.externalId, raisedByUser), user.psaContactId === null ? undefined : eq(psaTickets.contactExternalId, user.psaContactId));
        // The filters only narrow the user's own tickets (R-290): they are and-ed with this rule, never in its place.
        return { copies: and(copies, filters.copies), requests: and(eq(ticketRequests.createdByUserId, clientsUserId), filters.requests) };
      };
      return pageOfConnectedPsa(actor.mspId, pageNumber, scopeOf, filter.sort);
    },

    /** A-019: the tickets of one client company (its row id); a client only their own company (404 otherwise). */
    async byCompany(actor: TActor, companyRowId: string, actorCompanyRowId: string | null, pageNumber: number) {
      if (actor.userKind === 'client' && companyRowId !== actorCompanyRowId) throw notFound();
      const [company] = await db.select({ externalId: psaCompanies.externalId, psaType: psaCompanies.psaType }).from(psaCompanies).where(and(eq(psaCompanies.mspId, actor.mspId), eq(psaCompanies.id, companyRowId))).limit(1);
      if (!company) throw notFound();
      // A company copied from an earlier PSA has no tickets in the connected one: its id there is another company's.
      return pageOfConnectedPsa(actor.mspId, pageNumber, (_tx, psaType) =>
        company.psaType === psaType ? { copies: eq(psaTickets.companyExternalId, company.externalId), requests: eq(ticketRequests.companyExternalId, company.externalId) } : null,
      );
    },
  };
}
