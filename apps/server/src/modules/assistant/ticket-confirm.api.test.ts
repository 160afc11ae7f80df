import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { MESSAGES, TICKET_DRAFT_ENDED_FLAG, type TCreateTicketResponse, type TMergedCategorization, type TSupportTicketPage, type TTicketDraft } from '@switchboard/contracts';
import { boardSubtypes, psaContacts, psaOutbox, ticketDrafts, ticketRequests, users } from '@switchboard/db';
import type { PsaClient } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { copyDemoHistory, copyFirstCompanyAndContact } from '../../../test/jarvis-fixtures';
import { isPostgresRun, waitForLockWaiter } from '../../../test/lock-waits';
import { nextIp } from '../auth/auth-test-helpers';

/** Regressions of the ticket confirmation and the handover ("Talk to a technician"): one draft is one ticket, whatever is clicked. */
let t: TTestApp;
let sim: TPsaSimulator;
let direct: PsaClient;
let msp: TTestMsp;
let admin: TestClient;
let board: TMergedCategorization;
let helpDesk: { id: number; name: string };
let company: { id: number; name: string };
let contact: { id: number; firstName: string; lastName: string; email: string };

const q = (extra: Record<string, string> = {}) => new URLSearchParams({ mspCustomDomain: msp.customDomain, ...extra }).toString();

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

