import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsaClient, TStreamTicketsFilter } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

// Regression: ConnectWise lists were paged by page number (`page=N`), so a ticket that left the filter while a sync
// read page 1 shifted the later rows down one place and page 2 began one row late (an unchanged ticket skipped), and
// one that entered shifted them up (a ticket read twice). Pages now follow `id > <last id read>` (psa-apis.md §1.4).
describe('ConnectWise ticket stream while tickets move between boards (keyset paging)', () => {
  let sim: TSimulator;
  let client: PsaClient;
  let filter: TStreamTicketsFilter;
  let otherBoardId: number;

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false, scale: { tickets: 1_200 } });
    client = clientFor('connectwise', sim);
    const perBoard = new Map<number, number>();
    for await (const ticket of client.streamTickets({})) if (ticket.boardId !== null) perBoard.set(ticket.boardId, (perBoard.get(ticket.boardId) ?? 0) + 1);
    const [busiest] = [...perBoard.entries()].sort((left, right) => right[1] - left[1]);
    // More than one 1000-row page on one board, so the move happens between two pages of the same stream.
    expect(busiest?.[1]).toBeGreaterThan(1_000);
    filter = { boardIds: [busiest?.[0] ?? -1] };
    const [location] = await client.listLocations();
    const [department] = await client.listDepartments();
    otherBoardId = (await client.createBoard({ name: 'Projects', locationId: location?.id ?? -1, departmentId: department?.id ?? -1 })).id;
    await client.createStatus(otherBoardId, { name: 'New', isClosed: false });
  });
  afterAll(async () => sim.close());

  async function ids(): Promise<number[]> {
    const found: number[] = [];
    for await (const ticket of client.streamTickets(filter)) found.push(ticket.id);
    return found;
  }

  /** Streams the filter and runs `change` once the first row has been read (page 2 not yet asked for). */
  async function idsWhile(change: () => Promise<void>): Promise<number[]> {
    const found: number[] = [];
    for await (const ticket of client.streamTickets(filter)) {
      if (found.length === 0) await change();
      found.push(ticket.id);
    }
    return found;
  }

  async function moveTicket(ticketId: number, boardId: number): Promise<void> {
    const [status] = await client.listStatuses(boardId);
    await client.updateTicket(ticketId, { boardId, statusId: status?.id, typeId: null, subtypeId: null, itemId: null });
  }

  it('skips no unchanged ticket when one of page 1 leaves the filter before page 2 is read', async () => {
    const before = await ids();
    expect(before.length).toBeGreaterThan(1_000);
    const leaving = before[500] ?? -1;
    const during = await idsWhile(() => moveTicket(leaving, otherBoardId));
    // Every ticket that stayed is read once; the one that left was already read with page 1.
    expect(new Set(during).size).toBe(during.length);
    expect(during).toEqual(before);
    expect(await ids()).toEqual(before.filter((id) => id !== leaving));
    await moveTicket(leaving, filter.boardIds?.[0] ?? -1);
  });

  it('reads no ticket twice when one enters the filter behind page 1 before page 2 is read', async () => {
    const all = await ids();
    const entering = all[500] ?? -1;
    await moveTicket(entering, otherBoardId);
    const before = await ids();
    const during = await idsWhile(() => moveTicket(entering, filter.boardIds?.[0] ?? -1));
    expect(new Set(during).size).toBe(during.length);
    // It entered behind where the stream had read to, so this stream does not see it; the next one does.
    expect(during).toEqual(before);
    expect(await ids()).toEqual(all);
  });

  it('asks for as many pages as page numbers did: a short page ends the list', async () => {
    const started = client.requestCount();
    const found = await ids();
    expect(found.length).toBeGreaterThan(1_000);
    expect(found.length).toBeLessThan(2_000);
    expect(client.requestCount() - started).toBe(2);
  });
});
