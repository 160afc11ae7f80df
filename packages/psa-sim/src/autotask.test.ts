import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, autotaskHeaders } from './test-support';

let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

function picklist(fields: unknown, name: string): Record<string, unknown>[] {
  const field = asArray(asRecord(fields).fields).find((candidate) => candidate.name === name);
  return asArray(field?.picklistValues);
}

describe('Autotask discovery and auth', () => {
  it('discovers the zone case-insensitively and rejects unknown users', async () => {
    const zone = await fetch(`${sim.autotask.zoneDiscoveryUrl}?user=${encodeURIComponent('API@Northwind.sim')}`);
    expect(await zone.json()).toEqual({ zoneName: 'Simulator Zone', url: `${sim.url}/ATServicesRest/`, webUrl: `${sim.url}/`, ci: 1 });
    const upper = await fetch(`${sim.url}/ATServicesRest/V1.0/ZoneInformation?user=${sim.autotask.username}`);
    expect(upper.status).toBe(200);
    const unknown = await fetch(`${sim.autotask.zoneDiscoveryUrl}?user=nobody@example.com`);
    expect(unknown.status).toBe(500);
    expect(await unknown.json()).toEqual({ errors: ['Zone information could not be determined'] });
  });

  it('answers 401 {errors: [...]} for a wrong secret or integration code', async () => {
    const wrongSecret = await autotaskCall(sim, 'GET', '/Tickets/100001', undefined, { ...autotaskHeaders(sim), Secret: 'nope' });
    expect(wrongSecret.status).toBe(401);
    expect(asArray(asRecord(wrongSecret.body).errors).length).toBeGreaterThan(0);
    const wrongCode = await autotaskCall(sim, 'GET', '/Tickets/100001', undefined, { ...autotaskHeaders(sim), ApiIntegrationCode: 'OTHER' });
    expect(wrongCode.status).toBe(401);
  });
});

describe('Autotask picklists and entities', () => {
  it('exposes queue, status, priority, issue and sub-issue types with parentValue', async () => {
    const fields = (await autotaskCall(sim, 'GET', '/Tickets/entityInformation/fields')).body;
    expect(picklist(fields, 'queueID').map((value) => value.label)).toEqual(['Help Desk']);
    const statuses = picklist(fields, 'status');
    expect(statuses.find((value) => value.label === 'New')?.value).toBe('1');
    expect(statuses.find((value) => value.label === 'Closed')?.value).toBe('5');
    expect(picklist(fields, 'priority').map((value) => value.label)).toContain('Priority 1 - Critical');
    const issueTypes = picklist(fields, 'issueType');
    const hardware = issueTypes.find((value) => value.label === 'Hardware');
    const printer = picklist(fields, 'subIssueType').find((value) => value.label === 'Printer / Scanner');
    expect(printer?.parentValue).toBe(hardware?.value);
    expect(picklist(fields, 'ticketType').length).toBeGreaterThan(0);
    expect(picklist(fields, 'source').map((value) => value.label)).toContain('Email');
    expect(picklist(fields, 'ticketCategory').length).toBeGreaterThan(0);
    const companyTypes = picklist((await autotaskCall(sim, 'GET', '/Companies/entityInformation/fields')).body, 'companyType');
    expect(companyTypes.map((value) => value.label)).toEqual(expect.arrayContaining(['Managed Services', 'Prospect']));
    const noteTypes = picklist((await autotaskCall(sim, 'GET', '/TicketNotes/entityInformation/fields')).body, 'noteType');
    expect(noteTypes.length).toBeGreaterThan(0);
  });

  it('queries companies, contacts, resources and departments with the same ids as ConnectWise', async () => {
    const companies = asRecord((await autotaskCall(sim, 'POST', '/Companies/query', { filter: [{ op: 'eq', field: 'companyName', value: 'Brightwater Family Dental' }] })).body);
    expect(asArray(companies.items)[0]).toMatchObject({ id: 1, companyType: expect.any(Number) as unknown });
    const contacts = asRecord((await autotaskCall(sim, 'POST', '/Contacts/query', { filter: [{ op: 'eq', field: 'emailAddress', value: 'tanya.beaulieu@brightwaterdental.example' }] })).body);
    expect(asArray(contacts.items)[0]).toMatchObject({ id: 2, companyID: 1, isActive: 1 });
    const resources = asRecord((await autotaskCall(sim, 'POST', '/Resources/query', { filter: [{ op: 'eq', field: 'isActive', value: true }] })).body);
    expect(asArray(resources.items)[0]).toMatchObject({ id: 1, userName: 'javila', email: 'jordan.avila@northwind-it.example' });
    const departments = asRecord((await autotaskCall(sim, 'POST', '/Departments/query', { filter: [{ op: 'exist', field: 'id' }] })).body);
    expect(asArray(departments.items).length).toBeGreaterThan(0);
    const roles = asRecord((await autotaskCall(sim, 'POST', '/ResourceServiceDeskRoles/query', { filter: [{ op: 'eq', field: 'resourceID', value: 3 }] })).body);
    const roleId = asArray(roles.items)[0]?.roleID;
    const role = asRecord(asRecord((await autotaskCall(sim, 'GET', `/Roles/${String(roleId)}`)).body).item);
    expect(role.name).toBe('Service Desk Technician');
    const assigned = await autotaskCall(sim, 'POST', '/Tickets', { companyID: 1, title: 'Assigned', status: 1, priority: 2, assignedResourceID: 3, assignedResourceRoleID: roleId });
    expect(typeof asRecord(assigned.body).itemId).toBe('number');
    const threshold = asRecord((await autotaskCall(sim, 'GET', '/ThresholdInformation')).body);
    expect(threshold).toMatchObject({ externalRequestThreshold: 10000, requestThresholdTimeframe: 60 });
  });

  it('rejects unknown fields and malformed queries with 500 {errors}', async () => {
    const unknownField = await autotaskCall(sim, 'POST', '/Tickets/query', { filter: [{ op: 'eq', field: 'nonsense', value: 1 }] });
    expect(unknownField.status).toBe(500);
    expect(asArray(asRecord(unknownField.body).errors)[0]).toMatch(/nonsense/);
    expect((await autotaskCall(sim, 'POST', '/Tickets/query', { filter: [] })).status).toBe(500);
  });
});

