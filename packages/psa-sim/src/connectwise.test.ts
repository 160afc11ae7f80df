import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, connectWiseCall, connectWiseHeaders, parseLinkHeader } from './test-support';

let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('ConnectWise discovery and auth', () => {
  it('answers codebase discovery for the company and null for others', async () => {
    const known = await fetch(`${sim.connectWise.siteUrl}/login/companyinfo/${sim.connectWise.companyId}`);
    expect(await known.json()).toMatchObject({ Codebase: 'v4_6_release/', CompanyID: 'northwind', IsCloud: true });
    const unknown = await fetch(`${sim.connectWise.siteUrl}/login/companyinfo/someoneelse`);
    expect(await unknown.json()).toBeNull();
  });

  it('answers 401 {code, message} for bad keys and for a missing clientId', async () => {
    const headers = connectWiseHeaders(sim);
    const badKey = await connectWiseCall(sim, 'GET', '/service/boards', undefined, { ...headers, Authorization: `Basic ${Buffer.from('northwind+SimPublicKey1:wrong').toString('base64')}` });
    expect(badKey.status).toBe(401);
    expect(asRecord(badKey.body).code).toBe('Unauthorized');
    expect(typeof asRecord(badKey.body).message).toBe('string');
    const mixedCase = await connectWiseCall(sim, 'GET', '/service/boards', undefined, { ...headers, Authorization: `Basic ${Buffer.from('NorthWind+SimPublicKey1:SimPrivateKey1').toString('base64')}` });
    expect(mixedCase.status).toBe(200);
    const { clientId: _omitted, ...withoutClientId } = headers;
    const noClientId = await connectWiseCall(sim, 'GET', '/service/boards', undefined, withoutClientId);
    expect(noClientId.status).toBe(401);
    expect(asRecord(noClientId.body).message).toMatch(/clientId/);
  });

  it('answers an unknown codebase with the plain-text routing error', async () => {
    const response = await fetch(`${sim.url}/v2019_1/apis/3.0/service/boards`, { headers: connectWiseHeaders(sim) });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Cannot route. Codebase/company is invalid');
  });
});

describe('ConnectWise seeded reference data', () => {
  it('serves the Help Desk board with statuses, types, subtypes and the association matrix', async () => {
    const boards = asArray((await connectWiseCall(sim, 'GET', '/service/boards')).body);
    expect(boards.map((board) => board.name)).toEqual(['Help Desk']);
    const statuses = asArray((await connectWiseCall(sim, 'GET', '/service/boards/1/statuses?pageSize=100')).body);
    expect(statuses.find((status) => status.name === 'Closed')).toMatchObject({ closedStatus: true });
    expect(statuses.find((status) => status.name === 'New')).toMatchObject({ defaultFlag: true, closedStatus: false });
    const types = asArray((await connectWiseCall(sim, 'GET', '/service/boards/1/types?pageSize=100')).body);
    expect(types).toHaveLength(10);
    const associations = asArray((await connectWiseCall(sim, 'GET', '/service/boards/1/typeSubTypeItemAssociations?pageSize=1000')).body);
    expect(associations).toHaveLength(37);
    expect(associations[0]).toMatchObject({ type: { name: 'Accounts & Access' }, subType: { name: 'Password Reset' } });
  });

  it('serves companies with types, contacts with communication items, and members', async () => {
    const company = asRecord((await connectWiseCall(sim, 'GET', '/company/companies/1')).body);
    expect(company).toMatchObject({ id: 1, identifier: 'BWFD', types: [{ name: 'Managed Services' }] });
    const contacts = asArray((await connectWiseCall(sim, 'GET', '/company/contacts?conditions=company/id=1&childConditions=communicationItems/value="tanya.beaulieu@brightwaterdental.example"')).body);
    expect(contacts.map((contact) => contact.id)).toEqual([2]);
    const members = asArray((await connectWiseCall(sim, 'GET', '/system/members?conditions=identifier="javila"')).body);
    expect(members[0]).toMatchObject({ id: 1, firstName: 'Jordan', primaryEmail: 'jordan.avila@northwind-it.example' });
    expect(asRecord((await connectWiseCall(sim, 'GET', '/company/contacts/count')).body).count).toBe(178);
  });

  it('keeps the historical ticket ids, closed, with description and resolution notes', async () => {
    const ticket = asRecord((await connectWiseCall(sim, 'GET', '/service/tickets/100001')).body);
    expect(ticket).toMatchObject({ id: 100001, summary: 'linkedin recruiter message', closedFlag: true, status: { name: 'Closed' }, company: { id: 12 }, owner: { identifier: 'bokafor' } });
    const notes = asArray((await connectWiseCall(sim, 'GET', '/service/tickets/100001/notes')).body);
    expect(notes.map((note) => [note.detailDescriptionFlag, note.resolutionFlag])).toEqual([[true, false], [false, true]]);
    expect(asRecord((await connectWiseCall(sim, 'GET', '/service/tickets/count?conditions=closedFlag=true')).body).count).toBe(520);
  });
});

