import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PsaError, type PsaClient, type TPsaMember, type TPsaResend, type TPsaType } from '../src/index';
import { clientFor, rawAutotask, rawConnectWise, startPsaSimulator, type TSimulator } from './sim-clients';

// Issue #10 "done when": 20 % injected PSA failures (429 with Retry-After, 500, timeouts, dropped connections, before
// and after the PSA took the write) across a working day of ticket creates, claims, notes, time entries, requeues and
// completions. With the client's own retries plus re-sending after a thrown error (as the outbox does), every write
// reaches the simulator exactly once: nothing duplicated, nothing lost.

const PSAS: TPsaType[] = ['connectwise', 'autotask'];
const API_PREFIX: Record<TPsaType, string> = { connectwise: '/v4_6_release/apis/3.0/', autotask: '/atservicesrest/v1.0/' };
const TECHNICIANS = 3;
const TICKETS_PER_TECHNICIAN = 5;
const FAULT_RATE = 0.2;
/** Generous: a write fails as a whole only when all of a request's own retries fail, which 20 % makes rare. */
const MAX_OUTBOX_ATTEMPTS = 40;

interface TOutboxStats {
  writes: number;
  resends: number;
}

/**
 * What the outbox does with one write: send it; on a retryable PsaError send it again, until it lands. A send after the
 * first is a resend (TPsaResend: tried first this long ago), which the creates found by their content need to know.
 */
