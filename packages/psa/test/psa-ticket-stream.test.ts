import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsaClient, TPsaTicketRecord, TPsaType, TStreamTicketsFilter } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

const PSAS: TPsaType[] = ['connectwise', 'autotask'];

async function collect(client: PsaClient, filter: TStreamTicketsFilter, readAhead?: number): Promise<TPsaTicketRecord[]> {
  const tickets: TPsaTicketRecord[] = [];
  for await (const ticket of client.streamTickets(filter, readAhead === undefined ? undefined : { readAhead })) tickets.push(ticket);
  return tickets;
}

describe.each(PSAS)('%s ticket stream by board and date range against the simulator', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false, scale: { tickets: 1_200 } });
    client = clientFor(psaType, sim);
  });
  afterAll(async () => sim.close());

  it('pages through every ticket of a board, filtered by the PSA, with names and dates', async () => {
    const all = await collect(client, {});
    expect(all.length).toBeGreaterThan(1_000);
    const boardId = all[0]?.boardId;
    expect(boardId).toBeTypeOf('number');
    const onBoard = await collect(client, { boardIds: [boardId ?? -1] });
    expect(onBoard.map((ticket) => ticket.id).sort((a, b) => a - b)).toEqual(
      all.filter((ticket) => ticket.boardId === boardId).map((ticket) => ticket.id).sort((a, b) => a - b),
    );
    const first = onBoard[0];
    expect(first?.boardName).toBeTruthy();
    expect(first?.statusName).toBeTruthy();
    expect(first?.createdAt && Number.isNaN(Date.parse(first.createdAt))).toBe(false);
    expect(new Set(onBoard.map((ticket) => ticket.id)).size).toBe(onBoard.length);
    const middleId = onBoard[Math.floor(onBoard.length / 2)]?.id ?? 0;
    const resumed = await collect(client, { boardIds: [boardId ?? -1], afterId: middleId });
    expect(resumed.map((ticket) => ticket.id)).toEqual(onBoard.filter((ticket) => ticket.id > middleId).map((ticket) => ticket.id));
  });

  it('reads ahead with the same requests and the same tickets, and a reader that stops early sends at most the read-ahead more', async () => {
    let before = client.requestCount();
    const plain = await collect(client, {});
    const plainRequests = client.requestCount() - before;
    expect(plainRequests).toBeGreaterThan(1);
    before = client.requestCount();
    const ahead = await collect(client, {}, 2);
    expect(client.requestCount() - before).toBe(plainRequests);
    expect(ahead).toEqual(plain);
    before = client.requestCount();
    for await (const _first of client.streamTickets({}, { readAhead: 1 })) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.requestCount() - before).toBe(2);
  });

  it('keeps only tickets entered in the range, and open ones when asked', async () => {
    const all = await collect(client, {});
    const dates = all.map((ticket) => Date.parse(ticket.createdAt ?? '')).sort((a, b) => a - b);
    const middle = new Date(dates[Math.floor(dates.length / 2)] ?? 0);
    const later = await collect(client, { createdFrom: middle });
    const earlier = await collect(client, { createdBefore: middle });
    expect(later.length + earlier.length).toBe(all.length);
    expect(later.every((ticket) => Date.parse(ticket.createdAt ?? '') >= middle.getTime())).toBe(true);
    const open = await collect(client, { openOnly: true });
    expect(open.length).toBe(all.filter((ticket) => !ticket.isClosed).length);
    expect(open.every((ticket) => !ticket.isClosed)).toBe(true);
  });

  it('counts companies and contacts as their streams yield them, in one request each', async () => {
    let companies = 0;
    for await (const _company of client.streamCompanies()) companies += 1;
    const contacts: number[] = [];
    for await (const contact of client.streamContacts()) contacts.push(contact.companyId ?? 0);
    const before = client.requestCount();
    expect(await client.countCompanies()).toBe(companies);
    expect(await client.countContacts()).toBe(contacts.length);
    const companyId = contacts.find((id) => id > 0) ?? 0;
    expect(await client.countContacts({ companyId })).toBe(contacts.filter((id) => id === companyId).length);
    expect(client.requestCount() - before).toBe(3);
  });

  it('finds recently changed tickets and survives a 503 on a page', async () => {
    const [ticket] = await collect(client, { openOnly: true });
    const before = new Date(Date.now() - 1_000);
    await client.updateTicket(ticket?.id ?? -1, { summary: `Changed ${psaType}` });
    sim.faults.failNext({ kind: 503, count: 1, pathPrefix: psaType === 'connectwise' ? '/v4_6_release/apis/3.0/service/tickets' : '/atservicesrest/v1.0/tickets' });
    const changed = await collect(client, { updatedSince: before });
    expect(changed.map((each) => each.summary)).toContain(`Changed ${psaType}`);
    expect(sim.faults.pendingCount()).toBe(0);
  });
});
