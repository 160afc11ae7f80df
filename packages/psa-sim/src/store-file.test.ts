import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { seedDemoData, seedReferenceData } from './seed';
import { SimStore } from './store';
import { parseStore, serialiseStore } from './store-file';
import { asRecord, autotaskCall, connectWiseCall } from './test-support';

// Bug (first-run review): the embedded demo's simulator started from the seed on every `npm start`, so ticket numbers
// were handed out again and tickets, notes and time entries of the last run were gone. With a state file it keeps them.

let folder: string;
let stateFile: string;
const started: TPsaSimulator[] = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'psa-sim-state-'));
  stateFile = join(folder, 'psa-simulator.json');
});
afterEach(async () => {
  for (const sim of started.splice(0)) await sim.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startPsaSimulator>[0] = {}): Promise<TPsaSimulator> {
  const sim = await startPsaSimulator({ stateFile, ...options });
  started.push(sim);
  return sim;
}

async function stop(sim: TPsaSimulator): Promise<void> {
  started.splice(started.indexOf(sim), 1);
  await sim.close();
}

function tablesOf(store: SimStore) {
  return Object.fromEntries([...store.tablesByName()].map(([name, table]) => [name, { nextId: table.peekNextId(), rows: [...table.all()] }]));
}

describe('the store saved to a file and read back', () => {
  it('gives back every table, row for row (attachment bytes too), with the same next ids', () => {
    const store = new SimStore(() => 1_750_000_000_000);
    seedReferenceData(store);
    seedDemoData(store);
    const seeded = store.tickets.get(100001);
    if (!seeded) throw new Error('the demo seed has no ticket 100001');
    const ticket = store.tickets.insert({ ...seeded, summary: 'Printer jams on every page', closedAt: null, closedBy: null });
    store.addNote({ ticketId: ticket.id, text: 'Checked the tray', title: '', isDescription: false, isInternal: true, isResolution: false, memberId: 1, contactId: null, createdAt: 1, updatedAt: 1, autotaskNoteType: 1, autotaskPublish: 2 });
    store.timeEntries.insert({ ticketId: ticket.id, memberId: 1, roleId: null, startAt: 1, endAt: 2, hours: 0.5, notes: 'Remote session', createdAt: 3, via: 'connectwise' });
    store.attachments.insert({ ticketId: ticket.id, title: 'photo', fileName: 'jam.png', contentType: 'image/png', data: Buffer.from([0, 1, 2, 250, 255]), createdAt: 4, via: 'autotask' });
    store.boardTeams.insert({ boardId: 1, name: 'Help Desk team', leaderId: null, memberIds: [1, 2], isDefault: false, notifyOnTicketDelete: false });
    // The newest ticket deleted: the next one must still get a new number, not this one's again.
    const deleted = store.tickets.insert({ ...ticket, summary: 'raised by mistake' });
    store.tickets.delete(deleted.id);

    const readBack = parseStore(serialiseStore(store, 5), store.now);

    expect(tablesOf(readBack)).toEqual(tablesOf(store));
    expect(readBack.attachments.get(1)?.data).toEqual(Buffer.from([0, 1, 2, 250, 255]));
    expect(readBack.notesOfTicket(ticket.id).map((note) => note.text)).toEqual(['Checked the tray']);
    expect(readBack.notesOfTicket(100001).map((note) => note.title)).toEqual(['Description', 'Resolution']);
    expect(readBack.tickets.insert({ ...ticket, summary: 'next' }).id).toBe(deleted.id + 1);
  });

  it('refuses, in plain words, text that is cut off, another file, or one without a table', () => {
    const store = new SimStore();
    seedReferenceData(store);
    const text = serialiseStore(store, 1);
    expect(() => parseStore(text.slice(0, text.length / 2))).toThrow('it is not complete JSON (the last save may have been cut off)');
    expect(() => parseStore('{"name":"something else"}')).toThrow('it is not a file the PSA simulator saved');
    const withoutTickets = JSON.parse(text) as { tables: Record<string, unknown> };
    delete withoutTickets.tables.tickets;
    expect(() => parseStore(JSON.stringify(withoutTickets))).toThrow('it has no tickets table');
  });
});

describe('a simulator with a state file', () => {
  it('keeps tickets, notes, time entries and contacts across a restart and numbers new tickets after the last one', async () => {
    const first = await start();
    expect(first.dataSource).toBe('seed');
    const created = asRecord((await connectWiseCall(first, 'POST', '/service/tickets', { summary: 'Outlook asks for the password', company: { id: 1 }, board: { id: 1 } })).body);
    const ticketId = Number(created.id);
    expect((await connectWiseCall(first, 'POST', `/service/tickets/${ticketId}/notes`, { text: 'Reset the profile', internalAnalysisFlag: true })).status).toBe(201);
    expect((await connectWiseCall(first, 'POST', '/time/entries', { chargeToType: 'ServiceTicket', chargeToId: ticketId, member: { id: 1 }, timeStart: '2026-06-01T09:00:00Z', timeEnd: '2026-06-01T09:30:00Z', notes: 'Remote session' })).status).toBe(201);
    const contact = asRecord((await autotaskCall(first, 'POST', '/Companies/1/Contacts', { companyID: 1, firstName: 'Ada', lastName: 'Quinn', emailAddress: 'ada.quinn@example.com', isActive: 1 })).body);
    await stop(first);

    const second = await start();
    expect(second.dataSource).toBe('saved');
    expect(asRecord((await connectWiseCall(second, 'GET', `/service/tickets/${ticketId}`)).body).summary).toBe('Outlook asks for the password');
    const notes = (await connectWiseCall(second, 'GET', `/service/tickets/${ticketId}/notes`)).body as { text: string }[];
    expect(notes.map((note) => note.text)).toContain('Reset the profile');
    const entries = (await connectWiseCall(second, 'GET', `/time/entries?conditions=${encodeURIComponent(`chargeToId=${ticketId}`)}`)).body as { notes: string }[];
    expect(entries.map((entry) => entry.notes)).toEqual(['Remote session']);
    expect(asRecord(asRecord((await autotaskCall(second, 'GET', `/Contacts/${String(contact.itemId)}`)).body).item)).toMatchObject({ firstName: 'Ada', lastName: 'Quinn' });
    const next = asRecord((await connectWiseCall(second, 'POST', '/service/tickets', { summary: 'Printer jams', company: { id: 1 }, board: { id: 1 } })).body);
    expect(Number(next.id)).toBe(ticketId + 1);
  });

  it('writes a change to the file shortly after it, without waiting for close (a crash keeps it)', async () => {
    const sim = await start();
    const created = asRecord((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'VPN drops every hour', company: { id: 1 }, board: { id: 1 } })).body);
    await expect.poll(() => readFileSync(stateFile, 'utf8').includes('VPN drops every hour'), { timeout: 3000 }).toBe(true);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(parseStore(readFileSync(stateFile, 'utf8')).tickets.get(Number(created.id))?.summary).toBe('VPN drops every hour');
  });

  it('starts from the seed when the file cannot be read, says so, and keeps the unreadable file aside', async () => {
    writeFileSync(stateFile, '{"format":"switchboard-psa-simulator","version":1,"tables":{"tick');
    const problems: string[] = [];
    const sim = await start({ onStateProblem: (message) => problems.push(message) });
    expect(sim.dataSource).toBe('seed');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`The PSA simulator's saved data in ${stateFile} could not be read: it is not complete JSON`);
    expect(problems[0]).toContain('the simulator starts again from the demo data');
    const keptAside = readdirSync(folder).filter((name) => name.startsWith('psa-simulator.json.unreadable-'));
    expect(keptAside).toHaveLength(1);
    expect(readFileSync(join(folder, keptAside[0] ?? ''), 'utf8')).toContain('"tick');
    // The seeded data is saved at once in place of the unreadable file.
    expect(parseStore(readFileSync(stateFile, 'utf8')).tickets.get(100001)).toBeDefined();
  });

  it('numbers new tickets, companies and contacts above ids held elsewhere, and keeps that after a restart', async () => {
    const sim = await start();
    sim.numberAbove({ tickets: 200_000, companies: 500, contacts: 900 });
    expect(Number(asRecord((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'After the floor', company: { id: 1 }, board: { id: 1 } })).body).id)).toBe(200_001);
    sim.numberAbove({ tickets: 10 });
    await stop(sim);
    const again = await start();
    expect(Number(asRecord((await connectWiseCall(again, 'POST', '/service/tickets', { summary: 'After the restart', company: { id: 1 }, board: { id: 1 } })).body).id)).toBe(200_002);
    expect(Number(asRecord((await connectWiseCall(again, 'POST', '/company/companies', { identifier: 'NewCo', name: 'New Co' })).body).id)).toBe(501);
  });

  it('writes nothing without the option: each start begins from the seed, as tests expect', async () => {
    const sim = await startPsaSimulator();
    started.push(sim);
    await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Not kept', company: { id: 1 }, board: { id: 1 } });
    await stop(sim);
    expect(existsSync(stateFile)).toBe(false);
    const again = await startPsaSimulator();
    started.push(again);
    expect(again.dataSource).toBe('seed');
    expect((await connectWiseCall(again, 'GET', `/service/tickets?conditions=${encodeURIComponent('summary="Not kept"')}`)).body).toEqual([]);
  });
});
