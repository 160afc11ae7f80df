import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, type PsaClient, type TPsaType } from '../src/index';
import { clientFor, firstBoardAndCompany, startPsaSimulator, type TSimulator } from './sim-clients';

// Regression (review 2026-11-29, findings 2, 6 and 7): a note with the same text and kind as an earlier note on the
// ticket was never sent (its lookup ran before the first POST and found the earlier note); adding a ConnectWise contact
// returned an old, even deactivated, contact of the same name and created nothing; and a 408 was a permanent refusal.
// Creates found again by their content look up before sending only on a resend, and only among records created since
// the write was first tried; a 408 is retried like a 5xx.

const PSAS: TPsaType[] = ['connectwise', 'autotask'];
const NOTES_PATH: Record<TPsaType, (ticketId: number) => string> = {
  connectwise: (ticketId) => `/v4_6_release/apis/3.0/service/tickets/${ticketId}/notes`,
  autotask: (ticketId) => `/atservicesrest/v1.0/tickets/${ticketId}/notes`,
};
const CONTACTS_PATH: Record<TPsaType, (companyId: number) => string> = {
  connectwise: () => '/v4_6_release/apis/3.0/company/contacts',
  autotask: (companyId) => `/atservicesrest/v1.0/companies/${companyId}/contacts`,
};
const TEN_MINUTES = 10 * 60_000;

/** One clock for the simulator and the clients, so a test can let ten minutes pass for both. */
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs, sleep: (milliseconds: number, signal?: AbortSignal) => systemClock.sleep(milliseconds, signal) };
let sim: TSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false, now: clock.now });
});
afterAll(async () => sim.close());
beforeEach(() => sim.faults.reset());

/** A contact stored without the adapter, as someone made it in the PSA long ago (and maybe deactivated since). */
async function rawContact(psaType: TPsaType, companyId: number, contact: { firstName: string; lastName: string; isActive: boolean }): Promise<number> {
  const isConnectWise = psaType === 'connectwise';
  const url = isConnectWise ? `${sim.url}/v4_6_release/apis/3.0/company/contacts` : `${sim.url}/ATServicesRest/V1.0/Companies/${companyId}/Contacts`;
  const { companyId: cwCompany, publicKey, privateKey, clientId } = sim.connectWise;
  const headers: Record<string, string> = isConnectWise
    ? { Authorization: `Basic ${Buffer.from(`${cwCompany}+${publicKey}:${privateKey}`).toString('base64')}`, clientId, 'Content-Type': 'application/json' }
    : { UserName: sim.autotask.username, Secret: sim.autotask.secret, ApiIntegrationCode: sim.autotask.integrationCode, 'Content-Type': 'application/json' };
  const body = isConnectWise
    ? { firstName: contact.firstName, lastName: contact.lastName, company: { id: companyId }, inactiveFlag: !contact.isActive }
    : { companyID: companyId, firstName: contact.firstName, lastName: contact.lastName, isActive: contact.isActive ? 1 : 0 };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(response.status).toBeLessThan(300);
  const created = (await response.json()) as { id?: number; itemId?: number };
  const id = created.id ?? created.itemId;
  if (id === undefined) throw new Error('the simulator answered no id');
  return id;
}

