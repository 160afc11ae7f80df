import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DISPATCH_PATHS, QUEUE_PATHS, type TCloseTicketResponse, type TQueueTicket, type TSlaAlertList } from '@switchboard/contracts';
import { psaOutbox, psaTickets, queueEvents, queueTickets } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { signedInClient } from '../../../test/factories';
import { withSimulatorApp } from '../../../test/psa-simulator';
import type { TestClient, TTestApp } from '../../../test/test-app';
import type { TMail, TMailer } from '../../lib/mailer';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';
import { createPsaEventsService } from '../psa-events/psa-events.service';
import { createQueueMaintenance } from './queue.maintenance';
import { createQueueFixture, createTickets, technician, type TQueueFixture } from './queue-fixtures.test';
import { createSlaAlertsService } from './sla-alerts.service';
import { QUEUE_WRITES } from './queue.psa-writes';

// Regression (s29): a ticket closed in the PSA and reopened there came back to the queue with the SLA due time counted
// from its creation, so it re-entered already breached, and the SLA sweep at once alerted its technician and mailed the
// dispatchers at 100 %; the alerts of its first life kept the same technician's new ones from being raised at all.
// A help desk restarts the SLA clock at the reopen: due = reopen time + the subtype's SLA hours.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let t: TTestApp;
let sim: TPsaSimulator;

// No sweep loop in this app: the test runs the sweeps it means to.
withSimulatorApp({ app: { config: { slaSweepIntervalMs: 0 } } }, (ready) => ({ t, sim } = ready));

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

function recordingMailer(): TMailer & { delivered: TMail[] } {
  const delivered: TMail[] = [];
  return {
    delivered,
    async send(mail) {
      delivered.push(mail);
    },
    health: async () => 'ok',
  };
}

/** One Tier1 ticket of a fresh MSP, how the PSA's changes reach its copy and queue row, and that row. */
async function oneTicket(prefix: string) {
  const fixture: TQueueFixture = await createQueueFixture(t, sim);
  const events = createPsaEventsService(t.deps);
  const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix });
  if (ticketId === undefined) throw new Error('no ticket');
  /** The PSA's change reaches the copy as a webhook's reread does, then the queue's upkeep runs. */
  const rereadAndUpkeep = async () => {
    await events.applyEvent({ mspId: fixture.msp.id, ticketId, isDeleted: false });
    t.advanceClock(1_000);
    await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
  };
  const queueRow = async () => {
    const [row] = await t.deps.database.db.select().from(queueTickets).where(and(eq(queueTickets.mspId, fixture.msp.id), eq(queueTickets.psaTicketId, ticketId)));
    if (!row) throw new Error('no queue row');
    return row;
  };
  return { fixture, ticketId, rereadAndUpkeep, queueRow };
}

