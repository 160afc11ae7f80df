import { loadDemoData } from './demo-data';
import type { SimStore, TSimMember } from './store';

export interface TDemoDirectoryCompany {
  id: number;
  name: string;
  identifier: string;
  companyType: string;
  phone: string;
  website: string;
  city: string;
  state: string;
}

export interface TDemoDirectoryContact {
  id: number;
  companyId: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string;
}

/** A technician as the directory lists it: the simulator's member without its active flag. */
export type TDemoDirectoryMember = Omit<TSimMember, 'isActive'>;

export interface TDemoDirectory {
  companies: TDemoDirectoryCompany[];
  contacts: TDemoDirectoryContact[];
  members: TDemoDirectoryMember[];
}

// The ids here are the ids both simulated PSAs serve, so the product's demo seed can reference them directly.
export function demoDirectory(directory?: URL): TDemoDirectory {
  const data = loadDemoData(directory);
  const companies: TDemoDirectoryCompany[] = data.companies.map((company) => ({
    id: company.id,
    name: company.name,
    identifier: company.identifier,
    companyType: company.companyType,
    phone: company.phone,
    website: company.website,
    city: company.city,
    state: company.state,
  }));
  const contacts: TDemoDirectoryContact[] = [];
  for (const company of data.companies) {
    for (const contact of company.contacts) {
      contacts.push({
        id: contacts.length + 1,
        companyId: company.id,
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone,
        title: contact.title,
      });
    }
  }
  const members: TDemoDirectoryMember[] = data.technicians.map((technician) => ({
    id: technician.id,
    identifier: technician.identifier,
    firstName: technician.firstName,
    lastName: technician.lastName,
    email: technician.email,
    phone: technician.phone,
    title: technician.title,
    tier: technician.tier,
  }));
  return { companies, contacts, members };
}

const COMMUNICATION_TYPES = [
  { description: 'Email', isEmail: true, isPhone: false, isFax: false, isDefault: true },
  { description: 'Direct', isEmail: false, isPhone: true, isFax: false, isDefault: true },
  { description: 'Cell', isEmail: false, isPhone: true, isFax: false, isDefault: false },
  { description: 'Fax', isEmail: false, isPhone: false, isFax: true, isDefault: true },
];
const SOURCES = ['Email', 'Phone', 'Portal', 'Walk-in'];
const PRIORITY_COLORS = ['Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Purple'];
const DEPARTMENTS = [
  { identifier: 'Service', name: 'Service Desk' },
  { identifier: 'Projects', name: 'Projects' },
];
const LOCATIONS = ['Main Office'];
const EMAIL_SOURCE_NAME = 'Email';

function parseTime(text: string): number {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new Error(`Invalid date in demo data: ${text}`);
  return time;
}

/** Status picklist values on the Autotask side: New is 1 and Complete is 5 there, the rest follow from 7. */
function autotaskStatusValues(statuses: { isNew: boolean; isClosed: boolean }[]): number[] {
  let next = 7;
  return statuses.map((status) => {
    if (status.isNew) return 1;
    if (status.isClosed) return 5;
    const value = next;
    next += 1;
    return value;
  });
}

/** Fills the reference data every simulator instance has, even with seed 'empty': one board from the default template. */
export function seedReferenceData(store: SimStore, directory?: URL): void {
  const data = loadDemoData(directory);
  for (const location of LOCATIONS) store.locations.insert({ name: location, isDefault: true });
  for (const department of DEPARTMENTS) store.departments.insert(department);
  for (const type of COMMUNICATION_TYPES) store.communicationTypes.insert(type);
  SOURCES.forEach((name, index) => store.sources.insert({ name, isDefault: index === 0 }));
  data.boardTemplate.priorities.forEach((priority, index) =>
    store.priorities.insert({ name: priority.name, sortOrder: index + 1, color: PRIORITY_COLORS[index] ?? 'Blue', isDefault: index === 2 }),
  );
  const board = store.boards.insert({ name: data.boardTemplate.boardName, locationId: 1, departmentId: 1, isActive: true });
  const statusFlags = data.boardTemplate.statuses.map((status) => ({ isNew: status.isNewTicketStatus === true, isClosed: status.isClosingStatus === true }));
  const autotaskValues = autotaskStatusValues(statusFlags);
  data.boardTemplate.statuses.forEach((status, index) => {
    store.statuses.insert({
      boardId: board.id,
      name: status.name,
      sortOrder: index,
      isNew: status.isNewTicketStatus === true,
      isClosed: status.isClosingStatus === true,
      isActive: true,
      autotaskValue: autotaskValues[index] ?? index + 1,
    });
  });
  for (const type of data.boardTemplate.types) {
    const createdType = store.boardTypes.insert({ boardId: board.id, name: type.typeName, isActive: true });
    for (const subType of type.subTypes) store.boardSubTypes.insert({ boardId: board.id, name: subType.subTypeName, typeIds: [createdType.id], isActive: true });
  }
  const companyTypeNames = [...new Set(data.companies.map((company) => company.companyType))];
  companyTypeNames.forEach((name, index) => store.companyTypes.insert({ name, isDefault: index === 0 }));
  for (const technician of data.technicians) {
    store.members.put({
      id: technician.id,
      identifier: technician.identifier,
      firstName: technician.firstName,
      lastName: technician.lastName,
      email: technician.email,
      phone: technician.phone,
      title: technician.title,
      tier: technician.tier,
      isActive: true,
    });
  }
}

