import { describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { TBatchStatus } from '@switchboard/contracts';
import { psaTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildMsp } from '../../../test/factories';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { detailsFromNotes, readTicketNotes } from './ticket-notes.jobs';
import { findCopiesWithUnreadNotes, saveNotesOfCopy } from './ticket-sync.repository';

// The notes reader on (it is off in other test apps), at a pace that keeps the test short.
const JOBS = { queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, retryLimit: 6 }, staleAfterMs: 60_000, maxAttempts: 3 };
let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({ app: { jobs: JOBS, config: { psaNotesReadsPerMinute: 6_000 } } }, (ready) => ({ t, sim } = ready));

const direct = () => simulatorPsaClient(sim, 'connectwise', 'notes-direct');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The board with the most closed tickets (the demo history) and an 80-day range ending at its newest one. */
async function historyBoardAndRange(): Promise<{ boardId: number; startDate: string; endDate: string; closed: number[] }> {
  const byBoard = new Map<number, { id: number; at: number }[]>();
  for await (const ticket of direct().streamTickets({})) {
    if (ticket.boardId === null || !ticket.isClosed) continue;
    byBoard.set(ticket.boardId, [...(byBoard.get(ticket.boardId) ?? []), { id: ticket.id, at: Date.parse(ticket.createdAt ?? '') || 0 }]);
  }
  const [boardId, tickets] = [...byBoard.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [-1, []];
  const newest = Math.max(...tickets.map((ticket) => ticket.at));
  const from = newest - 80 * 86_400_000;
  return { boardId, startDate: day(from), endDate: day(newest), closed: tickets.filter((ticket) => ticket.at >= Date.parse(`${day(from)}T00:00:00Z`)).map((ticket) => ticket.id) };
}

async function syncAndWait(admin: TestClient, body: Record<string, unknown>): Promise<TBatchStatus> {
  const started = await admin.post('/psa/api/batch/sync-boards', body);
  expect(started.statusCode, started.body).toBe(200);
  const { parentRunId } = started.json<{ parentRunId: string }>();
  const until = Date.now() + 60_000;
  for (;;) {
    const status = (await admin.get(`/psa/api/batch/status?parentRunId=${parentRunId}`)).json<TBatchStatus>();
    if (status.phase2?.status === 'COMPLETED' || status.phase2?.status === 'FAILED' || status.phase1.status === 'FAILED') return status;
    if (Date.now() > until) throw new Error(`run ${parentRunId} did not settle`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until the reader has read every copy of the MSP (none left with notes_read_at null). */
async function notesAllRead(mspId: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await t.deps.database.db.select({ id: psaTickets.id }).from(psaTickets).where(and(eq(psaTickets.mspId, mspId), isNull(psaTickets.notesReadAt))).limit(1);
    if (waiting.length === 0) return;
    if (Date.now() > until) throw new Error('the notes reader did not read every copy');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function copyOf(mspId: string, externalId: number) {
  const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.externalId, String(externalId))));
  return copy;
}

describe('ConnectWise descriptions and resolutions are read from the ticket notes', () => {
  it('a synced closed ticket gets its resolution and description from its notes; an unchanged reread keeps them; a change is read again', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    const { boardId, startDate, endDate, closed } = await historyBoardAndRange();
    expect(closed.length).toBeGreaterThan(10);
    expect(await syncAndWait(admin, { boardIds: [boardId], startDate, endDate })).toMatchObject({ phase2: { status: 'COMPLETED' } });
    // The ticket rows carry neither (ConnectWise keeps both in notes): before the reader, the copies have none.
    await notesAllRead(msp.id);
    for (const id of closed.slice(0, 5)) {
      const expected = detailsFromNotes(await direct().listNotes(id));
      expect(expected.resolution).toBeTruthy();
      const copy = await copyOf(msp.id, id);
      expect({ id, resolution: copy?.resolution, description: copy?.description }).toEqual({ id, resolution: expected.resolution, description: expected.description });
    }

    // The same range again, nothing changed in the PSA: the rows' empty description and resolution erase nothing.
    const [first, second] = closed;
    if (first === undefined || second === undefined) throw new Error('the board has too few closed tickets');
    const before = await copyOf(msp.id, first);
    await syncAndWait(admin, { boardIds: [boardId], startDate, endDate });
    const kept = await copyOf(msp.id, first);
    expect(kept?.resolution).toBe(before?.resolution);
    expect(kept?.description).toBe(before?.description);
    expect(kept?.notesReadAt?.getTime()).toBe(before?.notesReadAt?.getTime());

    // A technician adds a resolution note in the PSA and the ticket changes: the next sync has its notes read again.
    await direct().addNote(second, { text: 'Also replaced the network cable at the desk.', kind: 'resolution' });
    await direct().updateTicket(second, { summary: 'Changed in the PSA after the first read' });
    await syncAndWait(admin, { boardIds: [boardId], startDate, endDate });
    await notesAllRead(msp.id);
    const reread = await copyOf(msp.id, second);
    expect(reread?.summary).toBe('Changed in the PSA after the first read');
    expect(reread?.resolution).toContain('Also replaced the network cable at the desk.');
  });

  it('a PSA that fails while the notes are read loses nothing: the job is retried and the copy is read once the PSA answers', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    const { boardId, startDate, endDate, closed } = await historyBoardAndRange();
    const latest = closed.at(-1);
    if (latest === undefined) throw new Error('no closed ticket');
    // One more 503 than the adapter's four attempts, on this ticket's notes: the pass ends, the queue retries the job,
    // whose first attempt meets the last 503 and whose retry is answered.
    sim.faults.failNext({ kind: 503, count: 5, path: `/v4_6_release/apis/3.0/service/tickets/${latest}/notes`, method: 'GET' });
    expect(await syncAndWait(admin, { boardIds: [boardId], startDate, endDate })).toMatchObject({ phase2: { status: 'COMPLETED' } });
    await notesAllRead(msp.id, 90_000);
    expect(sim.faults.pendingCount()).toBe(0);
    const expected = detailsFromNotes(await direct().listNotes(latest));
    expect((await copyOf(msp.id, latest))?.resolution).toBe(expected.resolution);
  });

  it('Autotask tickets carry both on the row: the reader asks the PSA nothing for them', async () => {
    const { msp } = await buildConnectedMsp(t, sim, 'autotask');
    const result = await readTicketNotes(t.deps, { mspId: msp.id }, new AbortController().signal);
    expect(result).toEqual({ read: 0, isMore: false });
  });
});

