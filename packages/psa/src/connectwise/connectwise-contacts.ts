import { lookUpFirst } from '../http/create-options';
import type { TCreatePsaContact, TListContactsFilter, TPsaCompany, TPsaContact, TPsaContactWithCompany } from '../psa-client';
import { Condition, eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import * as map from './connectwise-mappers';
import { listCommunicationTypes } from './connectwise-reference-data';

export function streamCompanies(api: ConnectWiseApi): AsyncGenerator<TPsaCompany> {
  return api.stream('/company/companies', map.toCompany, { conditions: eq('deletedFlag', false) });
}

export function streamContacts(api: ConnectWiseApi, filter: TListContactsFilter = {}): AsyncGenerator<TPsaContact> {
  const conditions = filter.companyId === undefined ? undefined : eq('company/id', filter.companyId);
  return api.stream('/company/contacts', map.toContact, { conditions });
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
