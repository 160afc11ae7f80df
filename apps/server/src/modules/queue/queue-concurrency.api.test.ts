import { describe, expect, it } from 'vitest';
import type { TQueueTicket } from '@switchboard/contracts';
import type { TTestApp } from '../../../test/test-app';
import { withQueueFixture, createTicketCopies, technician, type TQueueFixture } from './queue-fixtures.test';

// 50 technicians press "next" at the same moment over one shared queue (issue #10, done-when). Only
// PostgreSQL has concurrent transactions (PGlite runs one at a time), so this runs with TEST_DATABASE_URL.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let t: TTestApp;
let fixture: TQueueFixture;

withQueueFixture({ enabled: onPostgres }, (ready) => ({ t, fixture } = ready));

describe.skipIf(!onPostgres)('nextTickets under concurrency (PostgreSQL)', () => {
  it('50 technicians at once: no ticket is claimed twice, none is skipped, everyone gets a full batch', async () => {
    const TECHNICIANS = 50;
    const QUEUE = 300;
    const ids = await createTicketCopies(t, fixture, QUEUE, 7_000_000);
    // Technicians without a PSA member: the claims make no PSA writes, so only the database is tested.
    const people = await Promise.all(Array.from({ length: TECHNICIANS }, (_, index) => technician(t, fixture, { tierLevel: 'Tier1', ip: `10.0.${Math.floor(index / 200)}.${(index % 200) + 1}` })));
    // Bring the queue up to date first, so every call below claims from the same full queue.
    const warm = await people[0]?.client.get(`/db/api/ticketQueue/eligibleTickets?mspCustomDomain=${fixture.msp.customDomain}&techId=${people[0].user.id}`);
    expect(warm?.statusCode).toBe(200);
    const responses = await Promise.all(
      people.map(({ user, client }) => client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${fixture.msp.customDomain}&techId=${user.id}&limit=5`)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array.from({ length: TECHNICIANS }, () => 200));
    const batches = responses.map((response) => response.json<{ tickets: TQueueTicket[] }>().tickets);
    expect(batches.map((batch) => batch.length)).toEqual(Array.from({ length: TECHNICIANS }, () => 5));
    const claimed = batches.flat().map((ticket) => ticket.ticketId);
    expect(new Set(claimed).size).toBe(claimed.length);
    // None skipped: with equal tiers and scores falling with age, the claimed ones are exactly the 250 oldest.
    expect([...claimed].sort((a, b) => a - b)).toEqual(ids.slice(0, TECHNICIANS * 5));
    // And each ticket is held by the technician who received it.
    const all = await fixture.admin.get(`/db/api/ticketQueue/getAll?mspCustomDomain=${fixture.msp.customDomain}&show=all&sort=score&page=1`);
    expect(all.json<{ total: number }>().total).toBe(QUEUE);
    for (const [index, batch] of batches.entries()) for (const ticket of batch) expect(ticket.assignedTechId).toBe(people[index]?.user.id);
  });
});
