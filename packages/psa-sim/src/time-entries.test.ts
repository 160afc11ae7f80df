import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, connectWiseCall } from './test-support';

// Time entries and the ticket fields Jarvis and the queue write, as each vendor's API takes and shows them.

let sim: TPsaSimulator;
const TICKET = 100001;
const ROLE = 29683354;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('ConnectWise time/entries', () => {
  const entry = { chargeToType: 'ServiceTicket', chargeToId: TICKET, member: { identifier: 'javila' }, timeStart: '2026-06-01T09:00:30.900Z', timeEnd: '2026-06-01T09:45:30Z', notes: 'Remote session' };

  it('stores an entry charged to the ticket, derives actualHours, and lists it by conditions', async () => {
    const created = await connectWiseCall(sim, 'POST', '/time/entries', entry);
    expect(created.status).toBe(201);
    const body = asRecord(created.body);
    expect(body).toMatchObject({ chargeToType: 'ServiceTicket', chargeToId: TICKET, timeStart: '2026-06-01T09:00:30Z', timeEnd: '2026-06-01T09:45:30Z', actualHours: 0.75, notes: 'Remote session' });
    expect(asRecord(body.member)).toMatchObject({ id: 1, identifier: 'javila' });
    expect(asRecord(body.ticket).id).toBe(TICKET);
    const read = await connectWiseCall(sim, 'GET', `/time/entries/${String(body.id)}`);
    expect(asRecord(read.body).id).toBe(body.id);
    const conditions = encodeURIComponent(`chargeToType="ServiceTicket" and chargeToId=${TICKET} and member/id=1`);
    const listed = asArray((await connectWiseCall(sim, 'GET', `/time/entries?conditions=${conditions}`)).body);
    expect(listed.map((row) => row.id)).toContain(body.id);
    const none = asArray((await connectWiseCall(sim, 'GET', `/time/entries?conditions=${encodeURIComponent('member/id=2')}`)).body);
    expect(none.map((row) => row.id)).not.toContain(body.id);
  });

  it('refuses an unknown ticket or member, an end before the start and another charge type, with field errors', async () => {
    const refused = await connectWiseCall(sim, 'POST', '/time/entries', { ...entry, chargeToId: 999_999, member: { id: 999_999 }, timeEnd: '2026-06-01T08:00:00Z', chargeToType: 'ChargeCode' });
    expect(refused.status).toBe(400);
    const fields = asArray(asRecord(refused.body).errors).map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['chargeToId', 'member', 'timeEnd', 'chargeToType']));
    expect((await connectWiseCall(sim, 'GET', '/time/entries/987654')).status).toBe(404);
  });

  it('keeps impact, severity and the typed reporter of a ticket, and a PATCH leaves them alone', async () => {
    const created = await connectWiseCall(sim, 'POST', '/service/tickets', {
      summary: 'Printer offline',
      company: { id: 1 },
      impact: 'High',
      severity: 'low',
      contactName: 'Walk-in Visitor',
      contactEmailAddress: 'visitor@example.com',
      contactPhoneNumber: '555 0100',
      initialInternalAnalysis: 'Conversation\n\nUser: printer is offline',
    });
    expect(created.status).toBe(201);
    const ticket = asRecord(created.body);
    expect(ticket).toMatchObject({ impact: 'High', severity: 'Low', contactName: 'Walk-in Visitor', contactEmailAddress: 'visitor@example.com', contactPhoneNumber: '555 0100' });
    const patched = await connectWiseCall(sim, 'PATCH', `/service/tickets/${String(ticket.id)}`, [{ op: 'replace', path: 'summary', value: 'Printer offline again' }]);
    expect(asRecord(patched.body)).toMatchObject({ summary: 'Printer offline again', impact: 'High', severity: 'Low', contactName: 'Walk-in Visitor' });
    const notes = asArray((await connectWiseCall(sim, 'GET', `/service/tickets/${String(ticket.id)}/notes`)).body);
    expect(notes.find((note) => note.internalAnalysisFlag === true)?.text).toBe('Conversation\n\nUser: printer is offline');
    const bad = await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'x', company: { id: 1 }, impact: 'Extreme', contactPhoneNumber: '0'.repeat(21) });
    expect(asArray(asRecord(bad.body).errors).map((error) => error.field)).toEqual(['impact', 'contactPhoneNumber']);
  });
});

describe('Autotask TimeEntries', () => {
  const entry = { ticketID: TICKET, resourceID: 1, roleID: ROLE, dateWorked: '2026-06-01T00:00:00Z', startDateTime: '2026-06-01T13:00:00Z', endDateTime: '2026-06-01T13:30:00Z', hoursWorked: 0.5, summaryNotes: 'Replaced the toner' };

  it('stores an entry for the ticket and serves it by id and by query', async () => {
    const created = await autotaskCall(sim, 'POST', '/TimeEntries', entry);
    expect(created.status).toBe(200);
    const id = asRecord(created.body).itemId;
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', `/TimeEntries/${String(id)}`)).body).item);
    expect(item).toMatchObject({ id, ticketID: TICKET, resourceID: 1, roleID: ROLE, hoursWorked: 0.5, summaryNotes: 'Replaced the toner', startDateTime: '2026-06-01T13:00:00.000Z', dateWorked: '2026-06-01T00:00:00.000Z' });
    const queried = asArray(asRecord((await autotaskCall(sim, 'POST', '/TimeEntries/query', { filter: [{ op: 'eq', field: 'ticketID', value: TICKET }, { op: 'eq', field: 'resourceID', value: 1 }] })).body).items);
    expect(queried.map((row) => row.id)).toContain(id);
    const fields = asArray(asRecord((await autotaskCall(sim, 'GET', '/TimeEntries/entityInformation/fields')).body).fields);
    expect(fields.filter((field) => field.isRequired === true).map((field) => field.name)).toEqual(['resourceID', 'roleID', 'dateWorked', 'hoursWorked']);
  });

  it('refuses what Autotask refuses: more hours than the span, an unknown role, missing notes', async () => {
    const refused = await autotaskCall(sim, 'POST', '/TimeEntries', { ...entry, hoursWorked: 2, roleID: 1, summaryNotes: '' });
    expect(refused.status).toBe(500);
    const errors = JSON.stringify(asRecord(refused.body).errors);
    expect(errors).toMatch(/hoursWorked cannot exceed/);
    expect(errors).toMatch(/roleID/);
    expect(errors).toMatch(/summaryNotes/);
    expect(asRecord((await autotaskCall(sim, 'GET', '/TimeEntries/987654')).body).item).toBeNull();
  });

  it('clears the primary resource and role together when a ticket is released', async () => {
    expect((await autotaskCall(sim, 'PATCH', '/Tickets', { id: TICKET, assignedResourceID: 1, assignedResourceRoleID: ROLE, status: 1 })).status).toBe(200);
    expect((await autotaskCall(sim, 'PATCH', '/Tickets', { id: TICKET, assignedResourceID: null, assignedResourceRoleID: null })).status).toBe(200);
    expect(asRecord(asRecord((await autotaskCall(sim, 'GET', `/Tickets/${TICKET}`)).body).item)).toMatchObject({ assignedResourceID: null, assignedResourceRoleID: null });
    const halfAssigned = await autotaskCall(sim, 'PATCH', '/Tickets', { id: TICKET, assignedResourceID: 1 });
    expect(halfAssigned.status).toBe(500);
  });
});