describe.each(PSAS)('%s: creates found again by their content', (psaType) => {
  let client: PsaClient;
  let boardId: number;
  let companyId: number;
  let ticketCount = 0;

  beforeAll(async () => {
    client = clientFor(psaType, sim, { tenantKey: `repeat-${psaType}`, timeoutMs: 400, clock });
    ({ boardId, companyId } = await firstBoardAndCompany(client));
  });

  async function newTicket(): Promise<number> {
    ticketCount += 1;
    return (await client.createTicket({ idempotencyKey: `repeat-${psaType}-${ticketCount}`, summary: `Repeated notes ${ticketCount}`, description: 'd', boardId, companyId })).id;
  }

  const countText = async (ticketId: number, text: string) => (await client.listNotes(ticketId)).filter((note) => note.text === text).length;

  it('adds a second note with the same text as the first: two notes', async () => {
    const ticketId = await newTicket();
    const first = await client.addNote(ticketId, { text: 'Technician: (7): Called, left voicemail', kind: 'internal' });
    const second = await client.addNote(ticketId, { text: 'Technician: (7): Called, left voicemail', kind: 'internal' });
    expect(second.id).not.toBe(first.id);
    expect(await countText(ticketId, 'Technician: (7): Called, left voicemail')).toBe(2);
  });

  it('a repeated note whose POST times out after the PSA stored it is found, not sent twice: one new note', async () => {
    const ticketId = await newTicket();
    await client.addNote(ticketId, { text: 'Any update?', kind: 'description' });
    sim.faults.failNext({ kind: 'timeout', phase: 'after', method: 'POST', path: NOTES_PATH[psaType](ticketId) });
    const repeated = await client.addNote(ticketId, { text: 'Any update?', kind: 'description' });
    // The timeout struck (the POST was sent and stored), and the lookup found that note rather than the first.
    expect(sim.faults.pendingCount()).toBe(0);
    const notes = (await client.listNotes(ticketId)).filter((note) => note.text === 'Any update?');
    expect(notes).toHaveLength(2);
    expect(repeated.id).toBe(Math.max(...notes.map((note) => note.id)));
  });

  it('a resend finds the note its earlier call added, never an older identical note nor another write’s', async () => {
    const ticketId = await newTicket();
    const older = await client.addNote(ticketId, { text: 'Rebooted the router', kind: 'internal' });
    // Ten minutes later the same words are written again, by a write whose earlier call threw before it was sent.
    offsetMs += TEN_MINUTES;
    const written = await client.addNote(ticketId, { text: 'Rebooted the router', kind: 'internal', resend: { firstTriedMsAgo: 0 } });
    expect(written.id).not.toBe(older.id);
    expect(await countText(ticketId, 'Rebooted the router')).toBe(2);
    // Its resend (an earlier call threw, outcome unknown) finds it, and sends nothing.
    const resent = await client.addNote(ticketId, { text: 'Rebooted the router', kind: 'internal', resend: { firstTriedMsAgo: 60_000 } });
    expect(resent.id).toBe(written.id);
    expect(await countText(ticketId, 'Rebooted the router')).toBe(2);
    // A note another write is known to have added is never taken for this one.
    const third = await client.addNote(ticketId, { text: 'Rebooted the router', kind: 'internal', resend: { firstTriedMsAgo: 2 * TEN_MINUTES, otherWritesIds: [older.id, written.id] } });
    expect([older.id, written.id]).not.toContain(third.id);
    expect(await countText(ticketId, 'Rebooted the router')).toBe(3);
  });

  it('a close sent again after its resolution note landed writes that note once', async () => {
    const ticketId = await newTicket();
    // The earlier call wrote the resolution note, then threw before the status changed.
    await client.addNote(ticketId, { text: 'Replaced the fuser', kind: 'resolution' });
    await client.closeTicket(ticketId, { resolution: 'Replaced the fuser', resend: { firstTriedMsAgo: 5_000 } });
    expect((await client.getTicket(ticketId)).isClosed).toBe(true);
    expect((await client.listNotes(ticketId)).filter((note) => note.kind === 'resolution' && note.text === 'Replaced the fuser')).toHaveLength(1);
  });

  it('retries a 408 instead of refusing the note for good', async () => {
    const ticketId = await newTicket();
    sim.faults.failNext({ kind: 408, method: 'POST', path: NOTES_PATH[psaType](ticketId) });
    const note = await client.addNote(ticketId, { text: 'Sent after a 408', kind: 'internal' });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(note.text).toBe('Sent after a 408');
    expect(await countText(ticketId, 'Sent after a 408')).toBe(1);
  });

  it('adds "Chris Lee" without an e-mail although a deactivated Chris Lee is in the company', async () => {
    const lastName = `Lee ${psaType}`;
    const inactive = await rawContact(psaType, companyId, { firstName: 'Chris', lastName, isActive: false });
    const created = await client.createContact({ idempotencyKey: `chris-${psaType}-1`, companyId, firstName: 'Chris', lastName });
    expect(created.id).not.toBe(inactive);
    expect(created).toMatchObject({ firstName: 'Chris', lastName, isActive: true });
    const named: number[] = [];
    for await (const contact of client.streamContacts({ companyId })) if (contact.firstName === 'Chris' && contact.lastName === lastName) named.push(contact.id);
    expect(named.sort((a, b) => a - b)).toEqual([inactive, created.id].sort((a, b) => a - b));
  });

  it('a contact add whose POST is lost after the PSA stored it is found, not an older namesake', async () => {
    const lastName = `Park ${psaType}`;
    const older = await rawContact(psaType, companyId, { firstName: 'Sam', lastName, isActive: true });
    sim.faults.failNext({ kind: 'drop', phase: 'after', method: 'POST', path: CONTACTS_PATH[psaType](companyId) });
    // Ten minutes later, and sent again after an earlier call threw: the namesake is older than the write, the contact
    // the lost POST made is not.
    offsetMs += TEN_MINUTES;
    const created = await client.createContact({ idempotencyKey: `sam-${psaType}-1`, companyId, firstName: 'Sam', lastName, resend: { firstTriedMsAgo: 0 } });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(created.id).not.toBe(older);
    let named = 0;
    for await (const contact of client.streamContacts({ companyId })) if (contact.lastName === lastName) named += 1;
    expect(named).toBe(2);
    // With an e-mail, a namesake made just now with another address is not taken for the contact either.
    const withEmail = await client.createContact({ idempotencyKey: `sam-${psaType}-2`, companyId, firstName: 'Sam', lastName, email: 'sam.park@example.com', resend: { firstTriedMsAgo: 0 } });
    expect([older, created.id]).not.toContain(withEmail.id);
    expect(withEmail.email).toBe('sam.park@example.com');
  });
});
