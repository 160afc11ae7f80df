import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, connectWiseCall } from './test-support';

let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('ConnectWise board maintenance', () => {
  it('renames a board, a type and a subtype with JSON-Patch, and shows them in Autotask picklists', async () => {
    const board = await connectWiseCall(sim, 'PATCH', '/service/boards/1', [{ op: 'replace', path: 'name', value: 'Service Desk' }]);
    expect(board.body).toMatchObject({ id: 1, name: 'Service Desk' });
    const type = await connectWiseCall(sim, 'PATCH', '/service/boards/1/types/1', [{ op: 'replace', path: 'name', value: 'Identity & Access' }]);
    expect(type.body).toMatchObject({ id: 1, name: 'Identity & Access' });
    const subType = await connectWiseCall(sim, 'PATCH', '/service/boards/1/subtypes/1', [{ op: 'replace', path: 'typeAssociationIds', value: [1, 2] }]);
    expect(subType.body).toMatchObject({ typeAssociationIds: [1, 2] });
    const fields = asRecord((await autotaskCall(sim, 'GET', '/Tickets/entityInformation/fields')).body);
    const labels = (name: string): unknown[] => asArray(asArray(fields.fields).find((field) => field.name === name)?.picklistValues).map((value) => value.label);
    expect(labels('queueID')).toEqual(['Service Desk']);
    expect(labels('issueType')).toContain('Identity & Access');
  });

  it('keeps one subtype per name on a board: a second of the name (any case, any type) is refused, linking it to another type is a PATCH of typeAssociationIds', async () => {
    const board = asRecord((await connectWiseCall(sim, 'POST', '/service/boards', { name: 'Shared Subtypes', location: { id: 1 }, department: { id: 1 } })).body);
    const boardPath = `/service/boards/${String(board.id)}`;
    const messaging = asRecord((await connectWiseCall(sim, 'POST', `${boardPath}/types`, { name: 'Messaging' })).body);
    const software = asRecord((await connectWiseCall(sim, 'POST', `${boardPath}/types`, { name: 'Software' })).body);
    const email = asRecord((await connectWiseCall(sim, 'POST', `${boardPath}/subtypes`, { name: 'Email', typeAssociationIds: [messaging.id] })).body);
    const second = await connectWiseCall(sim, 'POST', `${boardPath}/subtypes`, { name: 'email', typeAssociationIds: [software.id] });
    expect(second.status).toBe(400);
    expect(asArray(asRecord(second.body).errors)).toEqual([expect.objectContaining({ code: 'ObjectExists', field: 'name' })]);
    // Another board may have its own "Email".
    expect((await connectWiseCall(sim, 'POST', '/service/boards/1/subtypes', { name: 'Email', typeAssociationIds: [] })).status).toBe(201);

    const linked = await connectWiseCall(sim, 'PATCH', `${boardPath}/subtypes/${String(email.id)}`, [{ op: 'replace', path: 'typeAssociationIds', value: [messaging.id, software.id] }]);
    expect(linked.body).toMatchObject({ id: email.id, name: 'Email', typeAssociationIds: [messaging.id, software.id], inactiveFlag: false });
    const associations = asArray((await connectWiseCall(sim, 'GET', `${boardPath}/typeSubTypeItemAssociations`)).body);
    expect(associations.map((row) => [asRecord(row.type).name, asRecord(row.subType).name])).toEqual([['Messaging', 'Email'], ['Software', 'Email']]);
    // A type of another board cannot be linked.
    const foreign = await connectWiseCall(sim, 'PATCH', `${boardPath}/subtypes/${String(email.id)}`, [{ op: 'replace', path: 'typeAssociationIds', value: [1] }]);
    expect(asArray(asRecord(foreign.body).errors)).toEqual([expect.objectContaining({ code: 'InvalidObject', field: 'typeAssociationIds' })]);
  });

  it('turns a status into a closing status with PATCH and refuses to delete statuses in use', async () => {
    const created = asRecord((await connectWiseCall(sim, 'POST', '/service/boards/1/statuses', { name: 'Cancelled' })).body);
    const closing = await connectWiseCall(sim, 'PATCH', `/service/boards/1/statuses/${String(created.id)}`, [{ op: 'replace', path: 'closedStatus', value: true }]);
    expect(closing.body).toMatchObject({ name: 'Cancelled', closedStatus: true });
    const inUse = await connectWiseCall(sim, 'DELETE', '/service/boards/1/statuses/8');
    expect(inUse.status).toBe(409);
    expect(asRecord(inUse.body).code).toBe('Conflict');
    expect((await connectWiseCall(sim, 'DELETE', `/service/boards/1/statuses/${String(created.id)}`)).status).toBe(204);
  });
});

describe('ConnectWise board teams', () => {
  it('creates a team with a leader and members, patches the members and deletes it', async () => {
    const created = await connectWiseCall(sim, 'POST', '/service/boards/1/teams', { name: 'Tier 1', teamLeader: { id: 1 }, members: [1, 2, 3] });
    expect(created.status).toBe(201);
    const team = asRecord(created.body);
    expect(team).toMatchObject({ name: 'Tier 1', members: [1, 2, 3], boardId: 1, teamLeader: { identifier: 'javila' } });
    const patched = await connectWiseCall(sim, 'PATCH', `/service/boards/1/teams/${String(team.id)}`, [{ op: 'replace', path: 'members', value: [2, 3, 4] }]);
    expect(patched.body).toMatchObject({ members: [2, 3, 4] });
    const invalid = await connectWiseCall(sim, 'POST', '/service/boards/1/teams', { name: 'Tier 1', members: [999] });
    const codes = asArray(asRecord(invalid.body).errors).map((error) => [error.code, error.field]);
    expect(codes).toEqual(expect.arrayContaining([['ObjectExists', 'name'], ['InvalidObject', 'members']]));
    expect(asArray((await connectWiseCall(sim, 'GET', '/service/boards/1/teams')).body)).toHaveLength(1);
    const ticket = await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'For the team', company: { id: 1 }, team: { id: team.id } });
    expect(ticket.body).toMatchObject({ team: { id: team.id, name: 'Tier 1' } });
    const listed = asArray((await connectWiseCall(sim, 'GET', `/service/tickets?conditions=team/id=${String(team.id)}`)).body);
    expect(listed.map((row) => row.summary)).toEqual(['For the team']);
    await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(asRecord(ticket.body).id)}`, [{ op: 'remove', path: 'team' }]);
    expect((await connectWiseCall(sim, 'DELETE', `/service/boards/1/teams/${String(team.id)}`)).status).toBe(204);
    expect((await connectWiseCall(sim, 'GET', `/service/boards/1/teams/${String(team.id)}`)).status).toBe(404);
  });
});
