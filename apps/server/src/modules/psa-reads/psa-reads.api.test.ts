import { beforeAll, describe, expect, it } from 'vitest';
import type { PsaClient, TPsaType } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

/** The same PSA, read directly: what every route must return. */
const directClient = (psaType: TPsaType): PsaClient => simulatorPsaClient(sim, psaType, psaType === 'connectwise' ? 'direct-cw' : 'direct-at');
const connectedMsp = (psaType: TPsaType) => buildConnectedMsp(t, sim, psaType);

/** A note flagged both resolution and internal, written straight to the simulator (the adapter writes one kind per note). */
async function addInternalResolutionNote(psaType: TPsaType, ticketId: number, text: string): Promise<void> {
  const response =
    psaType === 'connectwise'
      ? await fetch(`${sim.url}/v4_6_release/apis/3.0/service/tickets/${ticketId}/notes`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`${sim.connectWise.companyId}+${sim.connectWise.publicKey}:${sim.connectWise.privateKey}`).toString('base64')}`,
            clientId: sim.connectWise.clientId,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ text, resolutionFlag: true, internalAnalysisFlag: true }),
        })
      : // noteType 3 is Resolution and publish 2 "Internal Project Team" in the simulator's picklists.
        await fetch(`${sim.url}/ATServicesRest/V1.0/Tickets/${ticketId}/Notes`, {
          method: 'POST',
          headers: { UserName: sim.autotask.username, Secret: sim.autotask.secret, ApiIntegrationCode: sim.autotask.integrationCode, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: 'Resolution', description: text, noteType: 3, publish: 2 }),
        });
  if (!response.ok) throw new Error(`the simulator refused the note: ${response.status} ${await response.text()}`);
}

describe.each(['connectwise', 'autotask'] as const)('PSA reads on %s', (psaType) => {
  let msp: TTestMsp;
  let admin: TestClient;
  let direct: PsaClient;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp(psaType));
    direct = directClient(psaType);
  });

  const read = async (path: string, client: TestClient = admin) => {
    const response = await client.get(`${path}${path.includes('?') ? '&' : '?'}mspCustomDomain=${msp.customDomain}`);
    return { status: response.statusCode, body: response.json<unknown>() };
  };

  it('returns the PSA reference data', async () => {
    const boards = await direct.listBoards();
    expect(await read('/psa/getConnectWiseBoards')).toEqual({ status: 200, body: boards });
    expect(await read('/psa/psa/getMembers')).toEqual({ status: 200, body: await direct.listMembers() });
    expect(await read('/psa/getCompanyTypes')).toEqual({ status: 200, body: await direct.listCompanyTypes() });
    expect(await read('/psa/getConnectWisePriorities')).toEqual({ status: 200, body: await direct.listPriorities() });
    expect(await read('/psa/getConnectWiseDepartments')).toEqual({ status: 200, body: await direct.listDepartments() });
    expect(await read('/psa/getConnectWiseLocations')).toEqual({ status: 200, body: await direct.listLocations() });
    const boardId = boards[0]?.id ?? 0;
    const statuses = await read(`/psa/getConnectWiseStatuses?boardId=${boardId}`);
    expect(statuses).toEqual({ status: 200, body: await direct.listStatuses(psaType === 'connectwise' ? boardId : null) });
    expect((statuses.body as { name: string }[]).length).toBeGreaterThan(0);
  });

  it('serves the PSA-specific lists, or explains what the PSA lacks', async () => {
    if (psaType === 'connectwise') {
      expect(await read('/psa/getCommunicationTypes')).toEqual({ status: 200, body: await direct.listCommunicationTypes() });
      expect(await read('/psa/getAtNoteTypes')).toEqual({ status: 200, body: [] });
      const ticketTypes = await read('/psa/autotask/getTicketTypes');
      expect(ticketTypes.status).toBe(422);
      expect(ticketTypes.body).toMatchObject({ code: 'psa_validation', flags: { notSupported: true } });
    } else {
      expect(await read('/psa/autotask/getTicketTypes')).toEqual({ status: 200, body: await direct.listTicketTypes() });
      expect(await read('/psa/autotask/getPriorities')).toEqual({ status: 200, body: await direct.listPriorities() });
      const noteTypes = await read('/psa/getAtNoteTypes');
      expect(noteTypes).toEqual({ status: 200, body: await direct.listNoteTypes() });
      expect((noteTypes.body as unknown[]).length).toBeGreaterThan(0);
      expect((await read('/psa/getCommunicationTypes')).body).toMatchObject({ code: 'psa_validation', flags: { notSupported: true } });
    }
  });

  it('reads a ticket, its notes (both aliases) and its status; client users see only their company and no internal notes', async () => {
    const [board] = await direct.listBoards();
    const companies: number[] = [];
    for await (const company of direct.streamCompanies()) if (companies.push(company.id) >= 2) break;
    const [ownCompanyId, otherCompanyId] = companies;
    if (!board || ownCompanyId === undefined || otherCompanyId === undefined) throw new Error('demo seed lacks boards or companies');
    const ticket = await direct.createTicket({ idempotencyKey: `reads-${psaType}`, summary: 'VPN drops hourly', description: 'Since Monday.', boardId: board.id, companyId: ownCompanyId });
    await direct.addNote(ticket.id, { text: 'Checked the VPN concentrator logs.', kind: 'internal' });
    const otherTicket = await direct.createTicket({ idempotencyKey: `reads-other-${psaType}`, summary: 'Other company', description: 'x', boardId: board.id, companyId: otherCompanyId });

    expect(await read(`/psa/getTicketsById?ticketId=${ticket.id}`)).toEqual({ status: 200, body: await direct.getTicket(ticket.id) });
    const notes = await read(`/psa/getTicketNotesById?ticketId=${ticket.id}`);
    expect(notes).toEqual({ status: 200, body: await direct.listNotes(ticket.id) });
    expect(await read(`/psa/getTicketNotes?ticketId=${ticket.id}`)).toEqual(notes);
    expect(await read(`/psa/getTicketStatus?ticketId=${ticket.id}`)).toEqual({ status: 200, body: await direct.getTicketStatus(ticket.id) });
    expect((await read('/psa/getTicketsById?ticketId=987654321')).body).toMatchObject({ code: 'psa_not_found' });

    const clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: String(ownCompanyId) }));
    expect((await read(`/psa/getTicketsById?ticketId=${ticket.id}`, clientUser)).status).toBe(200);
    const clientNotes = (await read(`/psa/getTicketNotes?ticketId=${ticket.id}`, clientUser)).body as { kind: string; text: string }[];
    expect(clientNotes.map((note) => note.text)).not.toContain('Checked the VPN concentrator logs.');
    expect(clientNotes.some((note) => note.kind === 'internal')).toBe(false);
    expect((await read(`/psa/getTicketsById?ticketId=${otherTicket.id}`, clientUser)).status).toBe(404);
    expect((await read(`/psa/getTicketStatus?ticketId=${otherTicket.id}`, clientUser)).status).toBe(404);
    expect((await read(`/psa/getTicketNotes?ticketId=${otherTicket.id}`, clientUser)).status).toBe(404);
  });

  // Regression: the PSAs flag "internal" and "resolution" independently, and a resolution note also flagged internal
  // was read as a plain resolution note, so client users were shown it.
  it('keeps a resolution note that is also internal from client users; technicians still read it', async () => {
    const [board] = await direct.listBoards();
    let companyId: number | undefined;
    for await (const company of direct.streamCompanies()) {
      companyId = company.id;
      break;
    }
    if (!board || companyId === undefined) throw new Error('demo seed lacks boards or companies');
    const ticket = await direct.createTicket({ idempotencyKey: `reads-internal-resolution-${psaType}`, summary: 'Printer jams on tray 2', description: 'Every morning.', boardId: board.id, companyId });
    const hidden = 'Swapped the fuser; the lease on this unit ends in May.';
    await addInternalResolutionNote(psaType, ticket.id, hidden);
    await direct.addNote(ticket.id, { text: 'Replaced the tray 2 rollers.', kind: 'resolution' });

    const clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: String(companyId) }));
    for (const path of ['/psa/getTicketNotes', '/psa/getTicketNotesById']) {
      const clientNotes = (await read(`${path}?ticketId=${ticket.id}`, clientUser)).body as { text: string }[];
      expect(clientNotes.map((note) => note.text)).not.toContain(hidden);
      expect(clientNotes.map((note) => note.text)).toContain('Replaced the tray 2 rollers.');
    }

    const technicianNotes = (await read(`/psa/getTicketNotes?ticketId=${ticket.id}`)).body as { kind: string; text: string; isInternal: boolean }[];
    expect(technicianNotes.find((note) => note.text === hidden)).toMatchObject({ kind: 'resolution', isInternal: true });
  });

  it('checks session, tenant and access on the server', async () => {
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await read('/psa/getConnectWiseBoards', otherAdmin)).status).toBe(404);
    expect((await read('/psa/getConnectWiseBoards', new TestClient(t.app))).status).toBe(401);
    const clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await read('/psa/psa/getMembers', clientUser)).status).toBe(403);
    expect((await read('/psa/getConnectWiseDepartments', clientUser)).status).toBe(403);
    expect((await read('/psa/getConnectWiseBoards', clientUser)).status).toBe(200);
    const unconfigured = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    const response = await unconfigured.get(`/psa/getConnectWiseBoards?mspCustomDomain=${other.customDomain}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'psa_not_configured' });
  });
});

