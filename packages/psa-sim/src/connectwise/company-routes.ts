import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute } from '../http';
import type { SimStore, TSimCompany, TSimContact } from '../store';
import { CW_API_PREFIX, cwInvalidObject, cwNotFound, itemResponse, listResponse, listSourceResponse, readObjectBody } from './common';
import { companySource, contactSource } from './fast-fields';
import { applyPatch, parsePatchOperations } from './json-patch';
import type { TCwRecord, TCwValidationError } from './common';
import { presentCommunicationType, presentCompany, presentCompanyType, presentContact } from './presenters';

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function requireText(body: Record<string, unknown>, field: string, max: number, resource: string, errors: TCwValidationError[]): string {
  const value = text(body[field]);
  if (value === '') errors.push({ code: 'MissingRequiredField', message: `${field} is required.`, resource, field });
  else if (value.length > max) errors.push({ code: 'InvalidField', message: `${field} must be at most ${max} characters.`, resource, field });
  return value;
}

/** Reads a Company body (POST, or the patched company of a PATCH); identifiers are unique. */
function readCompanyBody(store: SimStore, body: Record<string, unknown>, existing: TSimCompany | null): Omit<TSimCompany, 'id'> | { errors: TCwValidationError[] } {
  const errors: TCwValidationError[] = [];
  const identifier = requireText(body, 'identifier', 25, 'company', errors);
  const name = requireText(body, 'name', 50, 'company', errors);
  if (identifier !== '' && [...store.companies.all()].some((company) => company.id !== existing?.id && company.identifier.toLowerCase() === identifier.toLowerCase())) {
    errors.push({ code: 'ObjectExists', message: 'The identifier is already in use.', resource: 'company', field: 'identifier' });
  }
  const typeRefs = Array.isArray(body.types) ? body.types : [];
  let companyTypeId: number | null = null;
  for (const reference of typeRefs) {
    const id = isRecord(reference) && typeof reference.id === 'number' ? reference.id : null;
    if (id === null || !store.companyTypes.get(id)) errors.push({ code: 'InvalidObject', message: `Company type ${JSON.stringify(reference)} was not found.`, resource: 'company', field: 'types' });
    else companyTypeId ??= id;
  }
  if (errors.length > 0) return { errors };
  const now = store.now();
  return {
    name,
    identifier,
    companyTypeId,
    phone: text(body.phoneNumber),
    website: text(body.website),
    addressLine1: text(body.addressLine1),
    city: text(body.city),
    state: text(body.state),
    zip: text(body.zip),
    isActive: body.deletedFlag !== true,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}

/** Reads a Contact body (POST, or the patched contact of a PATCH); email and phone come from communicationItems. */
function readContactBody(store: SimStore, body: Record<string, unknown>, existing: TSimContact | null): Omit<TSimContact, 'id'> | { errors: TCwValidationError[] } {
  const errors: TCwValidationError[] = [];
  const firstName = requireText(body, 'firstName', 30, 'contact', errors);
  const lastName = text(body.lastName);
  if (lastName.length > 30) errors.push({ code: 'InvalidField', message: 'lastName must be at most 30 characters.', resource: 'contact', field: 'lastName' });
  const companyId = isRecord(body.company) && typeof body.company.id === 'number' ? body.company.id : null;
  if (companyId === null) errors.push({ code: 'MissingRequiredField', message: 'company is required.', resource: 'contact', field: 'company' });
  else if (!store.companies.get(companyId)) errors.push({ code: 'InvalidObject', message: `Company ${companyId} was not found.`, resource: 'contact', field: 'company' });
  const items = Array.isArray(body.communicationItems) ? body.communicationItems.filter(isRecord) : [];
  const isEmailItem = (item: Record<string, unknown>): boolean => item.communicationType === 'Email' || (isRecord(item.type) && (item.type.id === 1 || item.type.name === 'Email'));
  const email = text(items.find(isEmailItem)?.value);
  const phone = text(items.find((item) => !isEmailItem(item))?.value);
  if (email !== '' && !/^[^@\s]+@[^@\s]+$/.test(email)) errors.push({ code: 'InvalidField', message: 'The email address is not valid.', resource: 'contact', field: 'communicationItems' });
  if (errors.length > 0 || companyId === null) return { errors };
  const now = store.now();
  return {
    companyId,
    firstName,
    lastName,
    email,
    phone,
    title: text(body.title),
    isPrimary: body.defaultFlag === true,
    isActive: body.inactiveFlag !== true,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}

export function connectWiseCompanyRoutes(context: TSimContext): TRoute[] {
  const store = (): TSimContext['store'] => context.store;
  const companies = `${CW_API_PREFIX}/company/companies`;
  const contacts = `${CW_API_PREFIX}/company/contacts`;
  const companyTypes = (): TCwRecord[] => [...store().companyTypes.all()].map(presentCompanyType);
  return [
    route('GET', companies, (request) => listSourceResponse(request, companySource(store()))),
    // Every simulated company is Active, the one company status there is.
    route('GET', `${companies}/statuses`, (request) => listResponse(request, [{ id: 1, name: 'Active', defaultFlag: true, inactiveFlag: false, notifyFlag: false, disallowSavingFlag: false, _info: {} }])),
    route('GET', `${companies}/types`, (request) => listResponse(request, companyTypes())),
    route('GET', `${companies}/types/{id}`, (request, params) => {
      const type = store().companyTypes.get(idParam(params));
      return type ? itemResponse(request, presentCompanyType(type)) : cwNotFound('CompanyType', idParam(params));
    }),
    route('POST', `${companies}/types`, (request) => {
      const parsed = readObjectBody(request, 'companyType');
      if ('response' in parsed) return parsed.response;
      const errors: TCwValidationError[] = [];
      const name = requireText(parsed.body, 'name', 50, 'companyType', errors);
      if (name !== '' && [...store().companyTypes.all()].some((type) => type.name.toLowerCase() === name.toLowerCase())) {
        errors.push({ code: 'ObjectExists', message: 'The name is already in use.', resource: 'companyType', field: 'name' });
      }
      if (errors.length > 0) return cwInvalidObject('companyType', errors);
      const type = store().companyTypes.insert({ name, isDefault: parsed.body.defaultFlag === true });
      countCreate(context);
      return json(201, presentCompanyType(type));
    }),
    route('GET', `${companies}/{id}`, (request, params) => {
      const company = store().companies.get(idParam(params));
      return company ? itemResponse(request, presentCompany(store(), company)) : cwNotFound('Company', idParam(params));
    }),
    route('POST', companies, (request) => {
      const parsed = readObjectBody(request, 'company');
      if ('response' in parsed) return parsed.response;
      const created = readCompanyBody(store(), parsed.body, null);
      if ('errors' in created) return cwInvalidObject('company', created.errors);
      const company = store().companies.insert(created);
      countCreate(context);
      return json(201, presentCompany(store(), company));
    }),
    route('PATCH', `${companies}/{id}`, (request, params) => {
      const company = store().companies.get(idParam(params));
      if (!company) return cwNotFound('Company', idParam(params));
      const operations = parsePatchOperations(request.body, 'company');
      if ('errors' in operations) return cwInvalidObject('company', operations.errors);
      const fields = readCompanyBody(store(), applyPatch(presentCompany(store(), company), operations), company);
      if ('errors' in fields) return cwInvalidObject('company', fields.errors);
      return json(200, presentCompany(store(), store().companies.put({ ...fields, id: company.id })));
    }),
    route('PATCH', `${contacts}/{id}`, (request, params) => {
      const contact = store().contacts.get(idParam(params));
      if (!contact) return cwNotFound('Contact', idParam(params));
      const operations = parsePatchOperations(request.body, 'contact');
      if ('errors' in operations) return cwInvalidObject('contact', operations.errors);
      const fields = readContactBody(store(), applyPatch(presentContact(store(), contact), operations), contact);
      if ('errors' in fields) return cwInvalidObject('contact', fields.errors);
      return json(200, presentContact(store(), store().contacts.put({ ...fields, id: contact.id })));
    }),
    route('GET', contacts, (request) => listSourceResponse(request, contactSource(store()))),
    route('GET', `${contacts}/{id}`, (request, params) => {
      const contact = store().contacts.get(idParam(params));
      return contact ? itemResponse(request, presentContact(store(), contact)) : cwNotFound('Contact', idParam(params));
    }),
    route('POST', contacts, (request) => {
      const parsed = readObjectBody(request, 'contact');
      if ('response' in parsed) return parsed.response;
      const fields = readContactBody(store(), parsed.body, null);
      if ('errors' in fields) return cwInvalidObject('contact', fields.errors);
      const contact = store().contacts.insert(fields);
      countCreate(context);
      return json(201, presentContact(store(), contact));
    }),
    route('GET', `${CW_API_PREFIX}/company/communicationTypes`, (request) => listResponse(request, [...store().communicationTypes.all()].map(presentCommunicationType))),
    route('GET', `${CW_API_PREFIX}/company/communicationTypes/{id}`, (request, params) => {
      const type = store().communicationTypes.get(idParam(params));
      return type ? itemResponse(request, presentCommunicationType(type)) : cwNotFound('CommunicationType', idParam(params));
    }),
  ];
}
