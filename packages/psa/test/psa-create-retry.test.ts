import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PsaClient } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

// Every create on both adapters, interrupted AFTER the simulator has stored the record (a 502 from a gateway, or the
// connection dropped before the answer arrived): the adapter must find the record instead of creating a second one.

const CW = '/v4_6_release/apis/3.0';
const AT = '/atservicesrest/v1.0';
const FAULTS = [502, 'drop'] as const;
type TFault = (typeof FAULTS)[number];

interface TCreateCase {
  name: string;
  /** The exact path of the create's POST, so lookups (and Autotask's POST queries beside it) are not faulted. */
  path: () => string;
  create: (fault: TFault) => Promise<{ id: number }>;
  /** How many records with this fault's name the PSA now holds. */
  countNamed: (fault: TFault) => Promise<number>;
  /** Records the whole call creates when nothing goes wrong (an Autotask webhook brings its fields and exclusion). */
  expectedCreates?: () => number;
}

let sim: TSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
});
afterAll(async () => sim.close());
beforeEach(() => sim.faults.reset());

/** ConnectWise's own `/count` for a conditions filter, read without the adapter. */
async function connectWiseCount(path: string, conditions: string): Promise<number> {
  const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
  const url = new URL(`${sim.url}${CW}${path}/count`);
  url.searchParams.set('conditions', conditions);
  const response = await fetch(url, { headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId } });
  const body = (await response.json()) as { count: number };
  return body.count;
}

/** Autotask's own `{Entity}/query/count` for one equality filter, read without the adapter. */
async function autotaskCount(entity: string, field: string, value: string | number): Promise<number> {
  const response = await fetch(`${sim.url}/ATServicesRest/V1.0/${entity}/query/count`, {
    method: 'POST',
    headers: autotaskHeaders(),
    body: JSON.stringify({ filter: [{ op: 'eq', field, value }] }),
  });
  const body = (await response.json()) as { queryCount: number };
  return body.queryCount;
}

async function firstCompanyId(client: PsaClient): Promise<number> {
  for await (const company of client.streamCompanies()) return company.id;
  throw new Error('the demo seed has no company');
}

async function countContactsNamed(client: PsaClient, companyId: number, lastName: string): Promise<number> {
  let count = 0;
  for await (const contact of client.streamContacts({ companyId })) if (contact.lastName === lastName) count += 1;
  return count;
}

/** Runs one create with an 'after' fault on its POST and checks the simulator stored exactly one record. */
async function expectExactlyOneCreate(createCase: TCreateCase, fault: TFault): Promise<void> {
  const createsBefore = sim.stats().creates;
  sim.faults.failNext({ kind: fault, phase: 'after', method: 'POST', path: createCase.path() });
  const record = await createCase.create(fault);
  expect(sim.faults.pendingCount()).toBe(0);
  expect(record.id).toBeGreaterThan(0);
  expect(sim.stats().creates - createsBefore).toBe(createCase.expectedCreates?.() ?? 1);
  expect(await createCase.countNamed(fault)).toBe(1);
}