beforeAll(async () => {
  ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() }));
  direct = simulatorPsaClient(sim, 'connectwise', 'direct-ticket-confirm');
  const found = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
  if (!found) throw new Error('no Help Desk board');
  helpDesk = { id: found.id, name: found.name };
  board = (await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?${q({ boardId: String(helpDesk.id) })}`)).json<TMergedCategorization>();
  const { psaType: _p, isConfigured: _i, statuses: _s, canCreate: _c, ...detail } = board;
  const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } });
  expect(saved.statusCode, saved.body).toBe(200);
  ({ company, contact } = await copyFirstCompanyAndContact(t, msp.id, direct));
  await copyDemoHistory(t, msp.id, helpDesk, { withCompany: true });
}, 120_000);

afterAll(() => sim.faults.reset());

/** A client user of the copied company and contact, signed in; `profile` changes what the PSA contact gave them. */
async function clientUser(profile: { phone?: string; email?: string } = {}): Promise<{ client: TestClient; userId: string }> {
  const user = await buildUser(t, msp, { kind: 'client', psaCompanyId: String(company.id), firstName: contact.firstName, lastName: contact.lastName, ...(profile.email ? { email: profile.email } : {}) });
  await t.deps.database.db
    .update(users)
    .set({ psaContactId: String(contact.id), ...(profile.phone === undefined ? {} : { phone: profile.phone }) })
    .where(and(eq(users.mspId, msp.id), eq(users.id, user.id)));
  return { client: await signedInClient(t, user, nextIp()), userId: user.id };
}

async function describeProblem(who: TestClient, userMessage: string): Promise<TTicketDraft> {
  const response = await who.post('/psa/getTicketCategorizationDiagnosticQandA', { userMessage, mspCustomDomain: msp.customDomain });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ ticketDraft: TTicketDraft }>().ticketDraft;
}

/** The category the form sends: the proposal, or the board's first subcategory. */
function detailsOf(draft: TTicketDraft) {
  if (draft.categorisation.connectWiseDetails) return draft.categorisation.connectWiseDetails;
  const [type] = board.mspConnectWiseBoardTypes;
  const [subType] = type?.mspConnectWiseBoardSubTypes ?? [];
  if (!type || !subType) throw new Error('board without types');
  return { boardId: board.boardId, typeId: type.typeId, subTypeId: subType.subTypeId };
}

/** The confirmation the form sends for a draft. */
function confirmation(draft: TTicketDraft, title: string) {
  return { psaType: 'CONNECTWISE', ticketDraftId: draft.id, title, description: draft.description, name: draft.name, emailId: draft.emailId, phone: '', impact: 'Medium', severity: 'Medium', connectWiseDetails: detailsOf(draft) };
}

/** The tickets in the PSA whose summary holds `marker`. */
async function psaTicketsWith(marker: string) {
  const found = [];
  for await (const ticket of direct.streamTickets({ createdFrom: new Date(Date.now() - 10 * 60_000) })) if (ticket.summary.includes(marker)) found.push(ticket);
  return found;
}

const draftStage = async (draftId: string) => (await t.deps.database.db.select({ stage: ticketDrafts.stage }).from(ticketDrafts).where(and(eq(ticketDrafts.mspId, msp.id), eq(ticketDrafts.id, draftId))))[0]?.stage;

describe('one confirmed draft is one ticket (a double-click, Confirm beside "Talk to a technician" or Cancel)', () => {
  it('two Confirms of one draft at once make one ticket in the PSA, and both answer with it', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'Outlook keeps asking for my password since the update doubleclick1');
    const body = confirmation(draft, 'Outlook asks for the password doubleclick1');
    const [first, second] = await Promise.all([client.post(`/psa/createTicket?${q()}`, body), client.post(`/psa/createTicket?${q()}`, body)]);
    // The click that finds the draft taken answers with the same request: created, or still pending while the other sends it.
    for (const response of [first, second]) expect([201, 202], response.body).toContain(response.statusCode);
    const [one, two] = [first.json<TCreateTicketResponse>(), second.json<TCreateTicketResponse>()];
    expect(two.requestId).toBe(one.requestId);
    expect([one.psaWriteState, two.psaWriteState]).toContain('done');
    // Sent again once it is in: the same ticket, not a refusal.
    const again = await client.post(`/psa/createTicket?${q()}`, body);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<TCreateTicketResponse>()).toMatchObject({ requestId: one.requestId, ticketId: (one.ticketId ?? two.ticketId), psaWriteState: 'done' });
    expect(await psaTicketsWith('doubleclick1')).toHaveLength(1);
    const kept = await t.deps.database.db.select().from(ticketRequests).where(and(eq(ticketRequests.mspId, msp.id), sql`${ticketRequests.draft}->>'ticketDraftId' = ${draft.id}`));
    expect(kept).toHaveLength(1);
  });

  it('Confirm and "Talk to a technician" at once make one ticket; the other click is told the ticket was already created', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The VPN drops every few minutes confirmtalk2');
    const [confirmed, talked] = await Promise.all([
      client.post(`/psa/createTicket?${q()}`, confirmation(draft, 'VPN drops confirmtalk2')),
      client.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: draft.id })}`, {}),
    ]);
    expect([confirmed.statusCode, talked.statusCode].sort(), `${confirmed.body}\n${talked.body}`).toEqual([201, 409]);
    expect([confirmed, talked].find((response) => response.statusCode === 409)?.json()).toMatchObject({ detail: MESSAGES.assistant.ticketDraftClosed, flags: { [TICKET_DRAFT_ENDED_FLAG]: true } });
    expect(await psaTicketsWith('confirmtalk2')).toHaveLength(1);
  });

  it('Confirm and Cancel at once never answer "Ticket Creation Cancelled." beside a created ticket', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The printer shows offline confirmcancel3');
    const [confirmed, cancelled] = await Promise.all([client.post(`/psa/createTicket?${q()}`, confirmation(draft, 'Printer offline confirmcancel3')), client.post(`/psa/ticketDraft/cancel?${q({ ticketDraftId: draft.id })}`)]);
    const tickets = await psaTicketsWith('confirmcancel3');
    if (cancelled.statusCode === 200) {
      expect(confirmed.statusCode).toBe(409);
      expect(tickets).toHaveLength(0);
      expect(await draftStage(draft.id)).toBe('cancelled');
    } else {
      expect(cancelled.json()).toMatchObject({ status: 409, detail: MESSAGES.assistant.ticketDraftClosed });
      expect(confirmed.statusCode).toBe(201);
      expect(tickets).toHaveLength(1);
    }
  });

  it.skipIf(!isPostgresRun)('PostgreSQL: a Cancel that comes while the Confirm is being kept waits for it and is refused, so the created ticket is never called cancelled', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The scanner cannot reach the share heldcancel4');
    let confirming: Promise<Awaited<ReturnType<TestClient['post']>>> | undefined;
    let cancelling: Promise<Awaited<ReturnType<TestClient['post']>>> | undefined;
    await t.deps.database.db.transaction(async (tx) => {
      // Another writer holds the ticket requests for a moment: the Confirm stops at keeping its request.
      await tx.execute(sql`lock table ticket_requests in share mode`);
      confirming = client.post(`/psa/createTicket?${q()}`, confirmation(draft, 'Scanner heldcancel4'));
      await waitForLockWaiter(t);
      cancelling = client.post(`/psa/ticketDraft/cancel?${q({ ticketDraftId: draft.id })}`);
      // The Cancel either ends (it did not wait for the Confirm) or comes to wait on the draft the Confirm holds.
      const cancelEnded = cancelling.then(() => 'ended');
      for (let tries = 0; tries < 300; tries += 1) {
        const waiting: unknown = await t.deps.database.db.execute(sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (((waiting as { rows: Array<{ count: number }> }).rows[0]?.count ?? 0) >= 2) break;
        if ((await Promise.race([cancelEnded, new Promise((resolve) => setTimeout(() => resolve('waiting'), 10))])) === 'ended') break;
      }
    });
    const [confirmed, cancelled] = await Promise.all([confirming, cancelling]);
    expect(confirmed?.statusCode, confirmed?.body).toBe(201);
    expect(cancelled?.json()).toMatchObject({ status: 409, detail: MESSAGES.assistant.ticketDraftClosed });
    expect(await psaTicketsWith('heldcancel4')).toHaveLength(1);
    expect(await draftStage(draft.id)).toBe('created');
  });
});

