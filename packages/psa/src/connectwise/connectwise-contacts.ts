import { lookUpFirst } from '../http/create-options';
import type { TCreatePsaContact, TListContactsFilter, TPsaCompany, TPsaContact, TPsaContactWithCompany, TStreamFrom } from '../psa-client';
import { Condition, eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import * as map from './connectwise-mappers';
import { listCommunicationTypes } from './connectwise-reference-data';

/** The stream pages `orderBy=id asc`, so "after this id" resumes exactly where an earlier stream stopped. */
const afterIdOf = (from: TStreamFrom): Condition[] => (from.afterId === undefined ? [] : [Condition.compare('id', '>', from.afterId)]);

export function streamCompanies(api: ConnectWiseApi, from: TStreamFrom = {}): AsyncGenerator<TPsaCompany> {
  return api.stream('/company/companies', map.toCompany, { conditions: Condition.and(eq('deletedFlag', false), ...afterIdOf(from)) });
}

export function streamContacts(api: ConnectWiseApi, filter: TListContactsFilter = {}, from: TStreamFrom = {}): AsyncGenerator<TPsaContact> {
  const parts = [...(filter.companyId === undefined ? [] : [eq('company/id', filter.companyId)]), ...afterIdOf(from)];
  return api.stream('/company/contacts', map.toContact, { conditions: parts.length === 0 ? undefined : Condition.and(...parts) });
}

export function countCompanies(api: ConnectWiseApi): Promise<number> {
  return api.count('/company/companies', eq('deletedFlag', false));
}

export function countContacts(api: ConnectWiseApi, filter: TListContactsFilter = {}): Promise<number> {
  return api.count('/company/contacts', filter.companyId === undefined ? undefined : eq('company/id', filter.companyId));
}

export async function findContactsByEmail(api: ConnectWiseApi, email: string): Promise<TPsaContactWithCompany[]> {
  const address = email.trim();
  if (address === '') return [];
  // E-mail addresses are communication items, which only childConditions can filter on (psa-apis.md §1.3).
  const childConditions = Condition.and(eq('communicationItems/value', address), eq('communicationItems/communicationType', 'Email'));
  return api.list('/company/contacts', map.toContactWithCompany, { childConditions });
}

export async function createContact(api: ConnectWiseApi, input: TCreatePsaContact): Promise<TPsaContact> {
  const communicationItems = [];
  if (input.email || input.phone) {
    const types = await listCommunicationTypes(api);
    const emailTypeId = input.emailTypeId ?? types.find((type) => type.isEmail)?.id;
    const phoneTypeId = input.phoneTypeId ?? types.find((type) => type.isPhone)?.id;
    if (input.email && emailTypeId !== undefined) communicationItems.push({ type: { id: emailTypeId }, communicationType: 'Email', value: input.email, defaultFlag: true });
    if (input.phone && phoneTypeId !== undefined) communicationItems.push({ type: { id: phoneTypeId }, communicationType: 'Phone', value: input.phone, defaultFlag: true });
  }
  const body = { firstName: input.firstName, lastName: input.lastName, company: { id: input.companyId }, communicationItems };
  // ConnectWise contacts have no external reference, so an unknown outcome is resolved by name and email in the company.
  return api.create('/company/contacts', body, map.toContact, async () => {
    const conditions = Condition.and(eq('company/id', input.companyId), eq('firstName', input.firstName), eq('lastName', input.lastName));
    const childConditions = input.email ? eq('communicationItems/value', input.email) : undefined;
    const matches = await api.list('/company/contacts', map.toContact, { conditions, childConditions, orderBy: 'id desc' });
    return matches[0] ?? null;
  }, lookUpFirst);
}