describe('PSA errors through the reads', () => {
  it('maps a PSA that keeps failing to 503 psa_unavailable and bad keys to 502 psa_bad_keys', async () => {
    const { msp, admin } = await connectedMsp('connectwise');
    await admin.get(`/psa/getConnectWiseBoards?mspCustomDomain=${msp.customDomain}`);
    sim.faults.failNext({ kind: 503, count: 10, pathPrefix: '/v4_6_release/apis/3.0/system/locations' });
    const unavailable = await admin.get(`/psa/getConnectWiseLocations?mspCustomDomain=${msp.customDomain}`);
    sim.faults.reset();
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ code: 'psa_unavailable' });

    const badKeys = await buildMsp(t);
    const badAdmin = await signedInClient(t, await buildUser(t, badKeys, { role: 'Admin' }));
    await badAdmin.post(`/db/${badKeys.customDomain}/integrations/update`, {
      connectWiseManageIntegration: { companyId: sim.connectWise.companyId, publicKey: sim.connectWise.publicKey, privateKey: 'not-the-right-key', psaUrl: sim.connectWise.siteUrl, clientId: sim.connectWise.clientId },
    });
    const refused = await badAdmin.get(`/psa/getConnectWiseBoards?mspCustomDomain=${badKeys.customDomain}`);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'psa_bad_keys' });
    expect(refused.body).not.toContain('not-the-right-key');
  });
});