describe('"Talk to a technician" is never refused over what the person cannot edit', () => {
  it('hands over a client whose PSA contact gave a phone the form refuses ("+1 555 123 4567")', async () => {
    const { client } = await clientUser({ phone: '+1 555 123 4567' });
    const draft = await describeProblem(client, 'My laptop will not start intlphone5');
    const talk = await client.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: draft.id })}`, {});
    expect(talk.statusCode, talk.body).toBe(201);
    expect(await psaTicketsWith('intlphone5')).toHaveLength(1);
  });

  it('hands over a client whose e-mail the form calls invalid, and a technician\'s contact without an e-mail', async () => {
    const { client } = await clientUser({ email: `ann+it-${Date.now()}@example.com` });
    const draft = await describeProblem(client, 'Teams crashes when I share my screen plusmail6');
    const talk = await client.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: draft.id })}`, {});
    expect(talk.statusCode, talk.body).toBe(201);

    // The technician hands over for the copied contact, whose PSA record has no e-mail.
    const byContact = and(eq(psaContacts.mspId, msp.id), eq(psaContacts.externalId, String(contact.id)));
    await t.deps.database.db.update(psaContacts).set({ email: null }).where(byContact);
    try {
      const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
      const asked = await describeProblem(technician, 'The shared drive is read only nomail6');
      const handedOver = await technician.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: asked.id })}`, { psaCompanyId: String(company.id), psaContactId: String(contact.id) });
      expect(handedOver.statusCode, handedOver.body).toBe(201);
      expect(await direct.getTicket(handedOver.json<TCreateTicketResponse>().ticketId ?? 0)).toMatchObject({ companyId: company.id, contactId: contact.id });
    } finally {
      await t.deps.database.db.update(psaContacts).set({ email: contact.email }).where(byContact);
    }
  });

  it('falls back to the first configured board when the stored proposal no longer fits the board', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'Something odd with my computer boardgone7');
    const stale = { boardId: String(board.boardId), typeId: '999998', subtypeId: '999999', typeName: 'Gone', subtypeName: 'Gone too', confidence: 0.9 };
    await t.deps.database.db
      .update(ticketDrafts)
      .set({ proposal: sql`jsonb_set(${ticketDrafts.proposal}, '{engineProposal}', ${JSON.stringify({ kind: 'abstain', confidence: 0.2, candidates: [stale] })}::jsonb)` })
      .where(and(eq(ticketDrafts.mspId, msp.id), eq(ticketDrafts.id, draft.id)));
    const talk = await client.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: draft.id })}`, {});
    expect(talk.statusCode, talk.body).toBe(201);
    const result = talk.json<TCreateTicketResponse>();
    expect(result.summary).toBe(`Your ticket ${result.ticketNumber ?? result.ticketId} was created on ${board.boardName}.`);
    if (result.ticketId === null) throw new Error('no ticket id');
    expect(await direct.getTicket(result.ticketId)).toMatchObject({ boardId: board.boardId, typeId: null });
  });
});

