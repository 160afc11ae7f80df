import { randomUUID } from 'node:crypto';
import {
  CONTACT_LIST_CAP,
  CLIENT_CATALOGUE,
  type TClientIntegrations,
  type TCompany,
  type TCompanyPage,
  type TCompanyTicketPage,
  type TContact,
  type TContactPage,
  type TTicketFormCompaniesQuery,
  type TTicketFormCompanyOptions,
  type TTicketFormContactOptions,
  type TTicketFormContactsQuery,
} from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { createShortLivedCache } from '../../lib/short-lived-cache';
import { AppError, notFound } from '../../lib/app-error';
import { findPsaTypeOfMsp } from '../integrations/integrations.repository';
import { psaNotConfigured } from '../integrations/psa-errors';
import { canUseCompany, canUseCompanyRow, companyScopeOf, type TCompaniesActor } from './companies.policy';
import { attemptPsaWrite, enqueuePsaWrite, type TPsaOutboxRow, type TPsaWriteDeps } from '../psa-outbox/psa-outbox';
import { presentCompany, presentContact, presentContactWrite, presentTicket } from './companies.presenter';
import { CONTACT_CREATE, CONTACT_TARGET, contactPayloadOf, type TContactCreatePayload } from './companies.psa-writes';
import {
  discardRefusedContactWrite,
  findCompanyByExternalId,
  findCompanyById,
  findContactByExternalId,
  findContactWriteByKey,
  listClientTypes,
  listCompanies,
  listCompanyOptions,
  listContactOptions,
  listContacts,
  listTickets,
  listUnfinishedContactWrites,
  type TPsaTypeName,
} from './companies.repository';
import { userAuditFields } from '../../lib/audit';

export interface TPaging {
  page: number;
  pageSize: number;
}

export interface TAddContactInput {
  /** A-044 names the PSA; A-045 is ConnectWise only. */
  psaType: TPsaTypeName;
  psaCompanyId: string;
  firstName: string;
  lastName: string;
  email?: string | undefined;
  phone?: string | undefined;
  emailTypeId?: number | null | undefined;
  phoneTypeId?: number | null | undefined;
  idempotencyKey?: string | undefined;
}

/** How many not-yet-synchronized adds a list shows beside the contacts. */
const PENDING_SHOWN = 50;

const wrongPsa = (psaType: string) => new AppError('validation', `This MSP's PSA is ${psaType === 'CONNECTWISE' ? 'ConnectWise' : 'Autotask'}; choose that PSA for the contact.`);

/** MSPs (and client users' companies) whose client types one process keeps. */
const CLIENT_TYPE_LISTS_KEPT = 2_000;

