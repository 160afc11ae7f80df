import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TQueueTicket } from '@switchboard/contracts';
import { msps } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { withSimulatorApp } from '../../../test/psa-simulator';
import type { TMail } from '../../lib/mailer';
import { createQueueFixture, createTickets, technician } from './queue-fixtures.test';
import { createSlaAlertsService } from './sla-alerts.service';

let t: TTestApp;
let sim: TPsaSimulator;

// No sweep loop in this app: the test runs the sweep it means to.
withSimulatorApp({ app: { config: { slaSweepIntervalMs: 0 } } }, (ready) => ({ t, sim } = ready));

// Review finding: the SLA alert mails never named the MSP, so someone with accounts at two MSPs could not tell whose
// ticket it was. The subject stays as it was ("SLA 90 %: ticket #…"); the first line names the MSP.
describe('SLA alert mails name the MSP', () => {
  it('says in the first line of each mail which MSP the ticket is at', async () => {
    const fixture = await createQueueFixture(t, sim);
    await t.deps.database.db.update(msps).set({ name: 'Northwind IT' }).where(eq(msps.id, fixture.msp.id));
    const [ticketId] = await createTickets(t, fixture, 1, { tier: 'Tier1', prefix: 'Named', createdAt: new Date(t.deps.now().getTime() - 9 * 3_600_000) });
    const { user: tech, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
    const params = new URLSearchParams({ mspCustomDomain: fixture.msp.customDomain, techId: tech.id, psaMemberId: '', limit: '5' });
    const claimed = await client.get(`/db/api/ticketQueue/nextTickets?${params.toString()}`);
    expect(claimed.json<{ tickets: TQueueTicket[] }>().tickets.map((ticket) => ticket.ticketId)).toEqual([ticketId]);

    const delivered: TMail[] = [];
    await createSlaAlertsService({ ...t.deps, mailer: { send: async (mail) => void delivered.push(mail), health: async () => 'ok' } }).sweep();
    const ours = delivered.filter((mail) => mail.mspId === fixture.msp.id);
    expect(ours.map((mail) => mail.subject).sort()).toEqual([`SLA 100 %: ticket #${ticketId} Named 1`, `SLA 100 %: ticket #${ticketId} Named 1`, `SLA 90 %: ticket #${ticketId} Named 1`, `SLA 90 %: ticket #${ticketId} Named 1`]);
    for (const mail of ours) expect(mail.text.split('\n')[0]).toMatch(new RegExp(`^Ticket #${ticketId} "Named 1" at Northwind IT \\(with Test User\\) has (passed its SLA|used 90 % of its SLA)\\.`));
  });
});
