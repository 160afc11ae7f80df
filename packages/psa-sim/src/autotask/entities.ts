import type { TSimContext } from '../context';
import type { SimStore, TSimCompany, TSimContact, TSimDepartment, TSimMember, TSimNamed, TSimNote, TSimTicket } from '../store';
import { atDate, picklistValue } from './common';
import type { TAtFieldDefinition, TAtPicklistValue, TAtRecord } from './common';

// Autotask field lists (TicketModel, TicketNoteModel, … in the swagger subset, camelCase on the wire) and row → item presenters.

export const TICKET_TYPES = ['Service Request', 'Incident', 'Problem', 'Change Request', 'Alert'];
export const TICKET_CATEGORIES = ['Standard', 'AEM Alert'];
export const NOTE_TYPES = ['Task Summary', 'Task Detail', 'Resolution'];
export const NOTE_PUBLISH = ['All Autotask Users', 'Internal Project Team'];
export const RESOLUTION_NOTE_TYPE = 3;
export const INTERNAL_PUBLISH = 2;

function listPicklist(labels: string[]): () => TAtPicklistValue[] {
  return () => labels.map((label, index) => picklistValue(index + 1, label, index, { isDefaultValue: index === 0, isSystem: true }));
}

/** Autotask's status picklist is global, so statuses of every board are merged by their Autotask value. */
export function statusPicklist(context: TSimContext): TAtPicklistValue[] {
  const byValue = new Map<number, TAtPicklistValue>();
  for (const status of context.store.statuses.all()) {
    if (!byValue.has(status.autotaskValue)) {
      byValue.set(status.autotaskValue, picklistValue(status.autotaskValue, status.name, status.sortOrder, { isDefaultValue: status.isNew, isSystem: status.autotaskValue === 1 || status.autotaskValue === 5, isActive: status.isActive }));
    }
  }
  return [...byValue.values()];
}

export const TICKET_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'ticketNumber', dataType: 'string', length: 50, isReadOnly: true },
  { name: 'title', dataType: 'string', length: 255, isRequired: true },
  { name: 'description', dataType: 'string', length: 8000 },
  { name: 'companyID', dataType: 'integer', isRequired: true, referenceEntityType: 'Company' },
  { name: 'contactID', dataType: 'integer', referenceEntityType: 'Contact' },
  { name: 'queueID', dataType: 'integer', picklist: (context) => [...context.store.boards.all()].map((board, index) => picklistValue(board.id, board.name, index, { isActive: board.isActive })) },
  { name: 'status', dataType: 'integer', isRequired: true, picklist: statusPicklist },
  { name: 'priority', dataType: 'integer', isRequired: true, picklist: (context) => [...context.store.priorities.all()].map((priority) => picklistValue(priority.id, priority.name, priority.sortOrder, { isDefaultValue: priority.isDefault })) },
  { name: 'issueType', dataType: 'integer', picklist: (context) => [...context.store.boardTypes.all()].map((type, index) => picklistValue(type.id, type.name, index, { isActive: type.isActive })) },
  {
    name: 'subIssueType',
    dataType: 'integer',
    picklistParentValueField: 'issueType',
    picklist: (context) =>
      [...context.store.boardSubTypes.all()].map((subType, index) => picklistValue(subType.id, subType.name, index, { parentValue: String(subType.typeIds[0] ?? ''), isActive: subType.isActive })),
  },
  { name: 'ticketType', dataType: 'integer', picklist: listPicklist(TICKET_TYPES) },
  { name: 'ticketCategory', dataType: 'integer', picklist: listPicklist(TICKET_CATEGORIES) },
  { name: 'source', dataType: 'integer', picklist: (context) => [...context.store.sources.all()].map((source, index) => picklistValue(source.id, source.name, index, { isDefaultValue: source.isDefault })) },
  { name: 'assignedResourceID', dataType: 'integer', referenceEntityType: 'Resource' },
  { name: 'assignedResourceRoleID', dataType: 'integer', referenceEntityType: 'Role' },
  { name: 'externalID', dataType: 'string', length: 50 },
  { name: 'resolution', dataType: 'string', length: 32000 },
  { name: 'dueDateTime', dataType: 'datetime' },
  { name: 'createDate', dataType: 'datetime', isReadOnly: true },
  { name: 'lastActivityDate', dataType: 'datetime', isReadOnly: true },
  { name: 'completedDate', dataType: 'datetime', isReadOnly: true },
  { name: 'completedByResourceID', dataType: 'integer', isReadOnly: true, referenceEntityType: 'Resource' },
  { name: 'resolvedDateTime', dataType: 'datetime', isReadOnly: true },
];