describe('ConnectWise creates interrupted after the record was stored', () => {
  let client: PsaClient;
  let boardId: number;
  let typeId: number;
  let companyId: number;
  let ticketId: number;

  beforeAll(async () => {
    client = clientFor('connectwise', sim, { tenantKey: 'retry-connectwise' });
    const [board] = await client.listBoards();
    if (!board) throw new Error('the demo seed has no board');
    boardId = board.id;
    const [type] = await client.listTypes(boardId);
    if (!type) throw new Error('the demo board has no type');
    typeId = type.id;
    companyId = await firstCompanyId(client);
    ticketId = (await client.createTicket({ idempotencyKey: 'cw-note-host', summary: 'Hosts retried notes', description: 'd', boardId, companyId })).id;
  });

  const cases: TCreateCase[] = [
    {
      name: 'createBoard',
      path: () => `${CW}/service/boards`,
      create: async (fault) => {
        const [location] = await client.listLocations();
        const [department] = await client.listDepartments();
        if (!location || !department) throw new Error('no location or department');
        return client.createBoard({ name: `Retried board ${fault}`, locationId: location.id, departmentId: department.id });
      },
      countNamed: async (fault) => (await client.listBoards()).filter((board) => board.name === `Retried board ${fault}`).length,
    },
    {
      name: 'createStatus',
      path: () => `${CW}/service/boards/${boardId}/statuses`,
      create: (fault) => client.createStatus(boardId, { name: `Retried status ${fault}`, isClosed: false }),
      countNamed: async (fault) => (await client.listStatuses(boardId)).filter((status) => status.name === `Retried status ${fault}`).length,
    },
    {
      name: 'createType',
      path: () => `${CW}/service/boards/${boardId}/types`,
      create: (fault) => client.createType(boardId, { name: `Retried type ${fault}` }),
      countNamed: async (fault) => (await client.listTypes(boardId)).filter((type) => type.name === `Retried type ${fault}`).length,
    },
    {
      name: 'createSubtype',
      path: () => `${CW}/service/boards/${boardId}/subtypes`,
      create: (fault) => client.createSubtype(boardId, { name: `Retried subtype ${fault}`, typeIds: [typeId] }),
      countNamed: async (fault) => (await client.listSubtypes(boardId)).filter((subtype) => subtype.name === `Retried subtype ${fault}`).length,
    },
    {
      name: 'createContact',
      path: () => `${CW}/company/contacts`,
      create: (fault) => client.createContact({ idempotencyKey: `cw-contact-${fault}`, companyId, firstName: 'Retried', lastName: `Contact ${fault}`, email: `retried.${fault}@example.com` }),
      countNamed: (fault) => countContactsNamed(client, companyId, `Contact ${fault}`),
    },
    {
      name: 'createTicket',
      path: () => `${CW}/service/tickets`,
      create: (fault) => client.createTicket({ idempotencyKey: `cw-ticket-${fault}`, summary: `Retried ticket ${fault}`, description: 'd', boardId, companyId }),
      countNamed: (fault) => connectWiseCount('/service/tickets', `externalXRef="cw-ticket-${fault}"`),
    },
    {
      name: 'addNote',
      path: () => `${CW}/service/tickets/${ticketId}/notes`,
      create: (fault) => client.addNote(ticketId, { text: `Retried note ${fault}`, kind: 'internal' }),
      countNamed: async (fault) => (await client.listNotes(ticketId)).filter((note) => note.text === `Retried note ${fault}`).length,
    },
    {
      name: 'registerTicketWebhook',
      path: () => `${CW}/system/callbacks`,
      create: (fault) => client.registerTicketWebhook({ url: `https://hooks.example.com/cw-${fault}`, description: 'Retried callback', secretKey: 'webhook-secret-value' }),
      countNamed: (fault) => connectWiseCount('/system/callbacks', `url="https://hooks.example.com/cw-${fault}"`),
    },
  ];

  for (const createCase of cases) {
    it.each(FAULTS)(`${createCase.name} interrupted by %s stores exactly one record`, (fault) => expectExactlyOneCreate(createCase, fault));
  }
});

