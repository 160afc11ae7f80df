import { randomUUID } from 'node:crypto';
import {
  CLIENT_CATALOGUE,
  type TClientIntegrations,
  type TCompany,
  type TCompanyPage,
  type TCompanyTicketPage,
  type TContact,
  type TContactPage,
} from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import { findIntegration } from '../integrations/integrations.repository';
import { psaNotConfigured } from '../integrations/psa-errors';
import { canUseCompany, canUseCompanyRow, companyScopeOf, type TCompaniesActor } from './companies.policy';
import { presentCompany, presentContact, presentOutboxContact, presentTicket } from './companies.presenter';
import {
  findCompanyByExternalId,
  findCompanyById,
  insertOutboxRow,
  listClientTypes,
  listCompanies,
  listContacts,
  listTickets,
  listUnfinishedOutboxRows,
  type TPsaTypeName,
} from './companies.repository';
import { attemptOutboxRow, OUTBOX_LEASE_MS, type TContactOutboxDeps } from './contact-outbox';

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

/** Companies, contacts and their tickets from the synchronized copies; contact adds through the PSA (01 §2). */
export function createCompaniesService(deps: TContactOutboxDeps & Pick<TAppDeps, 'audit'>) {
  const db = deps.database.db;

  /** The MSP's PSA type, when it has one: the copies of a former PSA are not shown. */
  async function currentPsaType(mspId: string): Promise<TPsaTypeName | null> {
    return (await findIntegration(db, mspId))?.psaType ?? null;
  }

  /** one page of companies, filtered by client type ("all" is no filter) and search. */
  async function listCompanyPage(actor: TCompaniesActor, query: TPaging & { search: string; clientType: string }): Promise<TCompanyPage> {
    const psaType = await currentPsaType(actor.mspId);
    const onlyExternalId = companyScopeOf(actor);
    const clientType = query.clientType.toLowerCase() === 'all' ? null : query.clientType;
    const [{ rows, total }, clientTypes] = await Promise.all([
      listCompanies(db, actor.mspId, { psaType, search: query.search, clientType, onlyExternalId }, query),
      listClientTypes(db, actor.mspId, psaType, onlyExternalId),
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
    const [{ rows, total }, unfinished] = await Promise.all([
      listContacts(db, actor.mspId, { psaType: company.psaType, externalCompanyId: company.externalId, isActive: query.active, search: query.search }, query),
      query.active ? listUnfinishedOutboxRows(db, actor.mspId, company.externalId, PENDING_SHOWN) : Promise.resolve([]),
    ]);
    return { items: rows.map(presentContact), total, page: query.page, pageSize: query.pageSize, pending: unfinished.map((row) => presentOutboxContact(row, company.name)) };
  }

  /** The Contacts screen: every contact the actor may see; `psaOnly` false adds the adds still pending. */
  async function listContactPage(actor: TCompaniesActor, query: TPaging & { search: string; active: boolean; psaOnly: boolean }): Promise<TContactPage> {
    const psaType = await currentPsaType(actor.mspId);
    const scope = companyScopeOf(actor);
    const [{ rows, total }, unfinished] = await Promise.all([
      listContacts(db, actor.mspId, { psaType, externalCompanyId: scope, isActive: query.active, search: query.search }, query),
      query.psaOnly ? Promise.resolve([]) : listUnfinishedOutboxRows(db, actor.mspId, scope, PENDING_SHOWN),
    ]);
    return { items: rows.map(presentContact), total, page: query.page, pageSize: query.pageSize, pending: unfinished.map((row) => presentOutboxContact(row, null)) };
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
   * first (the outbox), so a PSA that is down loses nothing: the answer is then 202 with a pending
   * contact and the retry loop finishes it. A PSA refusal is the PSA's field message (422).
   */
  async function addContact(actor: TCompaniesActor, input: TAddContactInput): Promise<{ contact: TContact; isPending: boolean }> {
    const psaType = await currentPsaType(actor.mspId);
    if (!psaType) throw psaNotConfigured();
    if (input.psaType !== psaType) throw wrongPsa(psaType);
    const company = await companyFor(actor, psaType, input.psaCompanyId);
    const now = deps.now();
    const { row, isNew } = await insertOutboxRow(db, actor.mspId, {
      idempotencyKey: input.idempotencyKey ?? randomUUID(),
      psaType,
      companyRowId: company.id,
      externalCompanyId: company.externalId,
      payload: {
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email ? input.email : null,
        phone: input.phone ? input.phone : null,
        emailTypeId: input.emailTypeId ?? null,
        phoneTypeId: input.phoneTypeId ?? null,
      },
      createdBy: actor.userId,
      lockedUntil: new Date(now.getTime() + OUTBOX_LEASE_MS),
      now,
    });
    // A resubmitted form (same key) is the same add: answer with what became of it.
    if (!isNew) {
      if (row.payload.firstName !== input.firstName || row.payload.lastName !== input.lastName || row.externalCompanyId !== company.externalId) {
        throw new AppError('conflict', 'This add-contact request was already used for another contact. Reload the form and try again.');
      }
      return { contact: presentOutboxContact(row, company.name), isPending: row.status !== 'done' };
    }
    const result = await attemptOutboxRow(deps, row, { removeOnRefusal: true });
    const audit = (outcome: 'success' | 'failure', target: string, details: Record<string, unknown>) =>
      deps.audit.record(deps.database.db, { mspId: actor.mspId, actorKind: 'user', actorId: actor.userId, action: 'contact.add', target, outcome, ip: actor.ip, requestId: actor.requestId, details: { psaCompanyId: company.externalId, ...details } });
    if (result.kind === 'done') {
      await audit('success', result.contact.externalId, { name: `${input.firstName} ${input.lastName}` });
      return { contact: presentContact({ ...result.contact, companyName: company.name }), isPending: false };
    }
    if (result.kind === 'refused') {
      await audit('failure', row.id, { reason: result.error.detail });
      throw result.error;
    }
    await audit('success', row.id, { pending: true, reason: result.error.detail, nextAttemptAt: result.nextAttemptAt.toISOString() });
    return { contact: presentOutboxContact({ ...row, status: 'pending' }, company.name), isPending: true };
  }

  return { listCompanyPage, listCompanyContacts, listContactPage, listTicketPage, companiesByClientId, clientIntegrations, addContact };
}
