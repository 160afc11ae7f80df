import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute } from '../http';
import { AT_API_PREFIX, atErrors, bodyField, countQuerySourceResponse, presentFieldDefinitions, querySourceResponse } from './common';
import type { TAtFieldDefinition, TAtRecord, TAtSource } from './common';
import { atCompanySource, atContactSource } from './fast-fields';
import {
  API_USER_RESOURCE_ID,
  COMPANY_FIELDS,
  CONTACT_FIELDS,
  DEPARTMENT_FIELDS,
  LOCATION_FIELDS,
  RESOURCE_FIELDS,
  RESOURCE_SERVICE_DESK_ROLE_FIELDS,
  ROLE_FIELDS,
  TICKET_CATEGORY_FIELDS,
  presentAtCompany,
  presentAtContact,
  presentAtDepartment,
  presentAtApiUserResource,
  presentAtLocation,
  presentAtResource,
  presentAtResourceServiceDeskRole,
  roleRows,
  ticketCategoryRows,
} from './entities';

const HOURLY_THRESHOLD = 10_000;

/** Query, query/count, get-by-id and entityInformation/fields for a read-mostly entity. */
function readOnlyEntityRoutes<TRow>(context: TSimContext, entity: string, fields: TAtFieldDefinition[], source: () => TAtSource<TRow>, findById: (id: number) => TAtRecord | undefined): TRoute[] {
  const base = `${AT_API_PREFIX}/${entity}`;
  return [
    ...(['query', 'query/next', 'query/prev'] as const).flatMap((suffix) => [
      route('POST', `${base}/${suffix}`, (request) => querySourceResponse(request, entity, fields, source())),
      route('GET', `${base}/${suffix}`, (request) => querySourceResponse(request, entity, fields, source())),
    ]),
    route('POST', `${base}/query/count`, (request) => countQuerySourceResponse(request, entity, fields, source())),
    route('GET', `${base}/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, fields))),
    route('GET', `${base}/entityInformation/userDefinedFields`, () => json(200, { fields: [] })),
    route('GET', `${base}/{id}`, (_request, params) => json(200, { item: findById(idParam(params)) ?? null })),
  ];
}

export function autotaskEntityRoutes(context: TSimContext): TRoute[] {
  const store = (): TSimContext['store'] => context.store;
  const records = (rows: () => TAtRecord[]) => (): TAtSource<TAtRecord> => ({ rows: rows(), id: (row) => Number(row.id), present: (row) => row });
  const apiUserResource = (): TAtRecord => presentAtApiUserResource(context.credentials.autotask.username);
  const find = <TRow>(row: TRow | undefined, present: (value: TRow) => TAtRecord): TAtRecord | undefined => (row === undefined ? undefined : present(row));
  return [
    ...readOnlyEntityRoutes(context, 'Companies', COMPANY_FIELDS, () => atCompanySource(store()), (id) => find(store().companies.get(id), presentAtCompany)),
    ...readOnlyEntityRoutes(context, 'Contacts', CONTACT_FIELDS, () => atContactSource(store()), (id) => find(store().contacts.get(id), presentAtContact)),
    ...readOnlyEntityRoutes(context, 'Resources', RESOURCE_FIELDS, records(() => [...[...store().members.all()].map(presentAtResource), apiUserResource()]), (id) =>
      id === API_USER_RESOURCE_ID ? apiUserResource() : find(store().members.get(id), presentAtResource),
    ),
    ...readOnlyEntityRoutes(context, 'Roles', ROLE_FIELDS, records(roleRows), (id) => roleRows().find((row) => row.id === id)),
    ...readOnlyEntityRoutes(context, 'ResourceServiceDeskRoles', RESOURCE_SERVICE_DESK_ROLE_FIELDS, records(() => [...store().members.all()].map(presentAtResourceServiceDeskRole)), (id) =>
      find(store().members.get(id), presentAtResourceServiceDeskRole),
    ),
    ...readOnlyEntityRoutes(context, 'Departments', DEPARTMENT_FIELDS, records(() => [...store().departments.all()].map(presentAtDepartment)), (id) => find(store().departments.get(id), presentAtDepartment)),
    ...readOnlyEntityRoutes(context, 'InternalLocations', LOCATION_FIELDS, records(() => [...store().locations.all()].map(presentAtLocation)), (id) => find(store().locations.get(id), presentAtLocation)),
    ...readOnlyEntityRoutes(context, 'TicketCategories', TICKET_CATEGORY_FIELDS, records(ticketCategoryRows), (id) => ticketCategoryRows().find((row) => row.id === id)),
    route('POST', `${AT_API_PREFIX}/Companies/{id}/Contacts`, (request, params) => {
      const company = store().companies.get(idParam(params));
      if (!company) return atErrors(500, 'Value does not reference an existing entity for companyID .');
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const body = request.body;
      const text = (name: string): string => {
        const value = bodyField(body, name);
        return typeof value === 'string' ? value.trim() : '';
      };
      const errors: string[] = [];
      const firstName = text('firstName');
      const lastName = text('lastName');
      if (firstName === '') errors.push('Missing Required Field: firstName.');
      if (lastName === '') errors.push('Missing Required Field: lastName.');
      const email = text('emailAddress');
      if (email !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors.push(`The email address '${email}' is not valid.`);
      const isActive = bodyField(body, 'isActive');
      if (errors.length > 0) return atErrors(500, ...errors);
      const now = store().now();
      const contact = store().contacts.insert({
        companyId: company.id,
        firstName,
        lastName,
        email,
        phone: text('phone'),
        title: text('title'),
        isPrimary: bodyField(body, 'primaryContact') === true,
        isActive: isActive === undefined || isActive === 1 || isActive === true,
        createdAt: now,
        updatedAt: now,
        ...(text('externalID') === '' ? {} : { externalReference: text('externalID') }),
      });
      countCreate(context);
      return json(200, { itemId: contact.id });
    }),
    route('PATCH', `${AT_API_PREFIX}/Companies/{id}/Contacts`, (request, params) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const body = request.body;
      const id = bodyField(body, 'id');
      const contact = typeof id === 'number' ? store().contacts.get(id) : undefined;
      if (!contact || contact.companyId !== idParam(params)) return atErrors(500, `Unable to find the Contact with id ${JSON.stringify(id)} under Company ${idParam(params)}.`);
      const text = (name: string, fallback: string): string => {
        const value = bodyField(body, name);
        return typeof value === 'string' ? value.trim() : fallback;
      };
      const firstName = text('firstName', contact.firstName);
      const lastName = text('lastName', contact.lastName);
      const email = text('emailAddress', contact.email);
      const errors: string[] = [];
      if (firstName === '' || lastName === '') errors.push('Required fields (firstName, lastName) cannot be cleared.');
      if (email !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) errors.push(`The email address '${email}' is not valid.`);
      if (errors.length > 0) return atErrors(500, ...errors);
      const isActive = bodyField(body, 'isActive');
      const primary = bodyField(body, 'primaryContact');
      store().contacts.put({
        ...contact,
        firstName,
        lastName,
        email,
        phone: text('phone', contact.phone),
        title: text('title', contact.title),
        isActive: isActive === undefined ? contact.isActive : isActive === 1 || isActive === true,
        isPrimary: typeof primary === 'boolean' ? primary : contact.isPrimary,
        updatedAt: store().now(),
      });
      return json(200, { itemId: contact.id });
    }),
    route('PATCH', `${AT_API_PREFIX}/Companies`, (request) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const body = request.body;
      const id = bodyField(body, 'id');
      const company = typeof id === 'number' ? store().companies.get(id) : undefined;
      if (!company) return atErrors(500, `Unable to find the Company with id ${JSON.stringify(id)}.`);
      const text = (name: string, fallback: string): string => {
        const value = bodyField(body, name);
        return typeof value === 'string' ? value.trim() : fallback;
      };
      const companyType = bodyField(body, 'companyType');
      if (companyType !== undefined && (typeof companyType !== 'number' || !store().companyTypes.get(companyType))) return atErrors(500, 'Value does not reference an existing entity for companyType .');
      const name = text('companyName', company.name);
      if (name === '') return atErrors(500, 'Required field companyName cannot be cleared.');
      const isActive = bodyField(body, 'isActive');
      store().companies.put({
        ...company,
        name,
        companyTypeId: typeof companyType === 'number' ? companyType : company.companyTypeId,
        phone: text('phone', company.phone),
        website: text('webAddress', company.website),
        addressLine1: text('address1', company.addressLine1),
        city: text('city', company.city),
        state: text('state', company.state),
        zip: text('postalCode', company.zip),
        isActive: typeof isActive === 'boolean' ? isActive : company.isActive,
        updatedAt: store().now(),
      });
      return json(200, { itemId: company.id });
    }),
    route('GET', `${AT_API_PREFIX}/ThresholdInformation`, () => {
      const hourAgo = context.now() - 3_600_000;
      context.autotaskCallTimes = context.autotaskCallTimes.filter((time) => time > hourAgo);
      return json(200, { externalRequestThreshold: HOURLY_THRESHOLD, requestThresholdTimeframe: 60, currentTimeframeRequestCount: context.autotaskCallTimes.length });
    }),
  ];
}

/** Zone discovery needs no credentials and is exempt from thread limits (psa-apis.md §3.1). */
export function autotaskPublicRoutes(context: TSimContext): TRoute[] {
  return [
    route('GET', '/atservicesrest/v1.0/zoneInformation', (request) => {
      const user = request.url.searchParams.get('user') ?? '';
      if (user.toLowerCase() !== context.credentials.autotask.username.toLowerCase()) return atErrors(500, 'Zone information could not be determined');
      return json(200, { zoneName: 'Simulator Zone', url: `${request.origin}/ATServicesRest/`, webUrl: `${request.origin}/`, ci: 1 });
    }),
  ];
}