describe('text cut or sent with half an emoji (a 500 and a lost ticket)', () => {
  it('creates the ticket from a title of 99 letters and an emoji, the summary cut before the emoji', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The monitor flickers all day emojicut8');
    const title = `emojicut8 ${'a'.repeat(89)}😀`;
    const created = await client.post(`/psa/createTicket?${q()}`, confirmation(draft, title));
    expect(created.statusCode, created.body).toBe(201);
    const [ticket] = await psaTicketsWith('emojicut8');
    expect(ticket?.summary).toBe(title.slice(0, 99));
  });

  it('hands over a first line whose emoji falls on the cut', async () => {
    const { client } = await clientUser();
    // "Talk to a technician: " is 22 units: the emoji sits on units 99 and 100.
    const draft = await describeProblem(client, `emojitalk9 ${'b'.repeat(66)}😀 the keyboard types twice`);
    const talk = await client.post(`/psa/ticketDraft/talkToTechnician?${q({ ticketDraftId: draft.id })}`, {});
    expect(talk.statusCode, talk.body).toBe(201);
    const [ticket] = await psaTicketsWith('emojitalk9');
    expect(ticket?.summary).toBe(`Talk to a technician: emojitalk9 ${'b'.repeat(66)}`);
  });

  it('keeps a title holding a lone surrogate, repaired', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The mouse freezes lonesurrogate10');
    const created = await client.post(`/psa/createTicket?${q()}`, confirmation(draft, 'Mouse freezes \ud83d lonesurrogate10'));
    expect(created.statusCode, created.body).toBe(201);
    const [ticket] = await psaTicketsWith('lonesurrogate10');
    expect(ticket?.summary).toBe('Mouse freezes \ufffd lonesurrogate10');
  });
});