describe('Autotask paging', () => {
  it('returns at most 500 per page and follows nextPageUrl as-is, by POST and by GET', async () => {
    const historical = [{ op: 'lte', field: 'id', value: 100520 }];
    const first = asRecord((await autotaskCall(sim, 'POST', '/Tickets/query', { filter: historical, IncludeFields: ['id', 'title'] })).body);
    const firstDetails = asRecord(first.pageDetails);
    expect(asArray(first.items)).toHaveLength(500);
    expect(firstDetails).toMatchObject({ count: 500, requestCount: 500, prevPageUrl: null });
    expect(Object.keys(asArray(first.items)[0] ?? {}).sort()).toEqual(['id', 'title']);
    const nextUrl = String(firstDetails.nextPageUrl);
    expect(nextUrl.startsWith(`${sim.url}/ATServicesRest/V1.0/Tickets/query/next?paging=`)).toBe(true);
    const second = asRecord((await autotaskCall(sim, 'GET', nextUrl)).body);
    expect(asArray(second.items)).toHaveLength(20);
    expect(asRecord(second.pageDetails).nextPageUrl).toBeNull();
    const secondByPost = asRecord((await autotaskCall(sim, 'POST', nextUrl, { filter: historical })).body);
    expect(asArray(secondByPost.items).map((item) => item.id)).toEqual(asArray(second.items).map((item) => item.id));
    const previous = asRecord((await autotaskCall(sim, 'GET', String(asRecord(second.pageDetails).prevPageUrl))).body);
    expect(asArray(previous.items).map((item) => item.id)).toEqual(asArray(first.items).map((item) => item.id));
  });

  it('honours MaxRecords, GET ?search= and query/count', async () => {
    const search = encodeURIComponent(JSON.stringify({ filter: [{ op: 'eq', field: 'companyID', value: 12 }], MaxRecords: 5 }));
    const page = asRecord((await autotaskCall(sim, 'GET', `/Tickets/query?search=${search}`)).body);
    expect(asArray(page.items)).toHaveLength(5);
    expect(asRecord(page.pageDetails).requestCount).toBe(5);
    const count = asRecord((await autotaskCall(sim, 'POST', '/Tickets/query/count', { filter: [{ op: 'eq', field: 'companyID', value: 12 }] })).body);
    expect(count.queryCount).toBeGreaterThan(5);
  });
});