describe('ConnectWise lists', () => {
  it('pages with Link next/last, then prev/first, capping pageSize at 1000', async () => {
    const first = await connectWiseCall(sim, 'GET', '/service/tickets?pageSize=200&conditions=id>=100001');
    expect(asArray(first.body)).toHaveLength(200);
    const firstLinks = parseLinkHeader(first.headers.get('link'));
    expect(Object.keys(firstLinks).sort()).toEqual(['last', 'next']);
    expect(firstLinks.last).toContain('page=3');
    const last = await connectWiseCall(sim, 'GET', firstLinks.last ?? '');
    expect(asArray(last.body)).toHaveLength(120);
    expect(Object.keys(parseLinkHeader(last.headers.get('link'))).sort()).toEqual(['first', 'prev']);
    const capped = await connectWiseCall(sim, 'GET', '/service/tickets?pageSize=5000');
    expect(asArray(capped.body)).toHaveLength(520);
  });

  it('pages forward-only with pageId when asked', async () => {
    const headers = { ...connectWiseHeaders(sim), 'pagination-type': 'forward-only' };
    const seen: unknown[] = [];
    let url: string | undefined = `${sim.url}/v4_6_release/apis/3.0/company/companies?pageSize=10&fields=id`;
    while (url) {
      const page = await connectWiseCall(sim, 'GET', url, undefined, headers);
      seen.push(...asArray(page.body).map((company) => company.id));
      url = parseLinkHeader(page.headers.get('link')).next;
    }
    expect(seen).toHaveLength(24);
  });

  it('selects nested fields and orders descending', async () => {
    const response = await connectWiseCall(sim, 'GET', '/service/tickets?pageSize=3&orderBy=id desc&fields=id,board/name,status/name');
    expect(response.body).toEqual([
      { id: 100520, board: { name: 'Help Desk' }, status: { name: 'Closed' } },
      { id: 100519, board: { name: 'Help Desk' }, status: { name: 'Closed' } },
      { id: 100518, board: { name: 'Help Desk' }, status: { name: 'Closed' } },
    ]);
  });

  it('answers malformed conditions with 400 and the quoting rules', async () => {
    const response = await connectWiseCall(sim, 'GET', '/service/tickets?conditions=summary=printer');
    expect(response.status).toBe(400);
    expect(asRecord(response.body).message).toMatch(/String values should be enclosed with double or single quotes/);
  });
});

