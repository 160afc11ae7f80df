import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PsaError, type PsaClient, type TPsaMember, type TPsaType } from '../src/index';
import { clientFor, rawAutotask, rawConnectWise, startPsaSimulator, type TSimulator } from './sim-clients';

// The PSA writes of Jarvis (#9) and the queue (#10), through the real adapters over HTTP, checked as each PSA itself
// shows the records (raw vendor reads), not only through the adapter that wrote them.

const PSAS: TPsaType[] = ['connectwise', 'autotask'];

type TRecord = Record<string, unknown>;
const asRecord = (value: unknown): TRecord => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`expected an object, got ${JSON.stringify(value)}`);
  return value as TRecord;
};
const asRecords = (value: unknown): TRecord[] => {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value.map(asRecord);
};
const itemsOf = (value: unknown): TRecord[] => asRecords(asRecord(value).items);
const itemOf = (value: unknown): TRecord => asRecord(asRecord(value).item);

async function caught(promise: Promise<unknown>): Promise<PsaError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PsaError)) throw new Error(`expected a PsaError, got ${String(error)}`);
  return error;
}

describe.each(PSAS)('%s PSA writes against the simulator', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;
  let boardId: number;
  let companyId: number;
  let technician: TPsaMember;
  let otherTechnician: TPsaMember;

  /** A fresh open ticket for one test. */
  async function newTicket(key: string): Promise<number> {
    return (await client.createTicket({ idempotencyKey: `${psaType}-${key}`, summary: `Ticket ${key}`, description: 'Raised by the test.', boardId, companyId })).id;
  }

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor(psaType, sim);
    const [board] = await client.listBoards();
    if (!board) throw new Error('the demo seed has no board');
    boardId = board.id;
    for await (const company of client.streamCompanies()) {
      companyId = company.id;
      break;
    }
    // The Autotask API user is a resource too, but not one a ticket is assigned to.
    const members = (await client.listMembers()).filter((member) => member.isActive && member.identifier !== sim.autotask.username);
    const [first, second] = members;
    if (!first || !second) throw new Error('the demo seed has fewer than two technicians');
    technician = first;
    otherTechnician = second;
  });
  afterAll(async () => sim.close());

  it('creates a ticket with every field of the draft and attaches the conversation', async () => {
    const scope = psaType === 'connectwise' ? boardId : null;
    const [types, subtypes, priorities, sources, contacts] = await Promise.all([
      client.listTypes(scope),
      client.listSubtypes(scope),
      client.listPriorities(),
      client.listSources(),
      (async () => {
        const found = [];
        for await (const contact of client.streamContacts({ companyId })) found.push(contact);
        return found;
      })(),
    ]);
    const subtype = subtypes.find((candidate) => candidate.typeIds.length > 0);
    const typeId = subtype?.typeIds[0];
    const priority = priorities[1];
    const source = sources[1] ?? sources[0];
    const contact = contacts[0];
    if (!subtype || typeId === undefined || !priority || !source || !contact) throw new Error('the demo seed lacks a subtype, priority, source or contact');
    expect(types.some((type) => type.id === typeId)).toBe(true);
    const teamId = psaType === 'connectwise' ? (await client.createTeam(boardId, { name: 'Tier 1 desk', memberIds: [technician.id] })).id : null;
    const dueAt = '2026-11-24T17:00:00Z';

    const ticket = await client.createTicket({
      idempotencyKey: `${psaType}-full-draft`,
      summary: 'Laptop will not join the VPN',
      description: 'Since the update the VPN client says "authentication failed".',
      boardId,
      companyId,
      contactId: contact.id,
      typeId,
      subtypeId: subtype.id,
      priorityId: priority.id,
      sourceId: source.id,
      teamId,
      impact: 'High',
      severity: 'Low',
      dueAt,
      ticketTypeId: psaType === 'autotask' ? 2 : null,
      ticketCategoryId: psaType === 'autotask' ? 2 : null,
      reporterName: 'Dana Reporter',
      reporterEmail: 'dana.reporter@example.com',
      reporterPhone: '+1 303 555 0100',
      conversation: [
        { role: 'user', content: 'My VPN stopped working.', at: '2026-11-23T09:00:00Z' },
        { role: 'assistant', content: 'Does it say authentication failed?' },
        { role: 'user', content: 'Yes.' },
      ],
    });

    expect(ticket).toMatchObject({
      summary: 'Laptop will not join the VPN',
      boardId,
      companyId,
      contactId: contact.id,
      typeId,
      subtypeId: subtype.id,
      priorityId: priority.id,
      sourceId: source.id,
      isClosed: false,
      externalReference: `${psaType}-full-draft`,
    });
    expect(Date.parse(ticket.dueAt ?? '')).toBe(Date.parse(dueAt));
    const notes = await client.listNotes(ticket.id);
    const conversation = notes.find((note) => note.text.startsWith('Conversation'));
    expect(conversation?.kind).toBe('internal');
    expect(conversation?.text).toContain('[2026-11-23T09:00:00Z] User: My VPN stopped working.');
    expect(conversation?.text).toContain('Assistant: Does it say authentication failed?');
    expect(notes.find((note) => note.kind === 'description')?.text).toBe('Since the update the VPN client says "authentication failed".');

    if (psaType === 'connectwise') {
      expect(ticket).toMatchObject({ teamId, impact: 'High', severity: 'Low', ticketTypeId: null });
      const raw = asRecord(await rawConnectWise(sim, `/service/tickets/${ticket.id}`));
      expect(raw).toMatchObject({ contactName: 'Dana Reporter', contactEmailAddress: 'dana.reporter@example.com', contactPhoneNumber: '+1 303 555 0100', impact: 'High', severity: 'Low' });
      expect(asRecord(raw.team).id).toBe(teamId);
    } else {
      expect(ticket).toMatchObject({ ticketTypeId: 2, ticketCategoryId: 2, teamId: null, impact: null, severity: null });
      const raw = itemOf(await rawAutotask(sim, `/Tickets/${ticket.id}`));
      expect(raw).toMatchObject({ ticketType: 2, ticketCategory: 2, source: source.id, issueType: typeId, subIssueType: subtype.id, queueID: boardId });
      const rawNote = itemsOf(await rawAutotask(sim, '/TicketNotes/query', { filter: [{ op: 'eq', field: 'ticketID', value: ticket.id }] })).find((note) => note.title === 'Conversation');
      // publish 2 is "Internal Project Team" in the simulator's picklist.
      expect(rawNote?.publish).toBe(2);
    }

    // The same draft sent again (an outbox after a thrown error) finds the ticket and its conversation: nothing new.
    const createsBefore = sim.stats().creates;
    const again = await client.createTicket({ idempotencyKey: `${psaType}-full-draft`, summary: 'Laptop will not join the VPN', description: 'x', boardId, companyId, conversation: [{ role: 'user', content: 'My VPN stopped working.' }] });
    expect(again.id).toBe(ticket.id);
    expect(sim.stats().creates).toBe(createsBefore);
  });

  it('writes notes by kind with the PSA flags and note types, and reads them back', async () => {
    const ticketId = await newTicket('notes');
    const label = `Technician: (${technician.id}): `;
    await client.addNote(ticketId, { text: `${label}Checked the event log.`, kind: 'description', memberId: technician.id });
    await client.addNote(ticketId, { text: `${label}Driver is two versions behind.`, kind: 'internal', memberId: technician.id });
    await client.addNote(ticketId, { text: `${label}Updated the driver.`, kind: 'resolution', memberId: technician.id });
    const notes = await client.listNotes(ticketId);
    const kindOf = (text: string) => notes.find((note) => note.text === `${label}${text}`)?.kind;
    expect([kindOf('Checked the event log.'), kindOf('Driver is two versions behind.'), kindOf('Updated the driver.')]).toEqual(['description', 'internal', 'resolution']);

    if (psaType === 'connectwise') {
      const raw = asRecords(await rawConnectWise(sim, `/service/tickets/${ticketId}/notes`));
      const flags = (text: string) => {
        const note = raw.find((row) => row.text === `${label}${text}`);
        return [note?.detailDescriptionFlag, note?.internalAnalysisFlag, note?.resolutionFlag, asRecord(note?.member).id];
      };
      expect(flags('Checked the event log.')).toEqual([true, false, false, technician.id]);
      expect(flags('Driver is two versions behind.')).toEqual([false, true, false, technician.id]);
      expect(flags('Updated the driver.')).toEqual([false, false, true, technician.id]);
      expect(notes.find((note) => note.kind === 'internal')?.memberId).toBe(technician.id);
    } else {
      const raw = itemsOf(await rawAutotask(sim, '/TicketNotes/query', { filter: [{ op: 'eq', field: 'ticketID', value: ticketId }] }));
      const typed = (text: string) => {
        const note = raw.find((row) => row.description === `${label}${text}`);
        return [note?.noteType, note?.publish];
      };
      // noteType 1 Task Summary, 3 Resolution; publish 1 All Autotask Users, 2 Internal Project Team.
      expect(typed('Checked the event log.')).toEqual([1, 1]);
      expect(typed('Driver is two versions behind.')).toEqual([1, 2]);
      expect(typed('Updated the driver.')).toEqual([3, 1]);
      expect(itemOf(await rawAutotask(sim, `/Tickets/${ticketId}`)).resolution).toBe(`${label}Updated the driver.`);
      const noteTypes = await client.listNoteTypes();
      const detail = noteTypes.find((type) => type.name === 'Task Detail');
      if (!detail) throw new Error('the simulator has no Task Detail note type');
      await client.addNote(ticketId, { text: 'Typed by the caller.', kind: 'description', noteTypeId: detail.id });
      const typedRaw = itemsOf(await rawAutotask(sim, '/TicketNotes/query', { filter: [{ op: 'eq', field: 'description', value: 'Typed by the caller.' }] }));
      expect(typedRaw.map((row) => row.noteType)).toEqual([detail.id]);
    }
  });

  it('assigns a ticket (owner and "Assigned" status), reassigns it and releases it back to New', async () => {
    const ticketId = await newTicket('assign');
    const assigned = await client.assignTicket(ticketId, { memberId: technician.id });
    expect(assigned).toMatchObject({ ownerId: technician.id, statusName: 'Assigned', isClosed: false });
    // Sending the claim again lands the same way.
    expect(await client.assignTicket(ticketId, { memberId: technician.id })).toMatchObject({ ownerId: technician.id, statusName: 'Assigned' });
    expect(await client.assignTicket(ticketId, { memberId: otherTechnician.id, statusName: 'In Progress' })).toMatchObject({ ownerId: otherTechnician.id, statusName: 'In Progress' });
    if (psaType === 'autotask') {
      const raw = itemOf(await rawAutotask(sim, `/Tickets/${ticketId}`));
      expect(raw.assignedResourceID).toBe(otherTechnician.id);
      expect(raw.assignedResourceRoleID).toEqual(expect.any(Number));
    } else {
      expect(asRecord(asRecord(await rawConnectWise(sim, `/service/tickets/${ticketId}`)).owner).id).toBe(otherTechnician.id);
    }
    const released = await client.unassignTicket(ticketId);
    expect(released).toMatchObject({ ownerId: null, statusName: 'New', isClosed: false });
    if (psaType === 'autotask') expect(itemOf(await rawAutotask(sim, `/Tickets/${ticketId}`))).toMatchObject({ assignedResourceID: null, assignedResourceRoleID: null, status: 1 });
  });

  it('keeps the status when the board has no status of the asked name, but still assigns', async () => {
    const ticketId = await newTicket('assign-unknown-status');
    const before = await client.getTicket(ticketId);
    const assigned = await client.assignTicket(ticketId, { memberId: technician.id, statusName: 'No such status' });
    expect(assigned).toMatchObject({ ownerId: technician.id, statusId: before.statusId });
  });

  it('enters time charged to the ticket, derives the hours, and does not post it twice', async () => {
    const ticketId = await newTicket('time');
    const entry = await client.addTimeEntry({ ticketId, memberId: technician.id, startAt: '2026-11-23T09:00:00.400Z', endAt: '2026-11-23T10:30:00Z', notes: 'Reinstalled the VPN client.' });
    expect(entry).toMatchObject({ ticketId, memberId: technician.id, hours: 1.5, notes: 'Reinstalled the VPN client.' });
    expect(Date.parse(entry.startAt)).toBe(Date.parse('2026-11-23T09:00:00Z'));
    expect(Date.parse(entry.endAt ?? '')).toBe(Date.parse('2026-11-23T10:30:00Z'));

    const createsBefore = sim.stats().creates;
    const again = await client.addTimeEntry({ ticketId, memberId: technician.id, startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T10:30:00Z', notes: 'Reinstalled the VPN client.' });
    expect(again.id).toBe(entry.id);
    expect(sim.stats().creates).toBe(createsBefore);
    // Another member's entry at the same start is a different entry.
    await client.addTimeEntry({ ticketId, memberId: otherTechnician.id, startAt: '2026-11-23T09:00:00Z', endAt: '2026-11-23T09:15:00Z', notes: 'Helped on the phone.' });
    const entries = await client.listTimeEntries(ticketId);
    expect(entries.map((each) => [each.memberId, each.hours])).toEqual([
      [technician.id, 1.5],
      [otherTechnician.id, 0.25],
    ]);

    if (psaType === 'connectwise') {
      const raw = asRecord(await rawConnectWise(sim, `/time/entries/${entry.id}`));
      expect(raw).toMatchObject({ chargeToType: 'ServiceTicket', chargeToId: ticketId, actualHours: 1.5, notes: 'Reinstalled the VPN client.', timeStart: '2026-11-23T09:00:00Z', timeEnd: '2026-11-23T10:30:00Z' });
      expect(asRecord(raw.member).id).toBe(technician.id);
    } else {
      const raw = itemOf(await rawAutotask(sim, `/TimeEntries/${entry.id}`));
      expect(raw).toMatchObject({ ticketID: ticketId, resourceID: technician.id, hoursWorked: 1.5, summaryNotes: 'Reinstalled the VPN client.', dateWorked: '2026-11-23T00:00:00.000Z' });
      expect(raw.roleID).toEqual(expect.any(Number));
    }
  });

  it('refuses a time entry that does not end after it starts, before sending anything', async () => {
    const requestsBefore = client.requestCount();
    const error = await caught(client.addTimeEntry({ ticketId: 1, memberId: technician.id, startAt: '2026-11-23T10:00:00Z', endAt: '2026-11-23T10:00:00Z', notes: 'x' }));
    expect(error.kind).toBe('validation');
    expect(error.fieldMessages[0]?.field).toBe('endAt');
    expect(client.requestCount()).toBe(requestsBefore);
  });

  it('closes with the board closing status and the resolution; the ticket keeps its notes and time', async () => {
    const ticketId = await newTicket('close');
    await client.assignTicket(ticketId, { memberId: technician.id });
    await client.addNote(ticketId, { text: 'Ticket completed', kind: 'internal', memberId: technician.id });
    await client.addTimeEntry({ ticketId, memberId: technician.id, startAt: '2026-11-23T13:00:00Z', endAt: '2026-11-23T13:20:00Z', notes: 'Ticket completed' });
    const closed = await client.closeTicket(ticketId, { resolution: 'Replaced the power supply.', memberId: technician.id });
    expect(closed).toMatchObject({ isClosed: true, statusName: psaType === 'connectwise' ? 'Closed' : expect.any(String) as unknown });
    if (psaType === 'autotask') expect(closed.statusId).toBe(5);
    // Closing again (an outbox resending after the first call threw) changes nothing and adds no second resolution note.
    const createsBefore = sim.stats().creates;
    expect((await client.closeTicket(ticketId, { resolution: 'Replaced the power supply.', memberId: technician.id, resend: { firstTriedMsAgo: 1_000 } })).isClosed).toBe(true);
    expect(sim.stats().creates).toBe(createsBefore);
    const notes = await client.listNotes(ticketId);
    expect(notes.filter((note) => note.kind === 'resolution').map((note) => note.text)).toEqual(['Replaced the power supply.']);
    expect(notes.some((note) => note.text === 'Ticket completed')).toBe(true);
    const entries = await client.listTimeEntries(ticketId);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.hours).toBeCloseTo(1 / 3, 2);
  });
});
