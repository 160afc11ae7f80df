import { lookUpFirst } from '../http/create-options';
import type { TCreatePsaContact, TListContactsFilter, TPsaCompany, TPsaContact, TPsaContactWithCompany, TStreamFrom } from '../psa-client';
import type { AutotaskApi } from './autotask-api';
import * as map from './autotask-mappers';
import { checkId } from '../record-id';
import { itemOf } from './autotask-records';
import { atFilter } from './filters';

/** Autotask answers queries in id order and pages by id, so "after this id" resumes exactly where a stream stopped. */
const fromFilter = (from: TStreamFrom) => (from.afterId === undefined ? atFilter.all() : atFilter.compare('gt', 'id', from.afterId));

/** A company row names its type by picklist value, so the (cached) picklist is read first to give each type its label. */
export async function* streamCompanies(api: AutotaskApi, from: TStreamFrom = {}): AsyncGenerator<TPsaCompany> {
  const labels = new Map((await api.fields('Companies')).picklist('companyType').map((value) => [value.value, value.label]));
  yield* api.stream('Companies', [fromFilter(from)], (row) => map.toCompany(row, labels));
}

export function streamContacts(api: AutotaskApi, filter: TListContactsFilter = {}, from: TStreamFrom = {}): AsyncGenerator<TPsaContact> {
  const query = filter.companyId === undefined ? [fromFilter(from)] : [atFilter.eq('companyID', filter.companyId), ...(from.afterId === undefined ? [] : [fromFilter(from)])];
  return api.stream('Contacts', query, map.toContact);
}

/** Autotask contacts carry only a companyID, so the companies are read in one `in` query after the contacts. */
export function countCompanies(api: AutotaskApi): Promise<number> {
  return api.count('Companies', [atFilter.all()]);
}

export function countContacts(api: AutotaskApi, filter: TListContactsFilter = {}): Promise<number> {
  return api.count('Contacts', [filter.companyId === undefined ? atFilter.all() : atFilter.eq('companyID', filter.companyId)]);
}

export async function findContactsByEmail(api: AutotaskApi, email: string): Promise<TPsaContactWithCompany[]> {
  const address = email.trim();
  if (address === '') return [];
  const contacts = await api.query('Contacts', [atFilter.eq('emailAddress', address)], map.toContact);
  const companyIds = [...new Set(contacts.flatMap((contact) => (contact.companyId === null ? [] : [contact.companyId])))];
  const companies = companyIds.length === 0 ? [] : await api.query('Companies', [atFilter.in('id', companyIds)], (row) => map.toCompany(row));
  return contacts.map((contact) => ({ ...contact, company: companies.find((company) => company.id === contact.companyId) ?? null }));
}

/** The idempotency key travels as the contact's externalID, which is how a create of unknown outcome is found again. */
export async function createContact(api: AutotaskApi, input: TCreatePsaContact): Promise<TPsaContact> {
  const body = {
    companyID: input.companyId,
    firstName: input.firstName,
    lastName: input.lastName,
    emailAddress: input.email ?? undefined,
    phone: input.phone ?? undefined,
    isActive: 1,
    externalID: input.idempotencyKey,
  };
  const contactId = await api.create(`/Companies/${checkId(input.companyId)}/Contacts`, body, async () => {
    const matches = await api.query('Contacts', [atFilter.eq('externalID', input.idempotencyKey)], map.toContact);
    return matches[0]?.id ?? null;
  }, lookUpFirst);
  return api.get(`/Contacts/${contactId}`, (response) => map.toContact(itemOf(response)));
}