describe('Autotask creates interrupted after the record was stored', () => {
  let client: PsaClient;
  let webhookCreates = 0;
  let boardId: number;
  let companyId: number;
  let ticketId: number;

  beforeAll(async () => {
    client = clientFor('autotask', sim, { tenantKey: 'retry-autotask' });
    // A webhook is one create plus one per subscribed field plus the API user's exclusion: measure it once, unfaulted.
    const createsBefore = sim.stats().creates;
    await client.registerTicketWebhook({ url: 'https://hooks.example.com/at-measure', description: 'Measure', secretKey: 'webhook-secret-value' });
    webhookCreates = sim.stats().creates - createsBefore;
    const [board] = await client.listBoards();
    if (!board) throw new Error('the demo seed has no queue');
    boardId = board.id;
    companyId = await firstCompanyId(client);
    ticketId = (await client.createTicket({ idempotencyKey: 'at-note-host', summary: 'Hosts retried notes', description: 'd', boardId, companyId })).id;
  });

  const cases: TCreateCase[] = [
    {
      name: 'createContact',
      path: () => `${AT}/companies/${companyId}/contacts`,
      create: (fault) => client.createContact({ idempotencyKey: `at-contact-${fault}`, companyId, firstName: 'Retried', lastName: `Autotask contact ${fault}`, email: `retried.at.${fault}@example.com` }),
      // Both PSAs serve one store, so the name differs from the ConnectWise case's.
      countNamed: (fault) => countContactsNamed(client, companyId, `Autotask contact ${fault}`),
    },
    {
      name: 'createTicket',
      path: () => `${AT}/tickets`,
      create: (fault) => client.createTicket({ idempotencyKey: `at-ticket-${fault}`, summary: `Retried ticket ${fault}`, description: 'd', boardId, companyId }),
      countNamed: (fault) => autotaskCount('Tickets', 'externalID', `at-ticket-${fault}`),
    },
    {
      name: 'addNote',
      path: () => `${AT}/tickets/${ticketId}/notes`,
      create: (fault) => client.addNote(ticketId, { text: `Retried note ${fault}`, kind: 'internal' }),
      countNamed: async (fault) => (await client.listNotes(ticketId)).filter((note) => note.text === `Retried note ${fault}`).length,
    },
    {
      name: 'registerTicketWebhook',
      path: () => `${AT}/ticketwebhooks`,
      create: (fault) => client.registerTicketWebhook({ url: `https://hooks.example.com/at-${fault}`, description: 'Retried webhook', secretKey: 'webhook-secret-value' }),
      countNamed: (fault) => autotaskCount('TicketWebhooks', 'webhookUrl', `https://hooks.example.com/at-${fault}`),
      expectedCreates: () => webhookCreates,
    },
  ];

  for (const createCase of cases) {
    it.each(FAULTS)(`${createCase.name} interrupted by %s stores exactly one record`, (fault) => expectExactlyOneCreate(createCase, fault));
  }

  it.each(FAULTS)('the webhook field and excluded-resource creates interrupted by %s each store exactly one record', async (fault) => {
    const url = `https://hooks.example.com/at-parts-${fault}`;
    const webhook = await client.registerTicketWebhook({ url, description: 'Retried parts', secretKey: 'webhook-secret-value' });
    const fieldsPath = `/TicketWebhooks/${webhook.id}/Fields`;
    const excludedPath = `/TicketWebhooks/${webhook.id}/ExcludedResources`;
    const fieldsBefore = await autotaskItems(fieldsPath);
    const excludedBefore = await autotaskItems(excludedPath);
    expect(excludedBefore).toHaveLength(1);
    const removedField = fieldsBefore[0];
    const removedExcluded = excludedBefore[0];
    if (!removedField || !removedExcluded) throw new Error('the webhook has no subscribed field');
    // Take one field and the exclusion away, so registering again re-creates exactly those two.
    await autotaskDelete(`${fieldsPath}/${removedField.id}`);
    await autotaskDelete(`${excludedPath}/${removedExcluded.id}`);
    const createsBefore = sim.stats().creates;
    sim.faults.failNext({ kind: fault, phase: 'after', method: 'POST', path: `${AT}${fieldsPath}` });
    sim.faults.failNext({ kind: fault, phase: 'after', method: 'POST', path: `${AT}${excludedPath}` });
    expect((await client.registerTicketWebhook({ url, description: 'Retried parts', secretKey: 'webhook-secret-value' })).id).toBe(webhook.id);
    expect(sim.faults.pendingCount()).toBe(0);
    expect(sim.stats().creates - createsBefore).toBe(2);
    expect((await autotaskItems(fieldsPath)).map((field) => field.fieldID).sort()).toEqual(fieldsBefore.map((field) => field.fieldID).sort());
    expect((await autotaskItems(excludedPath)).map((excluded) => excluded.resourceID)).toEqual([removedExcluded.resourceID]);
  });
});

function autotaskHeaders(): Record<string, string> {
  const { username, secret, integrationCode } = sim.autotask;
  return { UserName: username, Secret: secret, ApiIntegrationCode: integrationCode, 'Content-Type': 'application/json' };
}

async function autotaskItems(path: string): Promise<{ id: number; fieldID?: number; resourceID?: number }[]> {
  const response = await fetch(`${sim.url}/ATServicesRest/V1.0${path}`, { headers: autotaskHeaders() });
  return ((await response.json()) as { items: { id: number; fieldID?: number; resourceID?: number }[] }).items;
}

async function autotaskDelete(path: string): Promise<void> {
  const response = await fetch(`${sim.url}/ATServicesRest/V1.0${path}`, { method: 'DELETE', headers: autotaskHeaders() });
  expect(response.status).toBe(200);
}

describe.each(['connectwise', 'autotask'] as const)('%s ticket create that timed out after the ticket was stored', (psaType) => {
  it('finds the stored ticket instead of creating a second', async () => {
    const quickClient = clientFor(psaType, sim, { tenantKey: `timeout-${psaType}`, timeoutMs: 300 });
    const [board] = await quickClient.listBoards();
    if (!board) throw new Error('the demo seed has no board');
    const companyId = await firstCompanyId(quickClient);
    const key = `timeout-after-${psaType}`;
    const createsBefore = sim.stats().creates;
    sim.faults.failNext({ kind: 'timeout', phase: 'after', method: 'POST', path: psaType === 'connectwise' ? `${CW}/service/tickets` : `${AT}/tickets` });
    const ticket = await quickClient.createTicket({ idempotencyKey: key, summary: 'Timed out, but stored', description: 'd', boardId: board.id, companyId });
    expect(ticket.externalReference).toBe(key);
    expect(sim.faults.pendingCount()).toBe(0);
    expect(sim.stats().creates - createsBefore).toBe(1);
    expect(psaType === 'connectwise' ? await connectWiseCount('/service/tickets', `externalXRef="${key}"`) : await autotaskCount('Tickets', 'externalID', key)).toBe(1);
  });
});
