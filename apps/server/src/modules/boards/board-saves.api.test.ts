import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TBoardTemplate, type TMergedCategorization, type TTicketingConfiguration } from '@switchboard/contracts';
import type { PsaClient } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { buildUser, signedInClient, type TTestMsp } from '../../../test/factories';

// Board saves against what changed since the editor read the board (review s27): another admin's save, inactive or
// re-associated PSA records, a status name the board already has, and A-051's numbers checked before the PSA is touched.

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const CW_API = '/v4_6_release/apis/3.0';
const q = (msp: TTestMsp, extra: Record<string, string | number> = {}) => new URLSearchParams({ mspCustomDomain: msp.customDomain, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) }).toString();

async function mergedBoard(admin: TestClient, msp: TTestMsp, boardId: number): Promise<TMergedCategorization> {
  const response = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?${q(msp, { boardId })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TMergedCategorization>();
}

/** The merged board as the editor sends it back (A-030's answer is a valid A-034 board, version included). */
function editable(board: TMergedCategorization) {
  const { psaType: _psaType, isConfigured: _isConfigured, statuses: _statuses, canCreate: _canCreate, ...detail } = board;
  return detail;
}

/** A status made at the simulator the way an admin would in ConnectWise itself (the PSA client cannot make an inactive one). */
async function createStatusAtPsa(boardId: number, body: { name: string; closedStatus?: boolean; inactive?: boolean }): Promise<number> {
  const { companyId, publicKey, privateKey, clientId, siteUrl } = sim.connectWise;
  const response = await fetch(`${new URL(siteUrl).origin}${CW_API}/service/boards/${boardId}/statuses`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return ((await response.json()) as { id: number }).id;
}

describe('board saves (review s27)', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let direct: PsaClient;
  let department: { id: number; name: string };
  let location: { id: number; name: string };
  let boardCount = 0;

  beforeAll(async () => {
    ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise'));
    direct = simulatorPsaClient(sim, 'connectwise', 'board-saves-direct-cw');
    const [firstDepartment] = await direct.listDepartments();
    const [firstLocation] = await direct.listLocations();
    if (!firstDepartment || !firstLocation) throw new Error('the simulator has no department or location');
    department = firstDepartment;
    location = firstLocation;
  });

  /** A fresh board at the PSA with one type holding one subtype and an open and a closed status. */
  async function freshBoard() {
    boardCount += 1;
    const board = await direct.createBoard({ name: `Saves ${boardCount} ${Date.now().toString(36)}`, departmentId: department.id, locationId: location.id });
    const type = await direct.createType(board.id, { name: 'Network' });
    const otherType = await direct.createType(board.id, { name: 'Printing' });
    const subtype = await direct.createSubtype(board.id, { name: 'VPN', typeIds: [type.id] });
    await direct.createStatus(board.id, { name: 'New', isClosed: false });
    await direct.createStatus(board.id, { name: 'Closed', isClosed: true });
    return { boardId: board.id, type, otherType, subtype };
  }

  const save = (client: TestClient, detail: unknown) => client.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } });

  it('refuses the older copy when another admin saved the board since it was read (409), and keeps their save; A-011 and A-030 carry the version', async () => {
    const { boardId } = await freshBoard();
    const otherAdmin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    const firstCopy = editable(await mergedBoard(admin, msp, boardId));
    const secondCopy = editable(await mergedBoard(otherAdmin, msp, boardId));
    expect(firstCopy.version).toBeNull();

    const withSla = (copy: typeof firstCopy, hours: number) => ({
      ...copy,
      mspConnectWiseBoardTypes: copy.mspConnectWiseBoardTypes.map((type) => ({ ...type, mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((sub) => ({ ...sub, slaDeadLineInHours: hours })) })),
    });
    const first = await save(admin, withSla(firstCopy, 12));
    expect(first.statusCode, first.body).toBe(200);
    const savedVersion = first.json<TTicketingConfiguration>().connectWiseConfig?.boardDetails.find((board) => board.boardId === boardId)?.version;
    expect(savedVersion).toEqual(expect.any(String));

    const stale = await save(otherAdmin, withSla(secondCopy, 48));
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.boards.staleSave });
    const reread = await mergedBoard(admin, msp, boardId);
    expect(reread.version).toBe(savedVersion);
    expect(reread.mspConnectWiseBoardTypes.flatMap((type) => type.mspConnectWiseBoardSubTypes).map((sub) => sub.slaDeadLineInHours)).toEqual([12]);
    const configuration = await admin.get(`/db/${msp.customDomain}/getPSATicketingConfiguration`);
    expect(configuration.json<TTicketingConfiguration>().connectWiseConfig?.boardDetails.find((board) => board.boardId === boardId)?.version).toBe(savedVersion);

    // Read again, the second admin's save goes through; a body without a version (an older client) is not checked.
    const fresh = await save(otherAdmin, withSla(editable(reread), 48));
    expect(fresh.statusCode, fresh.body).toBe(200);
    const { version: _version, ...unversioned } = withSla(secondCopy, 24);
    expect((await save(admin, unversioned)).statusCode).toBe(200);
  });

  it('A-047 reuses a same-named status only when it is active and of the same kind; otherwise a 400 says what is in the way', async () => {
    const { boardId } = await freshBoard();
    await createStatusAtPsa(boardId, { name: 'Parked', inactive: true });
    const create = (statusName: string, isClosed: boolean) => admin.post(`/psa/createStatus?${q(msp, { boardId, statusName, isClosed: String(isClosed) })}`);

    const inactive = await create('Parked', false);
    expect(inactive.statusCode, inactive.body).toBe(400);
    expect(inactive.json()).toMatchObject({ code: 'validation', detail: MESSAGES.boards.statusNameInactive('Parked'), invalidParams: [{ name: 'statusName', reason: MESSAGES.boards.statusNameInactive('Parked') }] });

    const otherKind = await create('closed', false);
    expect(otherKind.statusCode, otherKind.body).toBe(400);
    expect(otherKind.json()).toMatchObject({ detail: MESSAGES.boards.statusNameOtherKind('Closed', true) });

    const same = await create('closed', true);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ statusName: 'Closed', isClosed: true, isExisting: true });
  });

  it('A-034 refuses an inactive open or closed status on its field', async () => {
    const { boardId } = await freshBoard();
    const parkedId = await createStatusAtPsa(boardId, { name: 'Parked', inactive: true });
    const board = editable(await mergedBoard(admin, msp, boardId));
    const refused = await save(admin, { ...board, newCreatingTicketStatusId: parkedId, newCreatingTicketStatus: 'Parked' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.boards.openStatusUnknown, invalidParams: [{ name: 'connectWiseConfig.boardDetails.0.newCreatingTicketStatusId' }] });
  });

  it('A-034 refuses an existing subtype under a type it no longer belongs to at the PSA, or an inactive one, on that field', async () => {
    const { boardId, otherType, subtype } = await freshBoard();
    const board = editable(await mergedBoard(admin, msp, boardId));
    const subTypePath = 'connectWiseConfig.boardDetails.0.mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.0.subTypeId';
    expect(board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes[0]?.subTypeId).toBe(subtype.id);

    // Moved to another type at the PSA after the editor read the board.
    await direct.updateSubtype(boardId, subtype.id, { typeIds: [otherType.id] });
    const moved = await save(admin, board);
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json()).toMatchObject({ detail: MESSAGES.boards.subTypeUnknown, invalidParams: [{ name: subTypePath }] });

    await direct.updateSubtype(boardId, subtype.id, { typeIds: [board.mspConnectWiseBoardTypes[0]?.typeId ?? 0], isActive: false });
    const inactive = await save(admin, board);
    expect(inactive.statusCode, inactive.body).toBe(400);
    expect(inactive.json()).toMatchObject({ detail: MESSAGES.boards.subTypeUnknown, invalidParams: [{ name: subTypePath }] });
    expect((await mergedBoard(admin, msp, boardId)).isConfigured).toBe(false);
  });

  it('A-034 refuses a type switched off in the PSA since the board was read, on its field, and stores nothing (review s29)', async () => {
    const { boardId, type } = await freshBoard();
    const board = editable(await mergedBoard(admin, msp, boardId));
    expect(board.mspConnectWiseBoardTypes.map((entry) => entry.typeId)).toContain(type.id);
    const typeIndex = board.mspConnectWiseBoardTypes.findIndex((entry) => entry.typeId === type.id);
    await direct.updateType(boardId, type.id, { isActive: false });
    const refused = await save(admin, board);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.boards.typeUnknown, invalidParams: [{ name: `connectWiseConfig.boardDetails.0.mspConnectWiseBoardTypes.${typeIndex}.typeId`, reason: MESSAGES.boards.typeUnknown }] });
    expect((await mergedBoard(admin, msp, boardId)).isConfigured).toBe(false);
  });

  it('A-034 on Autotask refuses an issue type whose picklist value is inactive (review s29)', async () => {
    // Autotask's issue types are one global picklist, which the simulator keeps with ConnectWise's board types. Switched
    // off before the MSP connects: the Autotask client caches picklists for a few minutes.
    const { boardId, type, subtype } = await freshBoard();
    await direct.updateType(boardId, type.id, { isActive: false });
    const directAutotask = simulatorPsaClient(sim, 'autotask', 'board-saves-direct-at');
    expect((await directAutotask.listTypes(null)).find((entry) => entry.id === type.id)).toMatchObject({ isActive: false });
    const autotask = await buildConnectedMsp(t, sim, 'autotask');
    const [queue] = await directAutotask.listBoards();
    if (!queue) throw new Error('the simulator has no Autotask queue');
    const merged = await mergedBoard(autotask.admin, autotask.msp, queue.id);
    const refused = await autotask.admin.post(`/db/${autotask.msp.customDomain}/addUpdatePSATicketingConfiguration`, {
      psaType: 'AUTOTASK',
      autotaskConfigV2: {
        ticketQueueDetails: [
          {
            queueId: queue.id,
            queueName: merged.boardName,
            newTicketStatusId: merged.newCreatingTicketStatusId,
            closingStatusId: merged.closingTicketStatusId,
            issueTypes: [{ value: type.id, label: type.name, subIssueTypes: [{ value: subtype.id, label: subtype.name }] }],
          },
        ],
      },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ detail: MESSAGES.boards.typeUnknown, invalidParams: [{ name: 'autotaskConfigV2.ticketQueueDetails.0.mspConnectWiseBoardTypes.0.typeId' }] });
  });

  it('A-034 refuses SLA hours that are not a whole number on their field instead of rounding them (review s29)', async () => {
    const { boardId } = await freshBoard();
    const board = editable(await mergedBoard(admin, msp, boardId));
    const [firstType] = board.mspConnectWiseBoardTypes;
    if (!firstType) throw new Error('board without types');
    const withSla = { ...board, mspConnectWiseBoardTypes: [{ ...firstType, mspConnectWiseBoardSubTypes: firstType.mspConnectWiseBoardSubTypes.map((sub) => ({ ...sub, slaDeadLineInHours: 1.5 })) }] };
    const refused = await save(admin, withSla);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      detail: MESSAGES.boards.slaRange,
      invalidParams: [{ name: 'connectWiseConfig.boardDetails.0.mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.0.slaDeadLineInHours', reason: MESSAGES.boards.slaRange }],
    });
    expect(MESSAGES.boards.slaRange).toMatch(/whole number/);
  });

  it('A-051 checks the numbers before it writes to the PSA: a bad SLA is a 400 on its place in the request, and no status is made', async () => {
    const { boardId } = await freshBoard();
    const template = await admin.get('/db/default-et7-board-template/connectWiseManageDetails');
    const { statuses } = template.json<TBoardTemplate>();
    const before = await direct.listStatuses(boardId);
    const response = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, {
      statuses,
      priorities: [],
      types: [{ typeName: 'Network', subTypes: [{ subTypeName: 'VPN', slaDeadLineInHours: 9000 }] }],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ detail: MESSAGES.boards.slaRange, invalidParams: [{ name: 'types.0.subTypes.0.slaDeadLineInHours', reason: MESSAGES.boards.slaRange }] });
    expect((await direct.listStatuses(boardId)).map((status) => status.id)).toEqual(before.map((status) => status.id));
    const fraction = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, { statuses, priorities: [], types: [{ typeName: 'Network', subTypes: [{ subTypeName: 'VPN', slaDeadLineInHours: 1.5 }] }] });
    expect(fraction.statusCode, fraction.body).toBe(400);
    expect(fraction.json()).toMatchObject({ invalidParams: [{ name: 'types.0.subTypes.0.slaDeadLineInHours', reason: MESSAGES.boards.slaRange }] });
    expect((await direct.listStatuses(boardId)).map((status) => status.id)).toEqual(before.map((status) => status.id));
  });
});