async function throughOutbox<T>(stats: TOutboxStats, send: (resend: TPsaResend | null) => Promise<T>): Promise<T> {
  stats.writes += 1;
  const firstTriedAt = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send(attempt === 1 ? null : { firstTriedMsAgo: Date.now() - firstTriedAt });
    } catch (error) {
      const isRetryable = error instanceof PsaError && (error.kind === 'unavailable' || error.kind === 'rate_limited');
      if (!isRetryable || attempt >= MAX_OUTBOX_ATTEMPTS) throw error;
      stats.resends += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

interface TPlannedTicket {
  key: string;
  ticketId: number;
  notes: string[];
  resolution: string;
  /** [memberId, start ISO] of each time entry. */
  timeEntries: [number, string][];
  finalOwnerId: number;
}

describe.each(PSAS)('%s: a working day of writes under 20 percent injected faults', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;
  let boardId: number;
  let companyId: number;
  let technicians: TPsaMember[];

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    // A short timeout so 'timeout' faults cost little (Retry-After is 10 ms for the same reason), and only two attempts
    // per request, so that many writes throw and the outbox's resend after a thrown error is exercised, not only the
    // client's own retries.
    client = clientFor(psaType, sim, { timeoutMs: 250, retry: { maxAttempts: 2, baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 5_000 } });
    const [board] = await client.listBoards();
    if (!board) throw new Error('the demo seed has no board');
    boardId = board.id;
    for await (const company of client.streamCompanies()) {
      companyId = company.id;
      break;
    }
    technicians = (await client.listMembers()).filter((member) => member.isActive && member.identifier !== sim.autotask.username).slice(0, TECHNICIANS);
    if (technicians.length < TECHNICIANS) throw new Error('the demo seed has too few technicians');
  });
  afterAll(async () => sim.close());

  it('lands every write exactly once', { timeout: 120_000 }, async () => {
    const stats: TOutboxStats = { writes: 0, resends: 0 };
    const createsBefore = sim.stats().creates;
    sim.faults.set({ retryAfterSeconds: 0.01 });
    sim.faults.random({ rate: FAULT_RATE, pathPrefix: API_PREFIX[psaType] });
    const planned: TPlannedTicket[] = [];
    let expectedCreates = 0;
    const technicianAt = (index: number): TPsaMember => {
      const technician = technicians[index % technicians.length];
      if (!technician) throw new Error('no technician');
      return technician;
    };

    for (let index = 0; index < TECHNICIANS * TICKETS_PER_TECHNICIAN; index += 1) {
      const key = `${psaType}-day-${index}`;
      const ticket = await throughOutbox(stats, () =>
        client.createTicket({ idempotencyKey: key, summary: `Day ticket ${index}`, description: `Reported problem ${index}.`, boardId, companyId, conversation: [{ role: 'user', content: `Help with ${index}` }] }),
      );
      // A ticket and, on Autotask, its conversation note (ConnectWise takes the conversation inside the ticket create).
      expectedCreates += psaType === 'autotask' ? 2 : 1;
      let owner = technicianAt(index);
      const plan: TPlannedTicket = { key, ticketId: ticket.id, notes: [], resolution: `Technician: (${owner.id}): resolved ${index}.`, timeEntries: [], finalOwnerId: owner.id };
      const note = async (kind: 'description' | 'internal', text: string) => {
        await throughOutbox(stats, (resend) => client.addNote(ticket.id, { text, kind, memberId: owner.id, resend }));
        plan.notes.push(text);
        expectedCreates += 1;
      };
      const time = async (minutesFromEight: number, minutes: number, notes: string) => {
        const start = new Date(Date.UTC(2026, 10, 23, 8, 0, 0) + (index * 30 + minutesFromEight) * 60_000);
        const startAt = start.toISOString();
        const endAt = new Date(start.getTime() + minutes * 60_000).toISOString();
        await throughOutbox(stats, () => client.addTimeEntry({ ticketId: ticket.id, memberId: owner.id, startAt, endAt, notes }));
        plan.timeEntries.push([owner.id, startAt]);
        expectedCreates += 1;
      };

      await throughOutbox(stats, () => client.assignTicket(ticket.id, { memberId: owner.id }));
      await note('internal', `Technician: (${owner.id}): looked at ${index}.`);
      await time(0, 10, `First look at ${index}`);
      if (index % 4 === 3) {
        // Requeued with a reason, then claimed by the next technician.
        await note('internal', `Technician: (${owner.id}): requeued ${index}, needs Tier 2.`);
        await throughOutbox(stats, () => client.unassignTicket(ticket.id));
        owner = technicianAt(index + 1);
        plan.finalOwnerId = owner.id;
        await throughOutbox(stats, () => client.assignTicket(ticket.id, { memberId: owner.id }));
        plan.resolution = `Technician: (${owner.id}): resolved ${index}.`;
      }
      await note('description', `Technician: (${owner.id}): asked the user about ${index}.`);
      await time(12, 15, `Ticket completed ${index}`);
      await throughOutbox(stats, (resend) => client.closeTicket(ticket.id, { resolution: plan.resolution, memberId: owner.id, resend }));
      expectedCreates += 1;
      planned.push(plan);
    }

    const struck = sim.faults.struckCount();
    sim.faults.reset();
    // The faults were real: about a fifth of the day's requests failed, and some writes had to be sent again whole.
    expect(struck).toBeGreaterThan(50);
    expect(stats.resends).toBeGreaterThan(5);
    expect(stats.writes).toBe(planned.length * 7 + planned.filter((_, index) => index % 4 === 3).length * 3);

    // Exactly once, counted by the simulator itself: every create it stored was one the day meant.
    expect(sim.stats().creates - createsBefore).toBe(expectedCreates);

    for (const plan of planned) {
      const ticket = await client.getTicket(plan.ticketId);
      expect(ticket).toMatchObject({ isClosed: true, ownerId: plan.finalOwnerId, externalReference: plan.key });
      const notes = await client.listNotes(plan.ticketId);
      for (const text of plan.notes) expect(notes.filter((note) => note.text === text), text).toHaveLength(1);
      expect(notes.filter((note) => note.kind === 'resolution').map((note) => note.text)).toEqual([plan.resolution]);
      expect(notes.filter((note) => note.text.startsWith('Conversation'))).toHaveLength(1);
      const entries = await client.listTimeEntries(plan.ticketId);
      expect(entries.map((entry) => [entry.memberId, Date.parse(entry.startAt)])).toEqual(plan.timeEntries.map(([memberId, startAt]) => [memberId, Date.parse(startAt)]));
    }
    // One ticket per idempotency key, read without the adapter.
    for (const plan of planned) {
      const matches =
        psaType === 'connectwise'
          ? (await rawConnectWise(sim, `/service/tickets?conditions=${encodeURIComponent(`externalXRef="${plan.key}"`)}`)) as unknown[]
          : ((await rawAutotask(sim, '/Tickets/query', { filter: [{ op: 'eq', field: 'externalID', value: plan.key }] })) as { items: unknown[] }).items;
      expect(matches, plan.key).toHaveLength(1);
    }
    console.info(`${psaType}: ${stats.writes} writes, ${struck} injected faults, ${stats.resends} whole-write resends, ${expectedCreates} creates stored once each`);
  });
});
