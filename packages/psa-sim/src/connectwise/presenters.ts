import type {
  SimStore,
  TSimBoard,
  TSimCallback,
  TSimCommunicationType,
  TSimCompany,
  TSimContact,
  TSimDepartment,
  TSimMember,
  TSimNamed,
  TSimNote,
  TSimPriority,
  TSimStatus,
  TSimTicket,
} from '../store';
import { cwDate, cwInfo } from './common';
import type { TCwRecord } from './common';

// Row → ConnectWise JSON, with the field names of the vendor models (connectwise-manage-reference.json).

function memberName(member: TSimMember): string {
  return `${member.firstName} ${member.lastName}`;
}

function withoutUndefined(record: TCwRecord): TCwRecord {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

export function presentBoard(store: SimStore, board: TSimBoard): TCwRecord {
  const location = board.locationId === null ? undefined : store.locations.get(board.locationId);
  const department = board.departmentId === null ? undefined : store.departments.get(board.departmentId);
  return withoutUndefined({
    id: board.id,
    name: board.name,
    location: location ? { id: location.id, name: location.name } : undefined,
    department: department ? { id: department.id, identifier: department.identifier, name: department.name } : undefined,
    inactiveFlag: !board.isActive,
    projectFlag: false,
    _info: {},
  });
}

export function presentStatus(status: TSimStatus, boardName: string): TCwRecord {
  return {
    id: status.id,
    name: status.name,
    board: { id: status.boardId, name: boardName },
    sortOrder: status.sortOrder,
    displayOnBoard: true,
    inactive: !status.isActive,
    closedStatus: status.isClosed,
    timeEntryNotAllowed: false,
    defaultFlag: status.isNew,
    escalationStatus: status.isClosed ? 'Resolved' : 'NotResponded',
    customerPortalFlag: false,
    _info: {},
  };
}

export function presentPriority(priority: TSimPriority): TCwRecord {
  return { id: priority.id, name: priority.name, color: priority.color, sortOrder: priority.sortOrder, defaultFlag: priority.isDefault, _info: {} };
}

export function presentSource(source: TSimNamed): TCwRecord {
  return { id: source.id, name: source.name, defaultFlag: source.isDefault, _info: {} };
}

export function presentCompanyType(type: TSimNamed): TCwRecord {
  return { id: type.id, name: type.name, defaultFlag: type.isDefault, vendorFlag: false, serviceAlertFlag: false, _info: {} };
}

export function presentCommunicationType(type: TSimCommunicationType): TCwRecord {
  return {
    id: type.id,
    description: type.description,
    phoneFlag: type.isPhone,
    faxFlag: type.isFax,
    emailFlag: type.isEmail,
    defaultFlag: type.isDefault,
    exchangeXref: '',
    iphoneXref: '',
    androidXref: '',
    googleXref: '',
    _info: {},
  };
}

export function presentDepartment(department: TSimDepartment): TCwRecord {
  return { id: department.id, identifier: department.identifier, name: department.name, _info: {} };
}

export function presentLocation(location: TSimNamed): TCwRecord {
  return { id: location.id, name: location.name, locationFlag: true, clientFlag: false, workRoleIds: [], departmentIds: [1, 2], _info: {} };
}

export function presentMember(member: TSimMember): TCwRecord {
  return {
    id: member.id,
    identifier: member.identifier,
    firstName: member.firstName,
    lastName: member.lastName,
    title: member.title,
    licenseClass: 'F',
    inactiveFlag: !member.isActive,
    officeEmail: member.email,
    officePhone: member.phone,
    primaryEmail: member.email,
    defaultEmail: 'Office',
    defaultPhone: 'Office',
    defaultLocation: { id: 1, name: 'Main Office' },
    defaultDepartment: { id: 1, identifier: 'Service', name: 'Service Desk' },
    serviceDefaultBoard: { id: 1, name: 'Help Desk' },
    _info: {},
  };
}

export function presentCompany(store: SimStore, company: TSimCompany): TCwRecord {
  const type = company.companyTypeId === null ? undefined : store.companyTypes.get(company.companyTypeId);
  return {
    id: company.id,
    identifier: company.identifier,
    name: company.name,
    status: { id: 1, name: 'Active' },
    addressLine1: company.addressLine1,
    city: company.city,
    state: company.state,
    zip: company.zip,
    phoneNumber: company.phone,
    website: company.website,
    deletedFlag: !company.isActive,
    types: type ? [{ id: type.id, name: type.name }] : [],
    site: { id: company.id, name: 'Main' },
    _info: cwInfo(company.createdAt, company.updatedAt),
    customFields: [],
  };
}

export function presentContact(store: SimStore, contact: TSimContact): TCwRecord {
  const company = store.companies.get(contact.companyId);
  const communicationItems: TCwRecord[] = [];
  if (contact.email !== '') {
    communicationItems.push({ id: contact.id * 2 - 1, type: { id: 1, name: 'Email' }, value: contact.email, defaultFlag: true, domain: `@${contact.email.split('@')[1] ?? ''}`, communicationType: 'Email' });
  }
  if (contact.phone !== '') {
    communicationItems.push({ id: contact.id * 2, type: { id: 2, name: 'Direct' }, value: contact.phone, defaultFlag: true, communicationType: 'Phone' });
  }
  return withoutUndefined({
    id: contact.id,
    firstName: contact.firstName,
    lastName: contact.lastName,
    company: company ? { id: company.id, identifier: company.identifier, name: company.name } : undefined,
    site: company ? { id: company.id, name: 'Main' } : undefined,
    title: contact.title,
    inactiveFlag: !contact.isActive,
    defaultFlag: contact.isPrimary,
    defaultPhoneType: contact.phone === '' ? undefined : 'Direct',
    defaultPhoneNbr: contact.phone === '' ? undefined : contact.phone,
    communicationItems,
    types: [],
    _info: cwInfo(contact.createdAt, contact.updatedAt),
    customFields: [],
  });
}

export function presentTicket(store: SimStore, ticket: TSimTicket): TCwRecord {
  const board = store.boards.get(ticket.boardId);
  const status = store.statuses.get(ticket.statusId);
  const company = store.companies.get(ticket.companyId);
  const contact = ticket.contactId === null ? undefined : store.contacts.get(ticket.contactId);
  const type = ticket.typeId === null ? undefined : store.boardTypes.get(ticket.typeId);
  const subType = ticket.subTypeId === null ? undefined : store.boardSubTypes.get(ticket.subTypeId);
  const item = ticket.itemId === null ? undefined : store.boardItems.get(ticket.itemId);
  const priority = ticket.priorityId === null ? undefined : store.priorities.get(ticket.priorityId);
  const owner = ticket.ownerId === null ? undefined : store.members.get(ticket.ownerId);
  const team = ticket.teamId === null ? undefined : store.boardTeams.get(ticket.teamId);
  const source = ticket.sourceId === null ? undefined : store.sources.get(ticket.sourceId);
  return withoutUndefined({
    id: ticket.id,
    summary: ticket.summary,
    recordType: 'ServiceTicket',
    board: board ? { id: board.id, name: board.name } : undefined,
    status: status ? { id: status.id, name: status.name, Sort: status.sortOrder } : undefined,
    company: company ? { id: company.id, identifier: company.identifier, name: company.name } : undefined,
    site: company ? { id: company.id, name: 'Main' } : undefined,
    contact: contact ? { id: contact.id, name: `${contact.firstName} ${contact.lastName}` } : undefined,
    contactName: ticket.reporterName || (contact ? `${contact.firstName} ${contact.lastName}` : undefined),
    contactPhoneNumber: ticket.reporterPhone || contact?.phone,
    contactEmailAddress: ticket.reporterEmail || contact?.email,
    type: type ? { id: type.id, name: type.name } : undefined,
    subType: subType ? { id: subType.id, name: subType.name } : undefined,
    item: item ? { id: item.id, name: item.name } : undefined,
    team: team ? { id: team.id, name: team.name } : undefined,
    owner: owner ? { id: owner.id, identifier: owner.identifier, name: memberName(owner) } : undefined,
    priority: priority ? { id: priority.id, name: priority.name, sort: priority.sortOrder } : undefined,
    source: source ? { id: source.id, name: source.name } : undefined,
    severity: ticket.severity ?? 'Medium',
    impact: ticket.impact ?? 'Medium',
    externalXRef: ticket.externalReference === '' ? undefined : ticket.externalReference,
    requiredDate: cwDate(ticket.dueAt),
    closedDate: cwDate(ticket.closedAt),
    closedBy: ticket.closedAt === null ? undefined : (ticket.closedBy ?? 'SimAPI'),
    closedFlag: ticket.closedAt !== null,
    dateResolved: cwDate(ticket.closedAt),
    location: { id: 1, name: 'Main Office' },
    department: { id: 1, identifier: 'Service', name: 'Service Desk' },
    _info: cwInfo(ticket.createdAt, ticket.updatedAt),
    customFields: [],
  });
}

export function presentNote(store: SimStore, note: TSimNote): TCwRecord {
  const member = note.memberId === null ? undefined : store.members.get(note.memberId);
  const contact = note.contactId === null ? undefined : store.contacts.get(note.contactId);
  return withoutUndefined({
    id: note.id,
    ticketId: note.ticketId,
    text: note.text,
    detailDescriptionFlag: note.isDescription,
    internalAnalysisFlag: note.isInternal,
    resolutionFlag: note.isResolution,
    issueFlag: false,
    member: member ? { id: member.id, identifier: member.identifier, name: memberName(member) } : undefined,
    contact: contact ? { id: contact.id, name: `${contact.firstName} ${contact.lastName}` } : undefined,
    customerUpdatedFlag: false,
    dateCreated: cwDate(note.createdAt),
    createdBy: member?.identifier ?? 'SimAPI',
    internalFlag: note.isInternal,
    externalFlag: !note.isInternal,
    _info: cwInfo(note.createdAt, note.updatedAt),
  });
}

export function presentCallback(callback: TSimCallback): TCwRecord {
  return {
    id: callback.id,
    description: callback.description,
    url: callback.url,
    objectId: callback.objectId,
    type: callback.type,
    level: callback.level,
    memberId: 1,
    payloadVersion: callback.payloadVersion,
    inactiveFlag: callback.isInactive,
    isSoapCallbackFlag: false,
    isSelfSuppressedFlag: callback.isSelfSuppressed,
    _info: {},
  };
}
