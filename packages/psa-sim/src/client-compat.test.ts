import { AutotaskApiError, AutotaskRestApi } from '@apigrate/autotask-restapi';
import { ManageAPI } from 'connectwise-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord } from './test-support';

// Existing npm clients for both APIs, pointed at the simulator by base URL only.

let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

/**
 * connectwise-rest 1.3.0 always builds `https://{companyUrl}/…`; the simulator speaks plain HTTP, so the base URL of
 * each axios instance (the root client and every sub-API) is pointed at it. Nothing else about the client changes.
 */
function pointAtSimulator(client: ManageAPI, baseUrl: string): void {
  const targets: unknown[] = [client, ...Object.values(client as unknown as Record<string, unknown>)];
  for (const target of targets) {
    if (typeof target !== 'object' || target === null || !('instance' in target)) continue;
    const instance = (target as { instance: { defaults: { baseURL?: string } } }).instance;
    instance.defaults.baseURL = baseUrl;
  }
}

describe('connectwise-rest (ConnectWise Manage client) against the simulator', () => {
  function client(): ManageAPI {
    const manage = new ManageAPI({
      companyId: sim.connectWise.companyId,
      companyUrl: new URL(sim.connectWise.siteUrl).host,
      publicKey: sim.connectWise.publicKey,
      privateKey: sim.connectWise.privateKey,
      clientId: sim.connectWise.clientId,
    });
    pointAtSimulator(manage, `${sim.connectWise.siteUrl}/v4_6_release/apis/3.0`);
    return manage;
  }

  it('lists tickets with conditions, creates a ticket and pages through companies', async () => {
    const manage = client();
    const tickets = await manage.ServiceAPI.getServiceTickets({ conditions: 'company/id = 12 and closedFlag = true and summary contains "linkedin"', orderBy: 'id asc', pageSize: 10 });
    expect(tickets.map((ticket) => ticket.id)).toContain(100001);
    const created = await manage.ServiceAPI.postServiceTickets({ summary: 'Created through connectwise-rest', company: { id: 4 }, board: { id: 1 }, externalXRef: 'compat-1' });
    expect(created).toMatchObject({ summary: 'Created through connectwise-rest', company: { id: 4 }, status: { name: 'New' } });
    const companies = await manage.paginate((params: Record<string, unknown>) => manage.CompanyAPI.getCompanyCompanies(params), { startPage: 1, pageSize: 5 }, {});
    expect(companies).toHaveLength(24);
  });

  it('surfaces the simulator error body through the client', async () => {
    const manage = client();
    await expect(manage.ServiceAPI.postServiceTickets({ summary: '' })).rejects.toMatchObject({ status: 400, data: { code: 'InvalidObject' } });
  });
});

describe('@apigrate/autotask-restapi (Autotask client) against the simulator', () => {
  function client(): AutotaskRestApi {
    // The default base URL is https://webservices.autotask.net/ATServicesRest/; zone discovery then supplies the rest.
    return new AutotaskRestApi(sim.autotask.username, sim.autotask.secret, sim.autotask.integrationCode, { base_url: `${sim.url}/ATServicesRest/` });
  }

  it('discovers the zone, queries tickets with a filter, creates a ticket and follows company pages', async () => {
    const autotask = client();
    const result = asRecord(await autotask.Tickets.query({ filter: [{ op: 'and', items: [{ op: 'eq', field: 'companyID', value: 12 }, { op: 'contains', field: 'title', value: 'linkedin' }] }] }));
    expect(autotask.zoneInfo?.url).toBe(`${sim.url}/ATServicesRest/`);
    expect(asArray(result.items).map((item) => item.id)).toContain(100001);
    const created = asRecord(await autotask.Tickets.create({ companyID: 4, title: 'Created through autotask-restapi', status: 1, priority: 2, queueID: 1, externalID: 'compat-2' }));
    const fetched = asRecord(await autotask.Tickets.get(Number(created.itemId)));
    expect(asRecord(fetched.item)).toMatchObject({ title: 'Created through autotask-restapi', externalID: 'compat-2' });
    const ids: unknown[] = [];
    let lastId = 0;
    for (;;) {
      const page = asRecord(await autotask.Companies.query({ filter: [{ op: 'gt', field: 'id', value: lastId }], MaxRecords: 10 }));
      const items = asArray(page.items);
      ids.push(...items.map((item) => item.id));
      if (asRecord(page.pageDetails).nextPageUrl === null) break;
      lastId = Number(items[items.length - 1]?.id);
    }
    expect(ids).toHaveLength(24);
    const note = asRecord(await autotask.TicketNotes.create(100001, { title: 'Compat', description: 'Note through the client', noteType: 1, publish: 1 }));
    expect(typeof note.itemId).toBe('number');
  });

  it('raises AutotaskApiError with the simulator error body on validation failures', async () => {
    const autotask = client();
    const failure: unknown = await autotask.Tickets.create({ title: 'no company' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AutotaskApiError);
    expect(failure).toMatchObject({ status: 500, details: { errors: expect.arrayContaining(['Missing Required Field: companyID.']) as unknown } });
  });
});
