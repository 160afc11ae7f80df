import { loadDemoData } from './demo-data';
import { createRandom } from './faults';
import { seedReferenceData } from './seed';
import { SimStore } from './store';

export interface TScaleOptions {
  companies?: number;
  contacts?: number;
  tickets?: number;
  /** PRNG seed; the same seed and counts always give the same rows. */
  seed?: number;
}

const NAME_PARTS = {
  first: ['Alder', 'Birch', 'Cedar', 'Summit', 'Harbor', 'Prairie', 'Granite', 'Willow', 'Copper', 'Silver', 'Maple', 'Redwood', 'Lakeside', 'Riverbend', 'Northgate', 'Eastview'],
  second: ['Dental', 'Legal', 'Logistics', 'Realty', 'Clinic', 'Accounting', 'Design', 'Builders', 'Insurance', 'Veterinary', 'Engineering', 'Foods', 'Advisors', 'Media', 'Labs', 'Outfitters'],
  suffix: ['LLC', 'Inc.', 'Group', 'Partners', 'Co.', 'Associates'],
};
const FIRST_NAMES = ['Avery', 'Blake', 'Carmen', 'Devon', 'Elena', 'Farah', 'Gavin', 'Hana', 'Isaac', 'Jada', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sanjay', 'Tess', 'Uma', 'Victor', 'Wren', 'Yusuf', 'Zoe'];
const LAST_NAMES = ['Abbott', 'Bianchi', 'Castillo', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Larsen', 'Mensah', 'Novak', 'Okafor', 'Patel', 'Quispe', 'Rossi', 'Silva', 'Tanaka', 'Usman', 'Vargas', 'Weber', 'Xu', 'Young'];
const TITLES = ['Office Manager', 'Owner', 'Bookkeeper', 'Associate', 'Coordinator', 'Director', 'Analyst', 'Receptionist'];
const CITIES: [string, string][] = [['Denver', 'CO'], ['Boulder', 'CO'], ['Austin', 'TX'], ['Portland', 'OR'], ['Madison', 'WI'], ['Raleigh', 'NC'], ['Tucson', 'AZ'], ['Omaha', 'NE']];
/** Scale rows are dated in the two years before this fixed instant, so generation never depends on the clock. */
const SCALE_EPOCH = Date.UTC(2026, 0, 1);
const TWO_YEARS_MS = 2 * 365 * 24 * 3_600_000;

function pick<T>(random: () => number, values: readonly T[]): T {
  const value = values[Math.floor(random() * values.length)];
  if (value === undefined) throw new Error('Cannot pick from an empty list');
  return value;
}

function referenceOnlyStore(): SimStore {
  const store = new SimStore();
  seedReferenceData(store);
  return store;
}

/**
 * Adds generated companies, contacts and tickets after the existing rows (ids continue from the highest id).
 * Rows are compact: strings come from small shared pools, tickets reuse the historical texts, and scale tickets carry no notes.
 */
export function generateScale(options: TScaleOptions, store: SimStore = referenceOnlyStore()): SimStore {
  const random = createRandom(options.seed ?? 20_260_101);
  const data = loadDemoData();
  const companyTypeIds = [...store.companyTypes.all()].map((type) => type.id);
  const createdCompanyIds: number[] = [];
  for (let index = 0; index < (options.companies ?? 0); index += 1) {
    const name = `${pick(random, NAME_PARTS.first)} ${pick(random, NAME_PARTS.second)} ${pick(random, NAME_PARTS.suffix)}`;
    const id = store.companies.peekNextId();
    const [city, state] = pick(random, CITIES);
    const createdAt = SCALE_EPOCH - Math.floor(random() * TWO_YEARS_MS);
    store.companies.put({
      id,
      name: `${name} ${id}`,
      identifier: `SC${id}`,
      companyTypeId: companyTypeIds.length > 0 ? pick(random, companyTypeIds) : null,
      phone: `303555${String(id % 10000).padStart(4, '0')}`,
      website: `https://sc${id}.example`,
      addressLine1: `${100 + (id % 900)} Main St`,
      city,
      state,
      zip: String(80000 + (id % 1000)),
      isActive: true,
      createdAt,
      updatedAt: createdAt,
    });
    createdCompanyIds.push(id);
  }
  const companyIds = createdCompanyIds.length > 0 ? createdCompanyIds : [...store.companies.all()].map((company) => company.id);
  const contactIdsByCompany = new Map<number, number[]>();
  if ((options.contacts ?? 0) > 0 && companyIds.length === 0) throw new Error('Scale contacts need at least one company');
  for (let index = 0; index < (options.contacts ?? 0); index += 1) {
    const companyId = companyIds[index % companyIds.length] ?? 0;
    const id = store.contacts.peekNextId();
    const firstName = pick(random, FIRST_NAMES);
    const lastName = pick(random, LAST_NAMES);
    const createdAt = SCALE_EPOCH - Math.floor(random() * TWO_YEARS_MS);
    store.contacts.put({
      id,
      companyId,
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}.${id}@sc${companyId}.example`,
      phone: `720555${String(id % 10000).padStart(4, '0')}`,
      title: pick(random, TITLES),
      isPrimary: index < companyIds.length,
      isActive: true,
      createdAt,
      updatedAt: createdAt,
    });
    const list = contactIdsByCompany.get(companyId);
    if (list) list.push(id);
    else contactIdsByCompany.set(companyId, [id]);
  }
  const board = store.defaultBoard();
  const ticketCount = options.tickets ?? 0;
  if (ticketCount > 0) {
    if (!board) throw new Error('Scale tickets need the reference data (a board) to be seeded first');
    if (companyIds.length === 0) throw new Error('Scale tickets need at least one company');
    const statuses = [...store.statuses.all()].filter((status) => status.boardId === board.id);
    const subTypes = [...store.boardSubTypes.all()].filter((subType) => subType.boardId === board.id);
    const priorityIds = [...store.priorities.all()].map((priority) => priority.id);
    const memberIds = [...store.members.all()].map((member) => member.id);
    const historical = data.historicalTickets;
    for (let index = 0; index < ticketCount; index += 1) {
      const id = store.tickets.peekNextId();
      const template = pick(random, historical);
      const companyId = pick(random, companyIds);
      const contacts = contactIdsByCompany.get(companyId);
      const status = pick(random, statuses);
      const subType = subTypes.length > 0 ? pick(random, subTypes) : undefined;
      const createdAt = SCALE_EPOCH - Math.floor(random() * TWO_YEARS_MS);
      const closedAt = status.isClosed ? createdAt + Math.floor(random() * 5 * 86_400_000) : null;
      store.tickets.put({
        id,
        summary: template.summary,
        boardId: board.id,
        statusId: status.id,
        companyId,
        contactId: contacts && contacts.length > 0 ? pick(random, contacts) : null,
        typeId: subType?.typeIds[0] ?? null,
        subTypeId: subType?.id ?? null,
        itemId: null,
        priorityId: priorityIds.length > 0 ? pick(random, priorityIds) : null,
        ownerId: status.isNew || memberIds.length === 0 ? null : pick(random, memberIds),
        teamId: null,
        sourceId: null,
        ticketTypeValue: 1,
        ticketCategoryValue: 1,
        description: template.description,
        resolution: closedAt === null ? '' : template.resolution,
        externalReference: '',
        dueAt: null,
        createdAt,
        updatedAt: closedAt ?? createdAt,
        closedAt,
        closedBy: null,
      });
    }
  }
  return store;
}

export interface TCompanyWithContacts {
  /** The company's name, unique enough for a scenario to find it by. */
  name: string;
  contacts: number;
  seed?: number;
}

/**
 * Scenario support: one more company, holding `contacts` generated contacts, after the existing rows. A journey uses it
 * for a directory larger than one PSA page (1,000 rows) without changing the companies other journeys read.
 */
export function addCompanyWithContacts(store: SimStore, input: TCompanyWithContacts): { companyId: number } {
  const random = createRandom(input.seed ?? 20_260_127);
  const companyId = store.companies.peekNextId();
  const companyTypeIds = [...store.companyTypes.all()].map((type) => type.id);
  const [city, state] = pick(random, CITIES);
  store.companies.put({
    id: companyId,
    name: input.name,
    identifier: `SC${companyId}`,
    companyTypeId: companyTypeIds[0] ?? null,
    phone: `303555${String(companyId % 10000).padStart(4, '0')}`,
    website: `https://sc${companyId}.example`,
    addressLine1: `${100 + (companyId % 900)} Main St`,
    city,
    state,
    zip: String(80000 + (companyId % 1000)),
    isActive: true,
    createdAt: SCALE_EPOCH,
    updatedAt: SCALE_EPOCH,
  });
  for (let index = 0; index < input.contacts; index += 1) {
    const id = store.contacts.peekNextId();
    const firstName = pick(random, FIRST_NAMES);
    const lastName = pick(random, LAST_NAMES);
    store.contacts.put({
      id,
      companyId,
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}.${id}@sc${companyId}.example`,
      phone: `720555${String(id % 10000).padStart(4, '0')}`,
      title: pick(random, TITLES),
      isPrimary: index === 0,
      isActive: true,
      createdAt: SCALE_EPOCH,
      updatedAt: SCALE_EPOCH,
    });
  }
  return { companyId };
}