describe('step feedback and the lists', () => {
  it('two quick "did not help" count two and offer a technician', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The VPN disconnects every few minutes when I work from home');
    const second = (
      await client.post('/psa/getTicketCategorizationDiagnosticQandA', { userMessage: 'It started after the Windows update', mspCustomDomain: msp.customDomain, ticketDraftId: draft.id, answers: [] })
    ).json<{ ticketDraft: TTicketDraft }>().ticketDraft;
    const [stepOne, stepTwo] = second.steps;
    if (!stepOne || !stepTwo) throw new Error('expected two steps');
    const answers = await Promise.all([
      client.post(`/psa/ticketDraft/stepFeedback?${q({ ticketDraftId: draft.id })}`, { stepId: stepOne.id, helped: false }),
      client.post(`/psa/ticketDraft/stepFeedback?${q({ ticketDraftId: draft.id })}`, { stepId: stepTwo.id, helped: false }),
    ]);
    const counts = answers.map((answer) => answer.json<{ didNotHelpCount: number; offerTechnician: boolean }>());
    expect(counts.map((count) => count.didNotHelpCount).sort()).toEqual([1, 2]);
    expect(counts.filter((count) => count.offerTechnician)).toHaveLength(1);
  });

  it('shows a ticket an admin sent again as pending in the PSA, no longer as refused', async () => {
    // A client linked to a company the PSA does not have: the PSA refuses the ticket.
    const user = await buildUser(t, msp, { kind: 'client', psaCompanyId: '987654' });
    const client = await signedInClient(t, user, nextIp());
    const userId = user.id;
    const draft = await describeProblem(client, 'The label printer prints blank labels resend11');
    const created = await client.post(`/psa/createTicket?${q()}`, confirmation(draft, 'Blank labels resend11'));
    expect(created.json<TCreateTicketResponse>(), created.body).toMatchObject({ psaWriteState: 'failed' });
    const shown = async () => (await client.get(`/db/supportTickets/byClientsUserId?clientsUserId=${userId}`)).json<TSupportTicketPage>().tickets.find((ticket) => ticket.title === 'Blank labels resend11');
    expect(await shown()).toMatchObject({ psaWriteState: 'failed', status: 'refused by the PSA' });

    // An admin sends it again (the cause fixed); the PSA is busy just now, so it waits for the retry loop.
    const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.targetId, created.json<TCreateTicketResponse>().requestId)));
    if (!write) throw new Error('no PSA write for the draft');
    sim.faults.failNext({ kind: 503, count: 50, method: 'POST', path: '/v4_6_release/apis/3.0/service/tickets' });
    const resent = await admin.post(`/db/api/psa-writes/${write.id}/retry`, {});
    sim.faults.reset();
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await shown()).toMatchObject({ psaWriteState: 'pending', status: 'pending in the PSA' });
  });
});

describe('a draft ended elsewhere is flagged, so the chat can end its flow (every later answer got a bare 409 and the chat stayed stuck)', () => {
  it('a second Cancel answers 409 with the flag, and a draft that is not the caller\'s 404 with the flag', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The headset crackles endedflag13');
    expect((await client.post(`/psa/ticketDraft/cancel?${q({ ticketDraftId: draft.id })}`)).statusCode).toBe(200);
    for (const again of [
      await client.post(`/psa/ticketDraft/cancel?${q({ ticketDraftId: draft.id })}`),
      await client.post('/psa/getTicketCategorizationDiagnosticQandA', { userMessage: 'Still crackles', mspCustomDomain: msp.customDomain, ticketDraftId: draft.id, answers: [] }),
    ]) {
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.assistant.ticketDraftClosed, flags: { [TICKET_DRAFT_ENDED_FLAG]: true } });
    }
    const { client: other } = await clientUser();
    const gone = await other.post(`/psa/ticketDraft/cancel?${q({ ticketDraftId: draft.id })}`);
    expect(gone.statusCode, gone.body).toBe(404);
    expect(gone.json()).toMatchObject({ detail: MESSAGES.assistant.ticketDraftNotFound, flags: { [TICKET_DRAFT_ENDED_FLAG]: true } });
  });
});

/** The reporter the PSA write carries for a kept request. */
async function reporterSent(requestId: string) {
  const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.targetId, requestId)));
  const input = (write?.payload as { input?: { reporterName: string | null; reporterEmail: string | null; reporterPhone: string | null } } | undefined)?.input;
  if (!input) throw new Error('no PSA write for the request');
  return { name: input.reporterName, email: input.reporterEmail, phone: input.reporterPhone };
}