/** Companies, contacts and the closed historical tickets (each with its description note and resolution note). */
export function seedDemoData(store: SimStore, directory?: URL): void {
  const data = loadDemoData(directory);
  const seededAt = store.now();
  const companyTypeIdByName = new Map([...store.companyTypes.all()].map((type) => [type.name, type.id]));
  const directoryData = demoDirectory(directory);
  for (const company of data.companies) {
    store.companies.put({
      id: company.id,
      name: company.name,
      identifier: company.identifier,
      companyTypeId: companyTypeIdByName.get(company.companyType) ?? null,
      phone: company.phone,
      website: company.website,
      addressLine1: '',
      city: company.city,
      state: company.state,
      zip: '',
      isActive: true,
      createdAt: seededAt,
      updatedAt: seededAt,
    });
  }
  const isPrimaryByEmail = new Map(data.companies.flatMap((company) => company.contacts.map((contact) => [contact.email, contact.isPrimary] as const)));
  for (const contact of directoryData.contacts) {
    store.contacts.put({ ...contact, isPrimary: isPrimaryByEmail.get(contact.email) ?? false, isActive: true, createdAt: seededAt, updatedAt: seededAt });
  }
  const contactIdByEmail = new Map(directoryData.contacts.map((contact) => [contact.email.toLowerCase(), contact.id]));
  const memberByIdentifier = new Map([...store.members.all()].map((member) => [member.identifier, member]));
  const typeIdByName = new Map([...store.boardTypes.all()].map((type) => [type.name, type.id]));
  const subTypes = [...store.boardSubTypes.all()];
  const priorityIdByName = new Map([...store.priorities.all()].map((priority) => [priority.name, priority.id]));
  const emailSourceId = [...store.sources.all()].find((source) => source.name === EMAIL_SOURCE_NAME)?.id ?? null;
  const board = store.defaultBoard();
  if (!board) throw new Error('Reference data must be seeded before demo data');
  const closedStatus = [...store.statuses.all()].find((status) => status.boardId === board.id && status.isClosed);
  if (!closedStatus) throw new Error('The board template has no closing status');
  for (const historical of data.historicalTickets) {
    const typeId = typeIdByName.get(historical.type) ?? null;
    const subTypeId = subTypes.find((subType) => subType.name === historical.subType && (typeId === null || subType.typeIds.includes(typeId)))?.id ?? null;
    const owner = memberByIdentifier.get(historical.technicianIdentifier);
    const contactId = contactIdByEmail.get(historical.contactEmail.toLowerCase()) ?? null;
    const createdAt = parseTime(historical.createdAt);
    const closedAt = parseTime(historical.closedAt);
    store.tickets.put({
      id: historical.id,
      summary: historical.summary,
      boardId: board.id,
      statusId: closedStatus.id,
      companyId: historical.companyId,
      contactId,
      typeId,
      subTypeId,
      itemId: null,
      priorityId: priorityIdByName.get(historical.priority) ?? null,
      ownerId: owner?.id ?? null,
      teamId: null,
      sourceId: emailSourceId,
      ticketTypeValue: 1,
      ticketCategoryValue: 1,
      description: historical.description,
      resolution: historical.resolution,
      externalReference: '',
      dueAt: null,
      createdAt,
      updatedAt: closedAt,
      closedAt,
      closedBy: owner?.identifier ?? null,
    });
    store.addNote({
      ticketId: historical.id,
      text: historical.description,
      title: 'Description',
      isDescription: true,
      isInternal: false,
      isResolution: false,
      memberId: null,
      contactId,
      createdAt,
      updatedAt: createdAt,
      autotaskNoteType: 1,
      autotaskPublish: 1,
    });
    store.addNote({
      ticketId: historical.id,
      text: historical.resolution,
      title: 'Resolution',
      isDescription: false,
      isInternal: false,
      isResolution: true,
      memberId: owner?.id ?? null,
      contactId: null,
      createdAt: closedAt,
      updatedAt: closedAt,
      autotaskNoteType: 3,
      autotaskPublish: 1,
    });
  }
}