/** The role every simulated resource holds, which Autotask requires next to assignedResourceID. */
export const SERVICE_DESK_ROLE_ID = 29683354;

export function presentAtTicket(store: SimStore, ticket: TSimTicket): TAtRecord {
  const status = store.statuses.get(ticket.statusId);
  const created = new Date(ticket.createdAt);
  const datePart = `${created.getUTCFullYear()}${String(created.getUTCMonth() + 1).padStart(2, '0')}${String(created.getUTCDate()).padStart(2, '0')}`;
  return {
    id: ticket.id,
    ticketNumber: `T${datePart}.${String(ticket.id % 10000).padStart(4, '0')}`,
    title: ticket.summary,
    description: ticket.description,
    companyID: ticket.companyId,
    contactID: ticket.contactId,
    queueID: ticket.boardId,
    status: status?.autotaskValue ?? null,
    priority: ticket.priorityId,
    issueType: ticket.typeId,
    subIssueType: ticket.subTypeId,
    ticketType: ticket.ticketTypeValue,
    ticketCategory: ticket.ticketCategoryValue,
    source: ticket.sourceId,
    assignedResourceID: ticket.ownerId,
    assignedResourceRoleID: ticket.ownerId === null ? null : SERVICE_DESK_ROLE_ID,
    externalID: ticket.externalReference === '' ? null : ticket.externalReference,
    resolution: ticket.resolution === '' ? null : ticket.resolution,
    dueDateTime: atDate(ticket.dueAt),
    createDate: atDate(ticket.createdAt),
    lastActivityDate: atDate(ticket.updatedAt),
    completedDate: atDate(ticket.closedAt),
    completedByResourceID: ticket.closedAt === null ? null : ticket.ownerId,
    resolvedDateTime: atDate(ticket.closedAt),
    userDefinedFields: [],
  };
}

export const NOTE_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'ticketID', dataType: 'integer', isRequired: true, referenceEntityType: 'Ticket' },
  { name: 'title', dataType: 'string', length: 250 },
  { name: 'description', dataType: 'string', length: 32000, isRequired: true },
  { name: 'noteType', dataType: 'integer', isRequired: true, picklist: listPicklist(NOTE_TYPES) },
  { name: 'publish', dataType: 'integer', isRequired: true, picklist: listPicklist(NOTE_PUBLISH) },
  { name: 'createDateTime', dataType: 'datetime', isReadOnly: true },
  { name: 'lastActivityDate', dataType: 'datetime', isReadOnly: true },
  { name: 'creatorResourceID', dataType: 'integer', isReadOnly: true, referenceEntityType: 'Resource' },
  { name: 'impersonatorCreatorResourceID', dataType: 'integer', isReadOnly: true, referenceEntityType: 'Resource' },
];

export function presentAtNote(note: TSimNote): TAtRecord {
  return {
    id: note.id,
    ticketID: note.ticketId,
    title: note.title,
    description: note.text,
    noteType: note.autotaskNoteType,
    publish: note.autotaskPublish,
    createDateTime: atDate(note.createdAt),
    lastActivityDate: atDate(note.updatedAt),
    creatorResourceID: note.memberId,
    impersonatorCreatorResourceID: null,
  };
}