describe('what a client may set on their own ticket (R-265, R-266, R-271)', () => {
  it('a client\'s priority, duration and item are not taken: the PSA ticket has the subcategory\'s priority and is due after its SLA (they set the highest priority and due now)', async () => {
    const { client } = await clientUser();
    const draft = await describeProblem(client, 'The docking station does not charge my laptop clientprio14');
    // The board's first subcategory configured with its lowest priority and a 6-hour SLA; the client asks for the highest.
    const [type] = board.mspConnectWiseBoardTypes;
    const [subType] = type?.mspConnectWiseBoardSubTypes ?? [];
    const byId = [...board.priorities].sort((a, b) => a.priorityId - b.priorityId);
    const [lowest, highest] = [byId[0], byId.at(-1)];
    if (!type || !subType || !lowest || !highest || lowest === highest) throw new Error('the board needs a subcategory and two priorities');
    await t.deps.database.db
      .update(boardSubtypes)
      .set({ priorityId: lowest.priorityId, priorityName: lowest.priority, slaHours: 6 })
      .where(and(eq(boardSubtypes.mspId, msp.id), eq(boardSubtypes.typeId, type.typeId), eq(boardSubtypes.subtypeId, subType.subTypeId)));
    const body = confirmation(draft, 'Dock does not charge clientprio14');
    const chosen = { boardId: board.boardId, typeId: type.typeId, subTypeId: subType.subTypeId, priorityId: highest.priorityId, itemId: 424242 };
    const created = await client.post(`/psa/createTicket?${q()}`, { ...body, durationHours: 0, connectWiseDetails: chosen });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = await direct.getTicket(created.json<TCreateTicketResponse>().ticketId ?? 0);
    expect(ticket).toMatchObject({ priorityId: lowest.priorityId, itemId: null });
    const dueIn = Date.parse(ticket.dueAt ?? '') - t.deps.now().getTime();
    expect(Math.abs(dueIn - 6 * 3_600_000)).toBeLessThan(5 * 60_000);
  });

  it('a client files as themselves: the reporter is their own name and e-mail; another e-mail, company or contact is refused (a client could file with someone else\'s address)', async () => {
    const email = `pat.own-${Date.now()}@contoso.example`;
    const { client } = await clientUser({ email });
    const draft = await describeProblem(client, 'My second monitor stays black reporter15');
    const body = confirmation(draft, 'Monitor black reporter15');

    const otherEmail = await client.post(`/psa/createTicket?${q()}`, { ...body, emailId: 'ceo@contoso.example' });
    expect(otherEmail.statusCode, otherEmail.body).toBe(400);
    expect(otherEmail.json()).toMatchObject({ detail: MESSAGES.assistant.reporterEmailNotOwn, invalidParams: [{ name: 'emailId', reason: MESSAGES.assistant.reporterEmailNotOwn }] });
    for (const foreign of [{ psaCompanyId: '987654' }, { psaContactId: '987654' }]) {
      const refused = await client.post(`/psa/createTicket?${q()}`, { ...body, ...foreign });
      expect(refused.statusCode, refused.body).toBe(404);
    }
    expect(await draftStage(draft.id)).toBe('questions');

    const created = await client.post(`/psa/createTicket?${q()}`, { ...body, emailId: email.toUpperCase(), name: 'Somebody Else', phone: '3035550142' });
    expect(created.statusCode, created.body).toBe(201);
    // The phone is the number to call back on, which the form lets them correct.
    expect(await reporterSent(created.json<TCreateTicketResponse>().requestId)).toEqual({ name: `${contact.firstName} ${contact.lastName}`, email, phone: '3035550142' });
  });

  it('a technician\'s item must be one of the board\'s items (it was sent to the PSA unchecked)', async () => {
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    const draft = await describeProblem(technician, 'The scanner jams on every page techitem16');
    const body = confirmation(draft, 'Scanner jams techitem16');
    const refused = await technician.post(`/psa/createTicket?${q()}`, { ...body, name: 'Pat Tech', emailId: 'pat.tech@contoso.example', techId: undefined, psaCompanyId: String(company.id), psaContactId: String(contact.id), connectWiseDetails: { ...body.connectWiseDetails, itemId: 987654 } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.assistant.itemUnknown, invalidParams: [{ name: 'itemId', reason: MESSAGES.assistant.itemUnknown }] });
    expect(await draftStage(draft.id)).toBe('questions');
  });
});
