import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PsaError, type PsaClient, type TPsaType } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

const PSAS: TPsaType[] = ['connectwise', 'autotask'];

/** The sim's path prefix per PSA, for aiming injected faults at one PSA's ticket creates. */
const ticketPath: Record<TPsaType, string> = { connectwise: '/v4_6_release/apis/3.0/service/tickets', autotask: '/atservicesrest/v1.0/tickets' };

async function caught(promise: Promise<unknown>): Promise<PsaError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PsaError)) throw new Error(`expected a PsaError, got ${String(error)}`);
  return error;
}

describe.each(PSAS)('%s adapter against the simulator', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;
  let boardId: number;
  let companyId: number;

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor(psaType, sim);
    const boards = await client.listBoards();
    const firstBoard = boards[0];
    if (!firstBoard) throw new Error('the demo seed has no board');
    boardId = firstBoard.id;
    for await (const company of client.streamCompanies()) {
      companyId = company.id;
      break;
    }
  });
  afterAll(async () => sim.close());

  it('streams companies and contacts in id order, and from after an id (an import resumed, issue #11)', async () => {
    const collect = async (rows: AsyncIterable<{ id: number }>) => {
      const ids: number[] = [];
      for await (const row of rows) ids.push(row.id);
      return ids;
    };
    const companies = await collect(client.streamCompanies());
    expect(companies).toEqual([...companies].sort((a, b) => a - b));
    const middle = companies[Math.floor(companies.length / 2)] ?? 0;
    expect(await collect(client.streamCompanies({ afterId: middle }))).toEqual(companies.filter((id) => id > middle));
    const contacts = await collect(client.streamContacts());
    expect(contacts.length).toBeGreaterThan(2);
    expect(contacts).toEqual([...contacts].sort((a, b) => a - b));
    const pivot = contacts[1] ?? 0;
    expect(await collect(client.streamContacts({}, { afterId: pivot }))).toEqual(contacts.filter((id) => id > pivot));
  });

  it('reads every kind of reference data', async () => {
    const scope = psaType === 'connectwise' ? boardId : null;
    const [types, subtypes, associations, statuses] = await Promise.all([
      client.listTypes(scope),
      client.listSubtypes(scope),
      client.listTypeAssociations(scope),
      client.listStatuses(scope),
    ]);
    expect(types.length).toBeGreaterThan(0);
    expect(subtypes.length).toBeGreaterThan(0);
    expect(subtypes.every((subtype) => subtype.typeIds.every((typeId) => types.some((type) => type.id === typeId)))).toBe(true);
    expect(associations.length).toBeGreaterThan(0);
    expect(statuses.some((status) => status.isClosed)).toBe(true);
    expect(statuses.some((status) => !status.isClosed)).toBe(true);
    expect(Array.isArray(await client.listItems(scope))).toBe(true);
    expect((await client.listPriorities()).length).toBeGreaterThan(0);
    expect((await client.listSources()).length).toBeGreaterThan(0);
    const members = await client.listMembers();
    expect(members.length).toBeGreaterThan(0);
    expect(members[0]?.email).toMatch(/@/);
    expect((await client.listCompanyTypes()).length).toBeGreaterThan(0);
    expect((await client.listDepartments()).length).toBeGreaterThan(0);
    expect((await client.listLocations()).length).toBeGreaterThan(0);
    if (psaType === 'connectwise') {
      expect(client.capabilities).toMatchObject({ communicationTypes: true, noteTypes: false, ticketTypes: false });
      expect((await client.listCommunicationTypes()).some((type) => type.isEmail)).toBe(true);
      expect(await client.listNoteTypes()).toEqual([]);
      expect(await client.listTicketTypes()).toEqual([]);
      expect(await client.getRequestUsage()).toBeNull();
    } else {
      expect(client.capabilities).toMatchObject({ communicationTypes: false, noteTypes: true, ticketTypes: true });
      expect(await client.listCommunicationTypes()).toEqual([]);
      expect((await client.listNoteTypes()).length).toBeGreaterThan(0);
      expect((await client.listTicketTypes()).length).toBeGreaterThan(0);
      const usage = await client.getRequestUsage();
      expect(usage?.limit).toBe(10_000);
      expect(usage?.used).toBeGreaterThan(0);
    }
  });

  it('creates board, status, type and subtype on ConnectWise and associates a subtype with a second type; Autotask flags them as not possible and refuses them', async () => {
    const boardCapabilities = { createBoards: true, createStatuses: true, createTypes: true, createSubtypes: true };
    if (psaType === 'connectwise') {
      expect(client.capabilities).toMatchObject(boardCapabilities);
      const [location] = await client.listLocations();
      const [department] = await client.listDepartments();
      if (!location || !department) throw new Error('no location or department');
      const board = await client.createBoard({ name: 'Contract Board', locationId: location.id, departmentId: department.id });
      expect((await client.listBoards()).map((each) => each.name)).toContain('Contract Board');
      const status = await client.createStatus(board.id, { name: 'Resolved here', isClosed: true });
      expect(status).toMatchObject({ boardId: board.id, isClosed: true });
      const type = await client.createType(board.id, { name: 'Printers' });
      const subtype = await client.createSubtype(board.id, { name: 'Paper jam', typeIds: [type.id] });
      expect(subtype.typeIds).toEqual([type.id]);
      expect((await client.listSubtypes(board.id)).map((each) => each.name)).toContain('Paper jam');
      // One subtype under a second type: ConnectWise links them on the subtype (typeAssociationIds), not by a second name.
      const scanners = await client.createType(board.id, { name: 'Scanners' });
      expect(await client.updateSubtype(board.id, subtype.id, { typeIds: [type.id, scanners.id], isActive: false })).toMatchObject({ typeIds: [type.id, scanners.id], isActive: false });
      expect(await client.updateSubtype(board.id, subtype.id, { isActive: true })).toMatchObject({ typeIds: [type.id, scanners.id], isActive: true });
      expect(await client.updateType(board.id, scanners.id, { isActive: false })).toMatchObject({ id: scanners.id, isActive: false });
      expect((await client.listTypes(board.id)).find((each) => each.id === scanners.id)?.isActive).toBe(false);
    } else {
      expect(client.capabilities).toMatchObject({ createBoards: false, createStatuses: false, createTypes: false, createSubtypes: false });
      for (const attempt of [
        client.createBoard({ name: 'Q', locationId: 1, departmentId: 1 }),
        client.createStatus(boardId, { name: 'S', isClosed: false }),
        client.createType(boardId, { name: 'T' }),
        client.createSubtype(boardId, { name: 'U', typeIds: [1] }),
        client.updateType(boardId, 1, { isActive: true }),
        client.updateSubtype(boardId, 1, { typeIds: [1, 2] }),
      ]) {
        const error = await caught(attempt);
        expect(error.kind).toBe('not_supported');
        expect(error.message).toMatch(/Autotask/);
      }
    }
  });

  it('creates a contact and finds it in the company stream', async () => {
    const contact = await client.createContact({ idempotencyKey: `contact-${psaType}`, companyId, firstName: 'Dana', lastName: 'Contract', email: 'dana.contract@example.com' });
    expect(contact).toMatchObject({ companyId, firstName: 'Dana', email: 'dana.contract@example.com' });
    const found: number[] = [];
    for await (const each of client.streamContacts({ companyId })) found.push(each.id);
    expect(found).toContain(contact.id);
  });

  it('creates, reads, updates, notes and closes a ticket', async () => {
    const priorities = await client.listPriorities();
    const ticket = await client.createTicket({
      idempotencyKey: `ticket-life-${psaType}`,
      summary: 'Outlook keeps asking for a password',
      description: 'Since this morning.',
      boardId,
      companyId,
      priorityId: priorities[0]?.id,
    });
    expect(ticket).toMatchObject({ summary: 'Outlook keeps asking for a password', boardId, companyId, isClosed: false, externalReference: `ticket-life-${psaType}` });
    expect(await client.getTicket(ticket.id)).toEqual(ticket);

    const updated = await client.updateTicket(ticket.id, { summary: 'Outlook password prompt loop', priorityId: priorities[1]?.id });
    expect(updated).toMatchObject({ summary: 'Outlook password prompt loop', priorityId: priorities[1]?.id });

    await client.addNote(ticket.id, { text: 'Asked the user to restart Outlook.', kind: 'description' });
    await client.addNote(ticket.id, { text: 'Credential manager entry is stale.', kind: 'internal' });
    const notes = await client.listNotes(ticket.id);
    expect(notes.find((note) => note.text === 'Asked the user to restart Outlook.')?.kind).toBe('description');
    expect(notes.find((note) => note.text === 'Credential manager entry is stale.')?.kind).toBe('internal');

    const closed = await client.closeTicket(ticket.id, { resolution: 'Cleared the stale credential.' });
    expect(closed.isClosed).toBe(true);
    expect(await client.getTicketStatus(ticket.id)).toMatchObject({ ticketId: ticket.id, isClosed: true, statusId: closed.statusId });
    expect((await client.listNotes(ticket.id)).find((note) => note.kind === 'resolution')?.text).toBe('Cleared the stale credential.');
  });

  it('maps a missing ticket to not_found and a bad board to validation with the PSA field message', async () => {
    expect((await caught(client.getTicket(987_654_321))).kind).toBe('not_found');
    const error = await caught(client.createTicket({ idempotencyKey: `bad-board-${psaType}`, summary: 'x', description: 'y', boardId: 999_999, companyId }));
    expect(error.kind).toBe('validation');
    expect(error.fieldMessages[0]?.field).toBe(psaType === 'connectwise' ? 'board' : 'queueID');
    expect(error.fieldMessages[0]?.message).toMatch(/not valid|does not reference/);
  });

  it('registers the ticket webhook once per URL', async () => {
    const first = await client.registerTicketWebhook({ url: `https://hooks.example.com/${psaType}`, description: 'Switchboard tickets', secretKey: 'webhook-secret-value' });
    const again = await client.registerTicketWebhook({ url: `https://hooks.example.com/${psaType}`, description: 'Switchboard tickets', secretKey: 'webhook-secret-value' });
    expect(again.id).toBe(first.id);
  });

  it('reports bad keys as bad_keys without the key in the error', async () => {
    const wrongKey = psaType === 'connectwise' ? 'wrong-private-key-xyz' : 'wrong-secret-xyz';
    const badClient = clientFor(psaType, sim, {}, psaType === 'connectwise' ? { privateKey: wrongKey } : { secret: wrongKey });
    const error = await caught(badClient.listBoards());
    expect(error.kind).toBe('bad_keys');
    for (const text of [JSON.stringify(error), String(error), error.stack ?? '', JSON.stringify(error.fieldMessages)]) expect(text).not.toContain(wrongKey);
  });

  // Members, departments and locations are never cached (Autotask picklists are), so each call reaches the PSA.
  it('recovers from injected 429, 500, a dropped connection and a timeout', async () => {
    const requestsBefore = client.requestCount();
    sim.faults.failNext({ kind: 429, count: 2 });
    expect((await client.listDepartments()).length).toBeGreaterThan(0);
    expect(client.requestCount() - requestsBefore).toBe(3);
    sim.faults.failNext({ kind: 500, count: 2 });
    expect((await client.listLocations()).length).toBeGreaterThan(0);
    sim.faults.failNext({ kind: 'drop' });
    expect((await client.listMembers()).length).toBeGreaterThan(0);
    const quickClient = clientFor(psaType, sim, { timeoutMs: 300 });
    await quickClient.listBoards();
    sim.faults.failNext({ kind: 'timeout' });
    expect((await quickClient.listBoards()).length).toBeGreaterThan(0);
  });

  it.each([500, 'drop', 'timeout'] as const)('never duplicates a ticket create interrupted by %s', async (kind) => {
    const quickClient = clientFor(psaType, sim, { timeoutMs: 300 });
    await quickClient.listBoards();
    const key = `retry-${psaType}-${kind}`;
    const createsBefore = sim.stats().creates;
    sim.faults.failNext({ kind, pathPrefix: ticketPath[psaType] });
    const ticket = await quickClient.createTicket({ idempotencyKey: key, summary: `Retry ${kind}`, description: 'Created through a fault.', boardId, companyId });
    expect(ticket.externalReference).toBe(key);
    expect(sim.stats().creates - createsBefore).toBe(1);
    // Sending the same key again after success finds nothing new to create on the PSA side.
    expect((await quickClient.getTicket(ticket.id)).id).toBe(ticket.id);
  });

  it('never duplicates a note or a contact whose create was dropped (checked by listing)', async () => {
    const [board] = await client.listBoards();
    const ticket = await client.createTicket({ idempotencyKey: `note-retry-${psaType}`, summary: 'Note retry', description: 'd', boardId: board?.id ?? boardId, companyId });
    const notePath = psaType === 'connectwise' ? `${ticketPath.connectwise}/${ticket.id}/notes` : `${ticketPath.autotask}/${ticket.id}/notes`;
    sim.faults.failNext({ kind: 'drop', pathPrefix: notePath });
    await client.addNote(ticket.id, { text: 'Only once, please.', kind: 'internal' });
    expect((await client.listNotes(ticket.id)).filter((note) => note.text === 'Only once, please.')).toHaveLength(1);

    const contactPath = psaType === 'connectwise' ? '/v4_6_release/apis/3.0/company/contacts' : `/atservicesrest/v1.0/companies/${companyId}/contacts`;
    sim.faults.failNext({ kind: 500, pathPrefix: contactPath });
    await client.createContact({ idempotencyKey: `contact-retry-${psaType}`, companyId, firstName: 'Once', lastName: 'Only', email: 'once.only@example.com', phone: '3035550199' });
    const matches = [];
    for await (const contact of client.streamContacts({ companyId })) if (contact.email === 'once.only@example.com') matches.push(contact);
    expect(matches).toHaveLength(1);
    expect(matches[0]?.phone).toBe('3035550199');
  });

  it('keeps concurrent calls within the per-endpoint limit, so Autotask never answers with its thread-limit error', async () => {
    const concurrentClient = clientFor(psaType, sim);
    await concurrentClient.listBoards();
    const before = concurrentClient.requestCount();
    // Latency keeps requests in flight together, as on a real network.
    sim.faults.set({ latencyMs: 40 });
    const results = await Promise.all(Array.from({ length: 12 }, () => concurrentClient.listDepartments()));
    sim.faults.set({ latencyMs: 0 });
    expect(results.every((departments) => departments.length > 0)).toBe(true);
    // One request each: no call was refused and retried.
    expect(concurrentClient.requestCount() - before).toBe(12);
  });

  it('gives up with unavailable when the PSA keeps failing', async () => {
    sim.faults.failNext({ kind: 503, count: 10 });
    expect((await caught(client.listDepartments())).kind).toBe('unavailable');
    sim.faults.reset();
  });
});

