import { describe, expect, it } from 'vitest';
import type { TQueueNoteItems, TQueueTicket } from '@switchboard/contracts';
import { createPsaClient, type PsaClient } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { withSimulatorApp } from '../../../test/psa-simulator';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { PSA_WRITE_LEASE_MS, runPsaOutboxPass } from '../psa-outbox/psa-outbox';
import { createQueueFixture, createTickets, technician, type TQueueFixture } from './queue-fixtures.test';
import { enqueueQueueWrite, QUEUE_WRITES } from './queue.psa-writes';

// Regression (review 2026-11-29, finding 2): notes are found again by their words, and that lookup ran before every
// send, so a note with the same words as an earlier one never reached the PSA. It now runs only when the note's own
// outcome is unknown: a POST that timed out after the PSA stored it, or a send whose sender died. Then it finds that
// note, never the earlier one, and the PSA holds each note once.

/** The PSA client waits this long for an answer: short, so a held answer is a timeout in a test's time. */
const CLIENT_TIMEOUT_MS = 400;

let t: TTestApp;
let sim: TPsaSimulator;
let fixture: TQueueFixture;

/** The app's PSA clients, with the short timeout (the production provider's is 20 s); this file's MSP only. */
function shortTimeoutClients(simulator: TPsaSimulator): TPsaClientProvider {
  const { companyId, publicKey, privateKey, clientId, siteUrl } = simulator.connectWise;
  const client: PsaClient = createPsaClient({ psaType: 'connectwise', siteUrl, companyId, publicKey, privateKey, clientId }, { tenantKey: 'notes-resend', timeoutMs: CLIENT_TIMEOUT_MS });
  return { forMsp: () => Promise.resolve(client), fromIntegration: () => client, invalidate: () => undefined };
}

withSimulatorApp({ app: (simulator) => ({ psaClients: shortTimeoutClients(simulator) }) }, async (ready) => {
  ({ t, sim } = ready);
  fixture = await createQueueFixture(t, sim);
  await createTickets(t, fixture, 3, { tier: 'Tier1' });
});

const domain = () => fixture.msp.customDomain;
/** R-315's label, the server's own: these technicians have no PSA member, so their Switchboard id names them. */
const labelOf = (user: { id: string }) => `Technician: (${user.id}): `;
const notesPath = (ticketId: number) => `/v4_6_release/apis/3.0/service/tickets/${ticketId}/notes`;

async function claimNew() {
  const { user, client } = await technician(t, fixture, { tierLevel: 'Tier1' });
  const response = await client.get(`/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain()}&techId=${user.id}&limit=1`);
  const [ticket] = response.json<{ tickets: TQueueTicket[] }>().tickets ?? [];
  if (!ticket) throw new Error(`no ticket: ${response.statusCode} ${response.body}`);
  return { user, client, ticket };
}

describe('a note of unknown outcome', () => {
  it('whose POST timed out after the PSA stored it is found, not sent twice, and the earlier identical note stays another note', async () => {
    const { client, user, ticket } = await claimNew();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    expect((await client.post(url, { info: '', text: 'Any update?' })).json<TQueueNoteItems>().items[0]?.psa.status).toBe('done');
    // The PSA stores the second note, then holds its answer past the client's timeout.
    sim.faults.failNext({ kind: 'timeout', phase: 'after', method: 'POST', path: notesPath(ticket.ticketId) });
    const second = await client.post(url, { info: '', text: 'Any update?' });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(second.json<TQueueNoteItems>().items[0]?.psa.status).toBe('done');
    const inPsa = (await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === `${labelOf(user)}Any update?`);
    expect(inPsa).toHaveLength(2);
    const read = (await client.get(`/db/api/ticketQueue/notes?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`)).json<TQueueNoteItems>().items;
    expect(read.map((note) => note.psaNoteId).sort()).toEqual(inPsa.map((note) => note.id).sort());
  });

  it('whose sender died after the PSA stored it is found by the retry loop, not sent twice', async () => {
    const { client, user, ticket } = await claimNew();
    const url = `/psa/addNoteToTicket?mspCustomDomain=${domain()}&ticketId=${ticket.ticketId}`;
    expect((await client.post(url, { info: '', text: 'Printer restarted' })).json<TQueueNoteItems>().items[0]?.psa.status).toBe('done');
    // A second "Printer restarted": stored, claimed, its POST landed in the PSA, then the process died: nothing recorded,
    // the lease left to run out.
    const ticketRowId = ticket.id;
    const noteId = crypto.randomUUID();
    const writeId = await t.deps.database.db.transaction((tx) =>
      enqueueQueueWrite(
        tx,
        {
          mspId: fixture.msp.id,
          kind: QUEUE_WRITES.note,
          ticketRowId,
          idempotencyKey: `note:${noteId}`,
          payload: { noteId, ticketId: ticket.ticketId, text: `${labelOf(user)}Printer restarted`, kind: 'description', noteType: null, memberId: null },
          createdBy: user.id,
        },
        t.deps.now(),
      ),
    );
    const landed = await fixture.direct.addNote(ticket.ticketId, { text: `${labelOf(user)}Printer restarted`, kind: 'description' });
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    await runPsaOutboxPass(t.deps);
    const inPsa = (await fixture.direct.listNotes(ticket.ticketId)).filter((note) => note.text === `${labelOf(user)}Printer restarted`);
    expect(inPsa).toHaveLength(2);
    const write = (await fixture.admin.get(`/db/api/psa-writes`)).json<{ writes: { id: string }[] }>().writes.find((each) => each.id === writeId);
    expect(write).toBeUndefined(); // done: no longer waiting
    expect(inPsa.map((note) => note.id)).toContain(landed.id);
  });
});
