import { z } from 'zod';
import { isCreatedSince } from '../http/create-options';
import { parsePsaPayload } from '../http/parse';
import type { TCreatePsaContact, TListContactsFilter, TPsaCompany, TPsaContact, TPsaContactWithCompany, TStreamFrom } from '../psa-client';
import { Condition, eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import * as map from './connectwise-mappers';
import { listCommunicationTypes } from './connectwise-reference-data';

/** The stream pages `orderBy=id asc`, so "after this id" resumes exactly where an earlier stream stopped. */
const afterIdOf = (from: TStreamFrom): Condition[] => (from.afterId === undefined ? [] : [Condition.compare('id', '>', from.afterId)]);

/**
 * Deleted companies are read too, as Autotask's inactive ones are: a company deleted in ConnectWise after it was imported
 * must come back with `isActive` false, or its copy stays active (and offered on the ticket form) for good (review s29).
 */
export function streamCompanies(api: ConnectWiseApi, from: TStreamFrom = {}): AsyncGenerator<TPsaCompany> {
  const after = afterIdOf(from);
  return api.stream('/company/companies', map.toCompany, { conditions: after.length === 0 ? undefined : Condition.and(...after) });
}

export function streamContacts(api: ConnectWiseApi, filter: TListContactsFilter = {}, from: TStreamFrom = {}): AsyncGenerator<TPsaContact> {
  const parts = [...(filter.companyId === undefined ? [] : [eq('company/id', filter.companyId)]), ...afterIdOf(from)];
  return api.stream('/company/contacts', map.toContact, { conditions: parts.length === 0 ? undefined : Condition.and(...parts) });
}

/** Counts what streamCompanies reads, deleted companies included. */
export function countCompanies(api: ConnectWiseApi): Promise<number> {
  return api.count('/company/companies');
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
  // ConnectWise contacts have no external reference, so an unknown outcome is resolved by name and e-mail in the company,
  // among the active contacts created since this write was first tried: an older (or deactivated) contact of the same
  // name is another person. Looked up before sending only on a resend (TPsaResend).
  return api.create('/company/contacts', body, map.toContact, async (createdSince) => {
    const conditions = Condition.and(eq('company/id', input.companyId), eq('firstName', input.firstName), eq('lastName', input.lastName), eq('inactiveFlag', false));
    const childConditions = input.email ? Condition.and(eq('communicationItems/value', input.email), eq('communicationItems/communicationType', 'Email')) : undefined;
    const matches = await api.list('/company/contacts', (row) => ({ contact: map.toContact(row), createdAt: dateEnteredOf(row) }), { conditions, childConditions, orderBy: 'id desc' });
    const others = new Set(input.resend?.otherWritesIds ?? []);
    const wantedEmail = input.email?.trim().toLowerCase();
    const found = matches.find(
      ({ contact, createdAt }) => !others.has(contact.id) && isCreatedSince(createdAt, createdSince) && (!wantedEmail || contact.email?.trim().toLowerCase() === wantedEmail),
    );
    return found?.contact ?? null;
  }, { resend: input.resend });
}

const ZEnteredInfo = z.object({ _info: z.object({ dateEntered: z.string().nullish() }).nullish() });

/** When ConnectWise entered the record (`_info.dateEntered`), null when it does not say. */
function dateEnteredOf(row: unknown): string | null {
  return parsePsaPayload(ZEnteredInfo, row, 'contact')._info?.dateEntered ?? null;
}