describe('the notes still to read', () => {
  it('come open tickets first (their descriptions are worked now), then the latest closed; a changed copy waits again', async () => {
    const msp = await buildMsp(t);
    const at = (day: number) => new Date(Date.UTC(2025, 5, day));
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [
      { externalId: 1, summary: 'Closed long ago', isClosed: true, closedAt: at(1), updatedAt: at(1) },
      { externalId: 2, summary: 'Open', isClosed: false, updatedAt: at(2) },
      { externalId: 3, summary: 'Closed lately', isClosed: true, closedAt: at(20), updatedAt: at(20) },
    ]);
    await upsertTicketCopies(t.deps.database.db, msp.id, 'AUTOTASK', [{ externalId: 4, summary: 'Autotask carries both', isClosed: true, closedAt: at(25) }]);
    const waiting = await findCopiesWithUnreadNotes(t.deps.database.db, msp.id, 10);
    expect(waiting.map((copy) => copy.externalId)).toEqual(['2', '3', '1']);
    for (const copy of waiting) await saveNotesOfCopy(t.deps.database.db, msp.id, copy.id, { description: null, resolution: null, readAt: at(21) });
    expect(await findCopiesWithUnreadNotes(t.deps.database.db, msp.id, 10)).toEqual([]);
    // The ticket changes in the PSA: its copy is rewritten and its notes wait to be read again.
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ externalId: 1, summary: 'Closed long ago, reopened and closed', isClosed: true, closedAt: at(22), updatedAt: at(22) }]);
    expect((await findCopiesWithUnreadNotes(t.deps.database.db, msp.id, 10)).map((copy) => copy.externalId)).toEqual(['1']);
  });
});

describe('detailsFromNotes', () => {
  const note = (id: number, kind: 'description' | 'internal' | 'resolution', text: string, createdAt: string, isInternal = kind === 'internal') => ({ id, ticketId: 1, kind, isInternal, text, createdAt, createdBy: null });
  it('takes the first description note and every resolution note in time order; internal notes are neither', () => {
    expect(
      detailsFromNotes([
        note(4, 'resolution', 'Second fix.', '2025-01-03T00:00:00Z'),
        note(2, 'description', 'Printer jams on tray 2.', '2025-01-01T00:00:00Z'),
        note(3, 'internal', 'Called the vendor.', '2025-01-02T00:00:00Z'),
        note(5, 'description', 'A later reply.', '2025-01-02T12:00:00Z'),
        note(1, 'resolution', 'First fix.', '2025-01-02T06:00:00Z'),
        note(6, 'resolution', '   ', '2025-01-04T00:00:00Z'),
      ]),
    ).toEqual({ description: 'Printer jams on tray 2.', resolution: 'First fix.\n\nSecond fix.' });
    expect(detailsFromNotes([note(1, 'internal', 'Only internal.', '2025-01-01T00:00:00Z')])).toEqual({ description: null, resolution: null });
  });

  // Regression: a resolution note also flagged internal went into the copy's resolution, which Jarvis serves to the
  // client users of the ticket's company as a past resolution.
  it('leaves out resolution and description notes the PSA marks internal', () => {
    expect(
      detailsFromNotes([
        note(1, 'description', 'Internal triage of the report.', '2025-01-01T00:00:00Z', true),
        note(2, 'description', 'Printer jams on tray 2.', '2025-01-01T01:00:00Z'),
        note(3, 'resolution', 'Swapped the fuser; the lease on this unit ends in May.', '2025-01-02T00:00:00Z', true),
        note(4, 'resolution', 'Replaced the tray 2 rollers.', '2025-01-03T00:00:00Z'),
      ]),
    ).toEqual({ description: 'Printer jams on tray 2.', resolution: 'Replaced the tray 2 rollers.' });
  });
});