export const COMPANY_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'companyName', dataType: 'string', length: 100, isRequired: true },
  { name: 'companyNumber', dataType: 'string', length: 50 },
  { name: 'companyType', dataType: 'integer', isRequired: true, picklist: (context) => [...context.store.companyTypes.all()].map((type, index) => picklistValue(type.id, type.name, index, { isDefaultValue: type.isDefault })) },
  { name: 'phone', dataType: 'string', length: 25, isRequired: true },
  { name: 'webAddress', dataType: 'string', length: 255 },
  { name: 'address1', dataType: 'string', length: 128 },
  { name: 'city', dataType: 'string', length: 30 },
  { name: 'state', dataType: 'string', length: 25 },
  { name: 'postalCode', dataType: 'string', length: 20 },
  { name: 'isActive', dataType: 'boolean' },
  { name: 'ownerResourceID', dataType: 'integer', isRequired: true, referenceEntityType: 'Resource' },
  { name: 'parentCompanyID', dataType: 'integer', referenceEntityType: 'Company' },
  { name: 'createDate', dataType: 'datetime', isReadOnly: true },
  { name: 'lastActivityDate', dataType: 'datetime', isReadOnly: true },
];

export function presentAtCompany(company: TSimCompany): TAtRecord {
  return {
    id: company.id,
    companyName: company.name,
    companyNumber: company.identifier,
    companyType: company.companyTypeId,
    phone: company.phone,
    webAddress: company.website,
    address1: company.addressLine1,
    city: company.city,
    state: company.state,
    postalCode: company.zip,
    isActive: company.isActive,
    ownerResourceID: 1,
    parentCompanyID: null,
    createDate: atDate(company.createdAt),
    lastActivityDate: atDate(company.updatedAt),
    userDefinedFields: [],
  };
}

export const CONTACT_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'companyID', dataType: 'integer', isRequired: true, referenceEntityType: 'Company' },
  { name: 'firstName', dataType: 'string', length: 50, isRequired: true },
  { name: 'lastName', dataType: 'string', length: 50, isRequired: true },
  { name: 'emailAddress', dataType: 'string', length: 254 },
  { name: 'phone', dataType: 'string', length: 25 },
  { name: 'mobilePhone', dataType: 'string', length: 25 },
  { name: 'title', dataType: 'string', length: 50 },
  { name: 'isActive', dataType: 'integer', isRequired: true },
  { name: 'primaryContact', dataType: 'boolean' },
  { name: 'externalID', dataType: 'string', length: 50 },
  { name: 'createDate', dataType: 'datetime', isReadOnly: true },
  { name: 'lastActivityDate', dataType: 'datetime', isReadOnly: true },
  { name: 'lastModifiedDate', dataType: 'datetime', isReadOnly: true },
];

export function presentAtContact(contact: TSimContact): TAtRecord {
  return {
    id: contact.id,
    companyID: contact.companyId,
    firstName: contact.firstName,
    lastName: contact.lastName,
    emailAddress: contact.email,
    phone: contact.phone,
    mobilePhone: '',
    title: contact.title,
    isActive: contact.isActive ? 1 : 0,
    primaryContact: contact.isPrimary,
    externalID: contact.externalReference ?? null,
    createDate: atDate(contact.createdAt),
    lastActivityDate: atDate(contact.updatedAt),
    lastModifiedDate: atDate(contact.updatedAt),
    userDefinedFields: [],
  };
}

export const RESOURCE_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'firstName', dataType: 'string', length: 50 },
  { name: 'lastName', dataType: 'string', length: 50 },
  { name: 'email', dataType: 'string', length: 254 },
  { name: 'userName', dataType: 'string', length: 32 },
  { name: 'title', dataType: 'string', length: 50 },
  { name: 'officePhone', dataType: 'string', length: 25 },
  { name: 'isActive', dataType: 'boolean' },
  { name: 'resourceType', dataType: 'string' },
  { name: 'licenseType', dataType: 'integer' },
  { name: 'defaultServiceDeskRoleID', dataType: 'integer', referenceEntityType: 'Role' },
  { name: 'locationID', dataType: 'integer', referenceEntityType: 'InternalLocation' },
];