describe('ConnectWise ticket writes', () => {
  it('creates a ticket with 201, stores externalXRef and the initial description note', async () => {
    const created = await connectWiseCall(sim, 'POST', '/service/tickets', {
      summary: 'Scanner offline',
      company: { identifier: 'BWFD' },
      contact: { id: 2 },
      board: { name: 'Help Desk' },
      type: { id: 3 },
      subType: { name: 'Printer / Scanner' },
      initialDescription: 'The front desk scanner shows offline.',
      externalXRef: 'switchboard:abc',
    });
    expect(created.status).toBe(201);
    const ticket = asRecord(created.body);
    expect(ticket).toMatchObject({ summary: 'Scanner offline', status: { name: 'New' }, closedFlag: false, externalXRef: 'switchboard:abc', contact: { id: 2 } });
    expect(ticket).not.toHaveProperty('initialDescription');
    const notes = asArray((await connectWiseCall(sim, 'GET', `/service/tickets/${String(ticket.id)}/notes`)).body);
    expect(notes[0]).toMatchObject({ text: 'The front desk scanner shows offline.', detailDescriptionFlag: true });
    const found = asArray((await connectWiseCall(sim, 'GET', '/service/tickets?conditions=externalXRef="switchboard:abc"')).body);
    expect(found.map((row) => row.id)).toEqual([ticket.id]);
  });

  it('answers validation failures with 400 InvalidObject and one error per field', async () => {
    const response = await connectWiseCall(sim, 'POST', '/service/tickets', { summary: '', board: { id: 999 }, subType: { id: 1 }, type: { id: 3 } });
    expect(response.status).toBe(400);
    const body = asRecord(response.body);
    expect(body).toMatchObject({ code: 'InvalidObject', message: 'ticket object is invalid' });
    const fields = asArray(body.errors).map((error) => [error.code, error.field, error.resource]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['MissingRequiredField', 'summary', 'ticket'],
        ['MissingRequiredField', 'company', 'ticket'],
        ['InvalidObject', 'board', 'ticket'],
      ]),
    );
  });

  it('applies JSON-Patch to close a ticket and rejects malformed patches', async () => {
    const created = asRecord((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Mouse broken', company: { id: 2 } })).body);
    const closed = await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(created.id)}`, [
      { op: 'replace', path: 'status', value: { name: 'Closed' } },
      { op: 'replace', path: '/summary', value: 'Mouse replaced' },
      { op: 'replace', path: 'priority/id', value: 1 },
    ]);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ summary: 'Mouse replaced', closedFlag: true, status: { name: 'Closed' }, priority: { id: 1 } });
    expect(asRecord(closed.body).closedDate).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/));
    const bad = await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(created.id)}`, { op: 'replace', path: 'summary', value: 'x' });
    expect(bad.status).toBe(400);
    const badOp = await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(created.id)}`, [{ op: 'move', path: 'summary', value: 'x' }]);
    expect(asRecord(badOp.body).code).toBe('InvalidObject');
    const badStatus = await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(created.id)}`, [{ op: 'replace', path: 'status', value: { id: 9999 } }]);
    expect(asArray(asRecord(badStatus.body).errors)[0]).toMatchObject({ field: 'status', resource: 'ticket' });
  });

  it('adds notes with flags, requires one flag, and deletes with 204', async () => {
    const created = asRecord((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'VPN', company: { id: 3 } })).body);
    const note = await connectWiseCall(sim, 'POST', `/service/tickets/${String(created.id)}/notes`, { text: 'Checked the tunnel', internalAnalysisFlag: true, member: { id: 1 } });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ internalAnalysisFlag: true, detailDescriptionFlag: false, member: { identifier: 'javila' } });
    const flagless = await connectWiseCall(sim, 'POST', `/service/tickets/${String(created.id)}/notes`, { text: 'no flag' });
    expect(flagless.status).toBe(400);
    expect((await connectWiseCall(sim, 'DELETE', `/service/tickets/${String(created.id)}`)).status).toBe(204);
    expect((await connectWiseCall(sim, 'GET', `/service/tickets/${String(created.id)}`)).status).toBe(404);
  });

  it('creates boards, statuses, types, subtypes and items, and uses them on tickets', async () => {
    const board = asRecord((await connectWiseCall(sim, 'POST', '/service/boards', { name: 'Projects Desk', location: { id: 1 }, department: { id: 2 } })).body);
    const boardPath = `/service/boards/${String(board.id)}`;
    const status = await connectWiseCall(sim, 'POST', `${boardPath}/statuses`, { name: 'Open', defaultFlag: true });
    expect(status.status).toBe(201);
    const type = asRecord((await connectWiseCall(sim, 'POST', `${boardPath}/types`, { name: 'Migration' })).body);
    const subType = await connectWiseCall(sim, 'POST', `${boardPath}/subtypes`, { name: 'Mailbox', typeAssociationIds: [type.id] });
    expect(subType.body).toMatchObject({ typeAssociationIds: [type.id] });
    expect((await connectWiseCall(sim, 'POST', `${boardPath}/items`, { name: 'Exchange' })).status).toBe(201);
    const duplicate = await connectWiseCall(sim, 'POST', `${boardPath}/types`, { name: 'migration' });
    expect(asArray(asRecord(duplicate.body).errors)[0]).toMatchObject({ code: 'ObjectExists', field: 'name' });
    const ticket = await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Move mailboxes', company: { id: 1 }, board: { id: board.id }, type: { id: type.id }, subType: { id: asRecord(subType.body).id } });
    expect(ticket.body).toMatchObject({ board: { name: 'Projects Desk' }, status: { name: 'Open' }, type: { name: 'Migration' } });
  });
});