describe.each(PSAS)('%s paging across page boundaries', (psaType) => {
  let sim: TSimulator;
  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'empty', scale: { companies: 1_203, contacts: 2_345 }, rateLimit: false });
  });
  afterAll(async () => sim.close());

  it('streams every company and contact exactly once', async () => {
    const client = clientFor(psaType, sim);
    const companyIds = new Set<number>();
    for await (const company of client.streamCompanies()) companyIds.add(company.id);
    expect(companyIds.size).toBe(1_203);
    const requestsBefore = client.requestCount();
    const contactIds = new Set<number>();
    let streamed = 0;
    for await (const contact of client.streamContacts()) {
      contactIds.add(contact.id);
      streamed += 1;
    }
    expect(streamed).toBe(2_345);
    expect(contactIds.size).toBe(2_345);
    // 1000 per page on ConnectWise, 500 on Autotask.
    expect(client.requestCount() - requestsBefore).toBe(psaType === 'connectwise' ? 3 : 5);
  });

  it('stays within the budget and retries the 429s of a rate-limited PSA', async () => {
    sim.setRateLimit({ perMinute: 1_000 });
    const client = clientFor(psaType, sim);
    sim.faults.failNext({ kind: 429, count: 1 });
    let streamed = 0;
    for await (const contact of client.streamContacts()) streamed += contact.id > 0 ? 1 : 0;
    expect(streamed).toBe(2_345);
    sim.setRateLimit(false);
  });
});
