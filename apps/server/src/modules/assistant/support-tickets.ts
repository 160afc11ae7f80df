import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { PAGE_SIZE, isOnboardingCategory, type TSupportTicket, type TTicketProgress } from '@switchboard/contracts';
import { psaCompanies, psaTickets, ticketRequests, users } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { psaWritesFor, type TPsaOutboxRow } from '../psa-outbox/psa-outbox';
import { TICKET_REQUEST_TARGET } from './ticket-create.psa-write';

type TCopyRow = typeof psaTickets.$inferSelect;
type TRequestRow = typeof ticketRequests.$inferSelect;

const numberOrNull = (value: string | null) => (value !== null && /^\d{1,10}$/.test(value) ? Number.parseInt(value, 10) : null);

function progressOf(isCreated: boolean, isAssigned: boolean, isClosed: boolean, typeName: string | null, subTypeName: string | null): TTicketProgress {
  const step = (done: boolean) => (done ? ('done' as const) : ('pending' as const));
  const progress: TTicketProgress = { ticketCreated: step(isCreated), ticketAssigned: step(isAssigned || isClosed), ticketClosed: step(isClosed) };
  // onboarding tickets also track these two; nothing here can see a directory or mailbox yet, so they stay pending until closed.
  if (isOnboardingCategory(typeName, subTypeName)) return { ...progress, userCreatedInActiveDirectory: step(isClosed), userEmailCreated: step(isClosed) };
  return progress;
}

function presentCopy(row: TCopyRow): TSupportTicket {
  return {
    id: row.id,
    ticketId: numberOrNull(row.externalId),
    ticketNumber: row.ticketNumber ?? row.externalId,
    title: row.summary,
    description: row.description,
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
    description: draft.description ?? null,
    boardId: numberOrNull(row.boardExternalId),
    boardName: resolved.boardName ?? null,
    categoryId: null,
    categoryName: resolved.typeName ?? null,
    subCategoryId: null,
    subCategoryName: resolved.subTypeName ?? null,
    priority: resolved.priority ?? null,
    priorityId: resolved.priorityId ?? null,
    status: state === 'pending' ? 'pending in the PSA' : 'refused by the PSA',
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
 * which only the outbox row records) is pending again; the request's own state only when it has no open write.
 */
function shownState(row: TRequestRow, writes: readonly TPsaOutboxRow[]): 'pending' | 'failed' {
  const latest = writes.filter((write) => write.targetId === row.id).at(-1);
  if (latest) return latest.status === 'failed' ? 'failed' : 'pending';
  return row.state === 'failed' ? 'failed' : 'pending';
}

/** Support ticket lists: the ticket copies plus the tickets still pending in the PSA, newest first, 30 a page. */
export function createSupportTicketsService(deps: Pick<TAppDeps, 'database'>) {
  const db = deps.database.db;

  async function page(mspId: string, copiesWhere: SQL | undefined, requestsWhere: SQL | undefined, pageNumber: number) {
    const pendingRows = await db
      .select()
      .from(ticketRequests)
      .where(and(eq(ticketRequests.mspId, mspId), isNull(ticketRequests.psaTicketExternalId), requestsWhere))
      .orderBy(desc(ticketRequests.createdAt))
      .limit(200);
    const outbox = await psaWritesFor(db, mspId, TICKET_REQUEST_TARGET, pendingRows.map((row) => row.id));
    const pending = pendingRows.map((row) => presentPending(row, shownState(row, outbox)));
    const where = and(eq(psaTickets.mspId, mspId), copiesWhere);
    const [total] = await db.select({ value: count() }).from(psaTickets).where(where);
    const start = (pageNumber - 1) * PAGE_SIZE;
    const pendingOnPage = pending.slice(start, start + PAGE_SIZE);
    const copyOffset = Math.max(0, start - pending.length);
    const copies = await db
      .select()
      .from(psaTickets)
      .where(where)
      .orderBy(desc(sql`coalesce(${psaTickets.psaCreatedAt}, ${psaTickets.syncedAt})`), desc(psaTickets.id))
      .limit(PAGE_SIZE - pendingOnPage.length)
      .offset(copyOffset);
    return { tickets: [...pendingOnPage, ...copies.map(presentCopy)], page: pageNumber, pageSize: PAGE_SIZE, total: (total?.value ?? 0) + pending.length };
  }

  return {
    /** every ticket of the MSP (technicians; R-290). */
    byMsp(actor: TActor, pageNumber: number) {
      return page(actor.mspId, undefined, undefined, pageNumber);
    },

    /** the tickets one client user raised or is the contact of; a client only their own (404 otherwise). */
    async byClientUser(actor: TActor, clientsUserId: string, pageNumber: number) {
      if (actor.userKind === 'client' && clientsUserId !== actor.userId) throw notFound();
      const [user] = await db.select({ psaContactId: users.psaContactId }).from(users).where(and(eq(users.mspId, actor.mspId), eq(users.id, clientsUserId))).limit(1);
      if (!user) throw notFound();
      const copiesWhere = or(inArray(psaTickets.externalId, sql`(select psa_ticket_external_id from ticket_requests where msp_id = ${actor.mspId} and created_by_user_id = ${clientsUserId} and psa_ticket_external_id is not null)`), user.psaContactId === null ? undefined : eq(psaTickets.contactExternalId, user.psaContactId));
      return page(actor.mspId, copiesWhere, eq(ticketRequests.createdByUserId, clientsUserId), pageNumber);
    },

    /** the tickets of one client company (its row id); a client only their own company (404 otherwise). */
    async byCompany(actor: TActor, companyRowId: string, actorCompanyRowId: string | null, pageNumber: number) {
      if (actor.userKind === 'client' && companyRowId !== actorCompanyRowId) throw notFound();
      const [company] = await db.select({ externalId: psaCompanies.externalId }).from(psaCompanies).where(and(eq(psaCompanies.mspId, actor.mspId), eq(psaCompanies.id, companyRowId))).limit(1);
      if (!company) throw notFound();
      return page(actor.mspId, eq(psaTickets.companyExternalId, company.externalId), eq(ticketRequests.companyExternalId, company.externalId), pageNumber);
    },
  };
}

