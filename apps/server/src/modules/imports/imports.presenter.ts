import type { TProgressiveClient, TProgressiveContact } from '@switchboard/contracts';
import type { TPsaCompany, TPsaContact } from '@switchboard/psa';
import type { TPsaCompanyCopy, TPsaContactCopy } from '../psa-directory/psa-directory.repository';

const bounded = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/**
 * A PSA company as a `data` event row (bounded like A-056's body, so what is sent can be saved back). A blank name is
 * named by its id: A-056 requires a name, and one such company refused its whole batch of 1,000 (review s29).
 */
export const presentClient = (company: TPsaCompany): TProgressiveClient => ({
  id: company.id,
  name: company.name.trim().slice(0, 200) || `Company ${company.id}`,
  identifier: bounded(company.identifier, 100),
  isActive: company.isActive,
  psaClientType: clientTypeNames(company),
  phone: bounded(company.phone, 60),
  city: bounded(company.city, 100),
});

/** The company's type names as A-056 takes them back: bounded, blank and repeated names dropped. */
const clientTypeNames = (company: TPsaCompany): string[] => [...new Set(company.types.map((type) => type.name.trim().slice(0, 100)).filter((name) => name !== ''))].slice(0, 50);

export const presentContact = (contact: TPsaContact): TProgressiveContact => ({
  id: contact.id,
  companyId: contact.companyId,
  firstName: contact.firstName.slice(0, 200),
  lastName: contact.lastName.slice(0, 200),
  email: bounded(contact.email, 250),
  phone: bounded(contact.phone, 60),
  isActive: contact.isActive,
});

export const clientCopy = (client: TProgressiveClient): TPsaCompanyCopy => ({
  externalId: String(client.id),
  name: client.name,
  identifier: client.identifier,
  isActive: client.isActive,
  companyTypes: client.psaClientType,
  phone: client.phone,
  city: client.city,
});

export const contactCopy = (contact: TProgressiveContact & { companyId: number }): TPsaContactCopy => ({
  externalId: String(contact.id),
  externalCompanyId: String(contact.companyId),
  firstName: contact.firstName,
  lastName: contact.lastName,
  email: contact.email,
  phone: contact.phone,
  isActive: contact.isActive,
});