/** Companies, contacts and their tickets from the synchronized copies; contact adds through the PSA (01 §2). */
export function createCompaniesService(deps: TPsaWriteDeps & Pick<TAppDeps, 'audit' | 'config'>) {
  const db = deps.database.db;
  // The client-type filter's options come with every companies page, and reading them walks every company of the MSP
  // (the types are inside a JSON list), while they change only when the directory is synchronized: kept per MSP for
  // the short-lived cache's time (decision 011, AUTH_CACHE_TTL_MS; 0 reads them every time).
  const clientTypeLists = createShortLivedCache<{ types: string[] }>({ ttlMs: deps.config.authCacheTtlMs, maxEntries: CLIENT_TYPE_LISTS_KEPT, now: deps.now });
  async function clientTypesOf(mspId: string, psaType: TPsaTypeName | null, onlyExternalId: string | null): Promise<string[]> {
    const key = `${mspId}:${psaType ?? ''}:${onlyExternalId ?? ''}`;
    const cached = clientTypeLists.get(key);
    if (cached) return cached.types;
    const ticket = clientTypeLists.ticket();
    const types = await listClientTypes(db, mspId, psaType, onlyExternalId);
    clientTypeLists.set(key, { types }, ticket);
    return types;
  }

  /** The MSP's PSA type, when it has one: the copies of a former PSA are not shown. */
  const currentPsaType = (mspId: string): Promise<TPsaTypeName | null> => findPsaTypeOfMsp(db, mspId);

  /** one page of companies, filtered by client type ("all" is no filter) and search. */
  async function listCompanyPage(actor: TCompaniesActor, query: TPaging & { search: string; clientType: string }): Promise<TCompanyPage> {
    const psaType = await currentPsaType(actor.mspId);
    const onlyExternalId = companyScopeOf(actor);
    const clientType = query.clientType.toLowerCase() === 'all' ? null : query.clientType;
    const [{ rows, total }, clientTypes] = await Promise.all([
      listCompanies(db, actor.mspId, { psaType, search: query.search, clientType, onlyExternalId }, query),
      clientTypesOf(actor.mspId, psaType, onlyExternalId),
    ]);
    return { items: rows.map(presentCompany), total, page: query.page, pageSize: query.pageSize, clientTypes };
  }

  async function companyFor(actor: TCompaniesActor, psaType: TPsaTypeName | null, externalCompanyId: string) {
    if (!canUseCompany(actor, externalCompanyId)) throw notFound();
    const company = await findCompanyByExternalId(db, actor.mspId, psaType, externalCompanyId);
    if (!company) throw notFound();
    return company;
  }

  /** one page of a company's contacts (Active or other), with the adds still on their way to the PSA. */
  async function listCompanyContacts(actor: TCompaniesActor, query: TPaging & { psaCompanyId: string; search: string; active: boolean }): Promise<TContactPage> {
    const psaType = await currentPsaType(actor.mspId);
    const company = await companyFor(actor, psaType, query.psaCompanyId);
    const [{ rows, total, isTotalCapped }, unfinished] = await Promise.all([
      listContacts(db, actor.mspId, { psaType: company.psaType, externalCompanyId: company.externalId, isActive: query.active, search: query.search }, query, CONTACT_LIST_CAP),
      query.active ? listUnfinishedContactWrites(db, actor.mspId, company.externalId, PENDING_SHOWN) : Promise.resolve([]),
    ]);
    return { items: rows.map(presentContact), total, isTotalCapped, page: query.page, pageSize: query.pageSize, pending: unfinished.map((row) => presentContactWrite(row, company.name)) };
  }

  /** The ticket form's company choice (decision 028): active companies, id and name only. */
  async function listTicketFormCompanies(actor: TCompaniesActor, query: TTicketFormCompaniesQuery): Promise<TTicketFormCompanyOptions> {
    const psaType = await currentPsaType(actor.mspId);
    const { rows, hasMore } = await listCompanyOptions(db, actor.mspId, { psaType, search: query.search }, query.limit);
    return { items: rows.map((row) => ({ psaCompanyId: row.externalId, name: row.name })), hasMore };
  }

  /** The ticket form's contact choice (decision 028): one company's active contacts; an unknown company is not found. */
  async function listTicketFormContacts(actor: TCompaniesActor, query: TTicketFormContactsQuery): Promise<TTicketFormContactOptions> {
    const psaType = await currentPsaType(actor.mspId);
    const company = await companyFor(actor, psaType, query.psaCompanyId);
    const { rows, hasMore } = await listContactOptions(db, actor.mspId, { psaType: company.psaType, externalCompanyId: company.externalId, search: query.search }, query.limit);
    return { items: rows.map((row) => ({ psaContactId: row.externalId, firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone })), hasMore };
  }

  /** The Contacts screen: every contact the actor may see; `psaOnly` false adds the adds still pending. */
  async function listContactPage(actor: TCompaniesActor, query: TPaging & { search: string; active: boolean; psaOnly: boolean }): Promise<TContactPage> {
    const psaType = await currentPsaType(actor.mspId);
    const scope = companyScopeOf(actor);
    const [{ rows, total, isTotalCapped }, unfinished] = await Promise.all([
      listContacts(db, actor.mspId, { psaType, externalCompanyId: scope, isActive: query.active, search: query.search }, query, CONTACT_LIST_CAP),
      // A contact being added is active, so the Inactive list shows no pending adds (as the company's contacts view).
      query.psaOnly || !query.active ? Promise.resolve([]) : listUnfinishedContactWrites(db, actor.mspId, scope, PENDING_SHOWN),
    ]);
    return { items: rows.map(presentContact), total, isTotalCapped, page: query.page, pageSize: query.pageSize, pending: unfinished.map((row) => presentContactWrite(row, null)) };
  }

  /** The tickets views: a company's tickets, a contact's, or (no filter) all the actor may see. */
  async function listTicketPage(actor: TCompaniesActor, query: TPaging & { psaCompanyId?: string | undefined; psaContactId?: string | undefined; open: 'all' | 'open' | 'closed' }): Promise<TCompanyTicketPage> {
    const psaType = await currentPsaType(actor.mspId);
    const scope = companyScopeOf(actor);
    if (query.psaCompanyId !== undefined) await companyFor(actor, psaType, query.psaCompanyId);
    const externalCompanyId = query.psaCompanyId ?? scope;
    const { rows, total } = await listTickets(db, actor.mspId, { psaType, externalCompanyId, externalContactId: query.psaContactId ?? null, open: query.open }, query);
    return { items: rows.map(presentTicket), total, page: query.page, pageSize: query.pageSize };
  }

  /** the client company with this client database id (a client user: only their own). */
  async function companiesByClientId(actor: TCompaniesActor, clientId: string): Promise<TCompany[]> {
    if (!canUseCompanyRow(actor, clientId)) throw notFound();
    const company = await findCompanyById(db, actor.mspId, clientId);
    if (!company) throw notFound();
    return [presentCompany(company)];
  }

  /** the client catalogue cards of one client company (R-238: none is available yet). */
  async function clientIntegrations(actor: TCompaniesActor, clientId: string): Promise<TClientIntegrations> {
    if (!canUseCompanyRow(actor, clientId)) throw notFound();
    const company = await findCompanyById(db, actor.mspId, clientId);
    if (!company) throw notFound();
    return { clientId: company.id, companyName: company.name, cards: [...CLIENT_CATALOGUE] };
  }

  /**
   * creates the contact at the PSA, then in the synchronized copy. The add is stored
   * first (the PSA outbox, kind contact.create), so a PSA that is down loses nothing: the answer is
   * then 202 with a pending contact and the outbox's retry loop finishes it. A PSA refusal is the
   * PSA's field message (422) and keeps nothing.
   */
  async function addContact(actor: TCompaniesActor, input: TAddContactInput): Promise<{ contact: TContact; isPending: boolean }> {
    const psaType = await currentPsaType(actor.mspId);
    if (!psaType) throw psaNotConfigured();
    if (input.psaType !== psaType) throw wrongPsa(psaType);
    const company = await companyFor(actor, psaType, input.psaCompanyId);
    // Namespaced: the outbox's idempotency keys are shared by every kind of write.
    const idempotencyKey = `${CONTACT_CREATE}:${input.idempotencyKey ?? randomUUID()}`;
    const payload: TContactCreatePayload = {
      psaType,
      externalCompanyId: company.externalId,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email ? input.email : null,
      phone: input.phone ? input.phone : null,
      emailTypeId: input.emailTypeId ?? null,
      phoneTypeId: input.phoneTypeId ?? null,
    };
    // A resubmitted form (same key) is the same add: answer with what became of it, without sending it again.
    const earlier = await findContactWriteByKey(db, actor.mspId, idempotencyKey);
    if (earlier) return answerEarlierAdd(earlier, payload, company.name);
    const row = await db.transaction((tx) =>
      enqueuePsaWrite(tx, { mspId: actor.mspId, kind: CONTACT_CREATE, idempotencyKey, target: { type: CONTACT_TARGET, id: company.externalId }, payload, createdBy: actor.userId }, deps.now()),
    );
    const outcome = await attemptPsaWrite(deps, actor.mspId, row.id);
    // The event records the PSA's answer, known only after the call (outside any transaction, STYLE).
    const audit = (outcome: 'success' | 'failure', target: string, details: Record<string, unknown>) =>
      deps.audit.record(db, { ...userAuditFields(actor), action: 'contact.add', target, outcome, details: { psaCompanyId: company.externalId, writeId: row.id, ...details } });
    if (outcome.status === 'done') {
      // The outcome's row is the one before the send; the PSA's answer is the outcome's result.
      const contact = presentContactWrite({ ...outcome.row, status: 'done', result: outcome.result }, company.name);
      await audit('success', contact.psaContactId ?? row.id, { name: `${input.firstName} ${input.lastName}` });
      return { contact: await syncedContact(actor.mspId, contact), isPending: false };
    }
    if (outcome.status === 'failed') {
      await discardRefusedContactWrite(db, actor.mspId, row.id);
      await audit('failure', row.id, { reason: outcome.error.detail });
      throw outcome.error;
    }
    await audit('success', row.id, { pending: true, ...(outcome.error ? { reason: outcome.error.detail } : {}), ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt.toISOString() } : {}) });
    return { contact: presentContactWrite({ ...outcome.row, status: 'pending' }, company.name), isPending: true };
  }

  async function answerEarlierAdd(row: TPsaOutboxRow, payload: TContactCreatePayload, companyName: string): Promise<{ contact: TContact; isPending: boolean }> {
    const stored = contactPayloadOf(row);
    // Every detail the person typed counts: a resubmit with another e-mail or phone is another add, and answering it with
    // the first add would say "Contact added" for values the PSA never got (review s29).
    const isSameAdd =
      stored.firstName === payload.firstName &&
      stored.lastName === payload.lastName &&
      stored.externalCompanyId === payload.externalCompanyId &&
      (stored.email ?? '').toLowerCase() === (payload.email ?? '').toLowerCase() &&
      (stored.phone ?? '') === (payload.phone ?? '');
    if (!isSameAdd) {
      throw new AppError('conflict', 'This add-contact request was already used for another contact. Reload the form and try again.');
    }
    if (row.status === 'failed') throw new AppError('psa_validation', row.lastError ?? 'The PSA refused this contact.');
    const contact = presentContactWrite(row, companyName);
    if (row.status === 'done') return { contact: await syncedContact(row.mspId, contact), isPending: false };
    return { contact, isPending: true };
  }

  /** A finished add answers with its synchronized copy, as the lists show it (the write itself if the copy has gone). */
  async function syncedContact(mspId: string, written: TContact): Promise<TContact> {
    const copy = written.psaContactId === null ? null : await findContactByExternalId(db, mspId, written.psaType, written.psaContactId);
    return copy ? presentContact({ ...copy, companyName: written.psaClientName }) : written;
  }

  return { listCompanyPage, listCompanyContacts, listTicketFormCompanies, listTicketFormContacts, listContactPage, listTicketPage, companiesByClientId, clientIntegrations, addContact };
}