export function presentAtResource(member: TSimMember): TAtRecord {
  return {
    id: member.id,
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    userName: member.identifier,
    title: member.title,
    officePhone: member.phone,
    isActive: member.isActive,
    resourceType: 'Employee',
    licenseType: 1,
    defaultServiceDeskRoleID: SERVICE_DESK_ROLE_ID,
    locationID: 1,
    userDefinedFields: [],
  };
}

/**
 * Autotask API users are resources too, so every change made through the API is attributed to one; this is the demo
 * API user's. It has no service-desk role, so tickets cannot be assigned to it.
 */
export const API_USER_RESOURCE_ID = 29682885;

export function presentAtApiUserResource(username: string): TAtRecord {
  return {
    id: API_USER_RESOURCE_ID,
    firstName: 'Switchboard',
    lastName: 'API User',
    email: username,
    userName: username,
    title: '',
    officePhone: '',
    isActive: true,
    resourceType: 'Employee',
    licenseType: 1,
    defaultServiceDeskRoleID: null,
    locationID: 1,
    userDefinedFields: [],
  };
}

/** Whether `resourceId` names a simulated resource: a technician or the API user. */
export function isAtResource(store: SimStore, resourceId: number): boolean {
  return resourceId === API_USER_RESOURCE_ID || store.members.get(resourceId) !== undefined;
}

export const SERVICE_DESK_ROLE_NAME = 'Service Desk Technician';

export const ROLE_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'name', dataType: 'string', length: 200 },
  { name: 'description', dataType: 'string', length: 200 },
  { name: 'isActive', dataType: 'boolean' },
  { name: 'hourlyRate', dataType: 'double' },
];

export function roleRows(): TAtRecord[] {
  return [{ id: SERVICE_DESK_ROLE_ID, name: SERVICE_DESK_ROLE_NAME, description: '', isActive: true, hourlyRate: 0 }];
}

export const RESOURCE_SERVICE_DESK_ROLE_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'resourceID', dataType: 'integer', referenceEntityType: 'Resource' },
  { name: 'roleID', dataType: 'integer', referenceEntityType: 'Role' },
  { name: 'isDefault', dataType: 'boolean' },
  { name: 'isActive', dataType: 'boolean' },
];

/** Every resource holds the one service-desk role, by default, so `assignedResourceRoleID` is always that role. */
export function presentAtResourceServiceDeskRole(member: TSimMember): TAtRecord {
  return { id: member.id, resourceID: member.id, roleID: SERVICE_DESK_ROLE_ID, isDefault: true, isActive: member.isActive };
}

export const DEPARTMENT_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'name', dataType: 'string', length: 100, isRequired: true },
  { name: 'description', dataType: 'string', length: 1000 },
  { name: 'number', dataType: 'string', length: 50 },
  { name: 'primaryLocationID', dataType: 'integer', isRequired: true, referenceEntityType: 'InternalLocation' },
];

export function presentAtDepartment(department: TSimDepartment): TAtRecord {
  return { id: department.id, name: department.name, description: '', number: department.identifier, primaryLocationID: 1, userDefinedFields: [] };
}

export const LOCATION_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'name', dataType: 'string', length: 100 },
  { name: 'isDefault', dataType: 'boolean' },
  { name: 'timeZone', dataType: 'string' },
];

export function presentAtLocation(location: TSimNamed): TAtRecord {
  return { id: location.id, name: location.name, isDefault: location.isDefault, timeZone: 'Mountain Standard Time', userDefinedFields: [] };
}

export const TICKET_CATEGORY_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'name', dataType: 'string', length: 30 },
  { name: 'isActive', dataType: 'boolean' },
  { name: 'isApiOnly', dataType: 'boolean' },
  { name: 'isGlobalDefault', dataType: 'boolean' },
];

export function ticketCategoryRows(): TAtRecord[] {
  return TICKET_CATEGORIES.map((name, index) => ({ id: index + 1, name, isActive: true, isApiOnly: false, isGlobalDefault: index === 0, displayColorRGB: 0, nickname: name }));
}