describe('a ticket reopened in the PSA restarts its SLA at the reopen', () => {
  it('comes back with its SLA due the subtype’s hours after the reopen, is not alerted at once, and its new alerts and mails are raised as they fall due', async () => {
    const { fixture, ticketId, rereadAndUpkeep, queueRow } = await oneTicket('Reopened SLA');
    const domain = fixture.msp.customDomain;
    const ann = await technician(t, fixture, { tierLevel: 'Tier1' });
    const sweep = async () => {
      const mailer = recordingMailer();
      await createSlaAlertsService({ ...t.deps, mailer }).sweep();
      return mailer.delivered.filter((mail) => mail.mspId === fixture.msp.id).map((mail) => `${mail.to.toLowerCase()} ${mail.subject.split(':')[0] ?? ''}`).sort();
    };
    const alertsOf = async (client: TestClient) => (await client.get(`${DISPATCH_PATHS.slaAlerts}?${q({ mspCustomDomain: domain })}`)).json<TSlaAlertList>().alerts.map((alert) => alert.threshold).sort((a, b) => a - b);
    const pick = async (client: TestClient, techId: string) => {
      const picked = await client.post(`${QUEUE_PATHS.manualPick}?${q({ mspCustomDomain: domain, techId, ticketQueueEntityId: (await queueRow()).id })}`);
      expect(picked.statusCode, picked.body).toBe(200);
    };

    // First life: Ann holds it past its 8-hour SLA; she and the dispatcher are mailed at 90 and 100 %.
    await rereadAndUpkeep();
    await pick(ann.client, ann.user.id);
    t.advanceClock(9 * HOUR_MS);
    const annEmail = ann.user.email.toLowerCase();
    const adminEmail = fixture.adminUser.email.toLowerCase();
    expect(await sweep()).toEqual([`${adminEmail} SLA 100 %`, `${adminEmail} SLA 90 %`, `${annEmail} SLA 100 %`, `${annEmail} SLA 90 %`].sort());

    // Closed in the PSA, then reopened there two days later.
    await fixture.direct.closeTicket(ticketId);
    await rereadAndUpkeep();
    expect(await queueRow()).toMatchObject({ state: 'closed' });
    t.advanceClock(2 * DAY_MS);
    await fixture.direct.updateTicket(ticketId, { statusId: fixture.newStatusId });
    const reopenedFrom = t.deps.now().getTime();
    await rereadAndUpkeep();
    const [copy] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, fixture.msp.id), eq(psaTickets.externalId, String(ticketId))));
    expect(copy?.isClosed).toBe(false);

    // Back in the queue with 8 hours from the reopen, as the technician's list shows it.
    const eligible = await ann.client.get(`${QUEUE_PATHS.eligibleTickets}?${q({ mspCustomDomain: domain, techId: ann.user.id })}`);
    const listed = eligible.json<{ tickets: TQueueTicket[] }>().tickets.find((ticket) => ticket.ticketId === ticketId);
    expect(listed?.state).toBe('queued');
    const due = new Date(listed?.slaDueAt ?? 0).getTime();
    expect(due).toBeGreaterThanOrEqual(reopenedFrom + 8 * HOUR_MS);
    expect(due).toBeLessThanOrEqual(t.deps.now().getTime() + 8 * HOUR_MS);
    // The clock's start is the reopen, so the dispatch board counts "% of SLA used" from it, not from creation.
    expect(new Date(listed?.slaStartedAt ?? 0).getTime()).toBe(due - 8 * HOUR_MS);
    // The reopen is in the ticket's history.
    const history = await t.deps.database.db.select().from(queueEvents).where(and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.queueTicketId, (await queueRow()).id)));
    expect(history.map((event) => event.kind)).toContain('reopened');

    // Ann takes it again: nothing is due yet, and her list does not show the first life's alerts.
    await pick(ann.client, ann.user.id);
    expect(await sweep()).toEqual([]);
    expect(await alertsOf(ann.client)).toEqual([]);

    // Half the new SLA gone: her 50 % alert (the first life's did not block it).
    t.advanceClock(4 * HOUR_MS + 60_000);
    expect(await sweep()).toEqual([]);
    expect(await alertsOf(ann.client)).toEqual([50]);

    // Past the new SLA: she and the dispatcher are mailed again (the first life's sent mails did not stand for these).
    t.advanceClock(4 * HOUR_MS);
    expect(await sweep()).toEqual([`${adminEmail} SLA 100 %`, `${adminEmail} SLA 90 %`, `${annEmail} SLA 100 %`, `${annEmail} SLA 90 %`].sort());
    const annLater = await signedInClient(t, ann.user);
    expect(await alertsOf(annLater)).toEqual([50, 75, 90, 100]);
  });

  it('a ticket that only left the configured boards and came back keeps its SLA', async () => {
    const { fixture, ticketId, rereadAndUpkeep, queueRow } = await oneTicket('Moved and back');
    await rereadAndUpkeep();
    const dueAtFirst = (await queueRow()).slaDueAt;
    expect(dueAtFirst).not.toBeNull();
    // The sync brings the copy on another board (one the MSP has not configured), then back on the configured one.
    const [read] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, fixture.msp.id), eq(psaTickets.externalId, String(ticketId))));
    const createdAt = read?.psaCreatedAt ?? undefined;
    expect(createdAt).toBeInstanceOf(Date);
    const copyOn = (boardId: number, summary: string): TTicketCopy => ({
      ...(createdAt ? { createdAt } : {}),
      externalId: ticketId,
      summary,
      board: { id: boardId, name: 'Board' },
      type: { id: fixture.typeId, name: 'Type' },
      subtype: { id: fixture.subtypes.tier1, name: 'Tier1' },
      priority: { id: fixture.priorityId, name: 'Priority' },
      company: { id: fixture.companyId, name: 'Company' },
      isClosed: false,
    });
    const upkeep = async () => {
      t.advanceClock(1_000);
      await createQueueMaintenance(t.deps).maintain(fixture.msp.id, true);
    };
    await upsertTicketCopies(t.deps.database.db, fixture.msp.id, 'CONNECTWISE', [copyOn(fixture.boardId + 9_000, 'Moved to projects')], t.deps.now());
    await upkeep();
    expect(await queueRow()).toMatchObject({ state: 'closed' });
    t.advanceClock(DAY_MS);
    await upsertTicketCopies(t.deps.database.db, fixture.msp.id, 'CONNECTWISE', [copyOn(fixture.boardId, 'Back on the help desk')], t.deps.now());
    await upkeep();
    // Never closed in the PSA: back in the queue with the SLA it had, and no reopen in its history.
    expect(await queueRow()).toMatchObject({ state: 'queued', slaDueAt: dueAtFirst });
    const history = await t.deps.database.db.select().from(queueEvents).where(and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.queueTicketId, (await queueRow()).id)));
    expect(history.map((event) => event.kind)).not.toContain('reopened');
  });

  // Regression (review s29 #2): a close made here that the PSA refused for good, then discarded by an admin, kept the
  // row closed for good (the rule waited for the close to land), though the ticket stays open in the PSA.
  it('a ticket whose close the PSA refused for good comes back once an admin discards the close, with the SLA it had', async () => {
    const { fixture, ticketId, rereadAndUpkeep, queueRow } = await oneTicket('Close refused');
    const domain = fixture.msp.customDomain;
    const ann = await technician(t, fixture, { tierLevel: 'Tier1' });
    await rereadAndUpkeep();
    const dueAtFirst = (await queueRow()).slaDueAt;
    expect((await ann.client.post(`${QUEUE_PATHS.manualPick}?${q({ mspCustomDomain: domain, techId: ann.user.id, ticketQueueEntityId: (await queueRow()).id })}`)).statusCode).toBe(200);

    // The PSA refuses the closing status for good.
    sim.faults.failNext({ kind: 400, method: 'PATCH', path: `/v4_6_release/apis/3.0/service/tickets/${ticketId}` });
    const closed = await ann.client.post(`${QUEUE_PATHS.closeTicket}?${q({ mspCustomDomain: domain, ticketId })}`);
    sim.faults.reset();
    expect(closed.json<TCloseTicketResponse>().psa.status).toBe('failed');
    const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, fixture.msp.id), eq(psaOutbox.kind, QUEUE_WRITES.close)));
    expect(write?.status).toBe('failed');

    // Failed but not discarded: it stays closed, for the integrations screen's Send again.
    await fixture.direct.updateTicket(ticketId, { summary: 'Edited in the PSA, still open' });
    await rereadAndUpkeep();
    expect(await queueRow()).toMatchObject({ state: 'closed' });

    // Discarded: nobody will close it in the PSA, where it is open; the next change there brings it back, SLA as it was.
    expect((await fixture.admin.post(`/db/api/psa-writes/${write?.id}/discard`)).statusCode).toBe(200);
    await fixture.direct.updateTicket(ticketId, { summary: 'Edited again in the PSA' });
    await rereadAndUpkeep();
    expect(await queueRow()).toMatchObject({ state: 'queued', closedAt: null, assignedTechId: null, slaDueAt: dueAtFirst });
    const eligible = await ann.client.get(`${QUEUE_PATHS.eligibleTickets}?${q({ mspCustomDomain: domain, techId: ann.user.id })}`);
    expect(eligible.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toContain(ticketId);
    const history = await t.deps.database.db.select().from(queueEvents).where(and(eq(queueEvents.mspId, fixture.msp.id), eq(queueEvents.queueTicketId, (await queueRow()).id), eq(queueEvents.kind, 'reopened')));
    expect(history.map((event) => (event.details as { reason?: string }).reason)).toEqual(['closeDiscarded']);
  });
});