describe('Autotask ticket writes', () => {
  it('creates a ticket answering {itemId}, stores externalID, and reads it back in both PSAs', async () => {
    const created = await autotaskCall(sim, 'POST', '/Tickets', { companyID: 1, contactID: 2, title: 'Laptop fan loud', description: 'Fan is loud', status: 1, priority: 3, queueID: 1, issueType: 3, subIssueType: 9, externalID: 'sb-77' });
    expect(created.status).toBe(200);
    const itemId = asRecord(created.body).itemId;
    expect(typeof itemId).toBe('number');
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', `/Tickets/${String(itemId)}`)).body).item);
    expect(item).toMatchObject({ title: 'Laptop fan loud', externalID: 'sb-77', status: 1, companyID: 1, ticketNumber: expect.stringMatching(/^T\d{8}\.\d{4}$/) as unknown });
    const deduped = asRecord((await autotaskCall(sim, 'POST', '/Tickets/query', { filter: [{ op: 'eq', field: 'externalID', value: 'sb-77' }] })).body);
    expect(asArray(deduped.items).map((row) => row.id)).toEqual([itemId]);
    const connectWise = await fetch(`${sim.url}/v4_6_release/apis/3.0/service/tickets/${String(itemId)}`, {
      headers: { Authorization: `Basic ${Buffer.from('northwind+SimPublicKey1:SimPrivateKey1').toString('base64')}`, clientId: sim.connectWise.clientId },
    });
    expect(await connectWise.json()).toMatchObject({ summary: 'Laptop fan loud', externalXRef: 'sb-77', type: { name: 'Hardware' } });
  });

  it('reports missing required fields and bad references as 500 {errors}', async () => {
    const missing = await autotaskCall(sim, 'POST', '/Tickets', { title: 'No company' });
    expect(missing.status).toBe(500);
    expect(asArray(asRecord(missing.body).errors)).toEqual(expect.arrayContaining(['Missing Required Field: companyID.', 'Missing Required Field: status.']));
    const badRole = await autotaskCall(sim, 'POST', '/Tickets', { companyID: 1, title: 'x', status: 1, priority: 1, assignedResourceID: 1 });
    expect(asArray(asRecord(badRole.body).errors)[0]).toMatch(/assignedResourceRoleID/);
  });

  it('updates with PATCH {id, ...}, closes with status 5 and records the resolution', async () => {
    const itemId = asRecord((await autotaskCall(sim, 'POST', '/Tickets', { companyID: 2, title: 'Printer', status: 1, priority: 2 })).body).itemId;
    const patched = await autotaskCall(sim, 'PATCH', '/Tickets', { id: itemId, status: 5, resolution: 'Cleared the jam' });
    expect(patched.body).toEqual({ itemId });
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', `/Tickets/${String(itemId)}`)).body).item);
    expect(item).toMatchObject({ status: 5, resolution: 'Cleared the jam', title: 'Printer' });
    expect(item.completedDate).toEqual(expect.any(String));
  });

  it('adds notes through Tickets/{id}/Notes, reads them through TicketNotes/query, and 404s POST /TicketNotes', async () => {
    const note = await autotaskCall(sim, 'POST', '/Tickets/100001/Notes', { title: 'Follow-up', description: 'Called the user back', noteType: 1, publish: 2 });
    const noteId = asRecord(note.body).itemId;
    expect(typeof noteId).toBe('number');
    const notes = asRecord((await autotaskCall(sim, 'POST', '/TicketNotes/query', { filter: [{ op: 'eq', field: 'ticketID', value: 100001 }] })).body);
    expect(asArray(notes.items).map((row) => row.id)).toContain(noteId);
    const listed = asRecord((await autotaskCall(sim, 'GET', '/Tickets/100001/Notes')).body);
    expect(asArray(listed.items)).toHaveLength(3);
    expect((await autotaskCall(sim, 'POST', '/TicketNotes', { ticketID: 100001, description: 'x', noteType: 1, publish: 1 })).status).toBe(404);
    const impersonated = await autotaskCall(sim, 'POST', '/Tickets/100001/Notes', { description: 'As Priya', noteType: 1, publish: 1 }, { ...autotaskHeaders(sim), ImpersonationResourceId: '2' });
    const impersonatedNote = asRecord(asRecord((await autotaskCall(sim, 'GET', `/TicketNotes/${String(asRecord(impersonated.body).itemId)}`)).body).item);
    expect(impersonatedNote.creatorResourceID).toBe(2);
    const missingType = await autotaskCall(sim, 'POST', '/Tickets/100001/Notes', { description: 'x' });
    expect(missingType.status).toBe(500);
  });

  it('creates contacts under Companies/{id}/Contacts', async () => {
    const created = await autotaskCall(sim, 'POST', '/Companies/5/Contacts', { firstName: 'Ana', lastName: 'Lopez', emailAddress: 'ana.lopez@example.com', isActive: 1 });
    const itemId = asRecord(created.body).itemId;
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', `/Contacts/${String(itemId)}`)).body).item);
    expect(item).toMatchObject({ companyID: 5, firstName: 'Ana', emailAddress: 'ana.lopez@example.com' });
    const invalid = await autotaskCall(sim, 'POST', '/Companies/5/Contacts', { firstName: 'Ana' });
    expect(invalid.status).toBe(500);
  });
});
