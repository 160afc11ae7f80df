import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TBoardTemplate, type TDefaultBoardSetupBody, type TMergedCategorization } from '@switchboard/contracts';
import type { PsaClient, TPsaType } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TTestMsp } from '../../../test/factories';

// Board set-up against the PSA where the PSA already holds part of what is asked for.

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const directClient = (psaType: TPsaType): PsaClient => simulatorPsaClient(sim, psaType, psaType === 'connectwise' ? 'board-setup-direct-cw' : 'board-setup-direct-at');
const q = (msp: TTestMsp, extra: Record<string, string | number> = {}) => new URLSearchParams({ mspCustomDomain: msp.customDomain, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) }).toString();
const CW_API = '/v4_6_release/apis/3.0';

async function mergedBoard(admin: TestClient, msp: TTestMsp, boardId: number): Promise<TMergedCategorization> {
  const response = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?${q(msp, { boardId })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TMergedCategorization>();
}

const subTypeNamesUnder = (merged: TMergedCategorization, typeName: string) => merged.mspConnectWiseBoardTypes.find((type) => type.typeName === typeName)?.mspConnectWiseBoardSubTypes.map((sub) => sub.subTypeName) ?? [];

async function templateBody(admin: TestClient): Promise<TDefaultBoardSetupBody> {
  const response = await admin.get('/db/default-et7-board-template/connectWiseManageDetails');
  expect(response.statusCode, response.body).toBe(200);
  const { statuses, priorities, types } = response.json<TBoardTemplate>();
  return { statuses, priorities, types };
}

describe('ConnectWise: a subtype name the board already has under another category', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let direct: PsaClient;
  let department: { id: number; name: string };
  let location: { id: number; name: string };

  beforeAll(async () => {
    ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise'));
    direct = directClient('connectwise');
    const [firstDepartment] = await direct.listDepartments();
    const [firstLocation] = await direct.listLocations();
    if (!firstDepartment || !firstLocation) throw new Error('the simulator has no department or location');
    department = firstDepartment;
    location = firstLocation;
  });

  /** A new board holding one category "Messaging" with the subcategory "Email", made at the PSA directly. */
  async function boardWithEmailUnderMessaging(name: string) {
    const board = await direct.createBoard({ name, departmentId: department.id, locationId: location.id });
    const messaging = await direct.createType(board.id, { name: 'Messaging' });
    const email = await direct.createSubtype(board.id, { name: 'Email', typeIds: [messaging.id] });
    return { boardId: board.id, messaging, email };
  }

  it('A-051 links the board\'s existing "Email" to the template\'s category instead of failing: both categories list it, the PSA keeps one subtype (regression: the PSA refused a second "Email" and the set-up failed)', async () => {
    const { boardId, messaging, email } = await boardWithEmailUnderMessaging('Setup Shared Subtype');
    const template = await templateBody(admin);
    // The template with "email" (other case, padded) under Software: the board has it under Messaging.
    const body = { ...template, types: template.types.map((type) => (type.typeName === 'Software' ? { ...type, subTypes: [...type.subTypes, { subTypeName: ' email ', tier: 'Tier2' as const, slaDeadLineInHours: 6, subTypeScore: 30 }] } : type)) };

    const applied = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, body);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ created: { types: 10, subTypes: 37 }, unmatched: [] });
    const software = applied.json<{ board: TMergedCategorization }>().board.mspConnectWiseBoardTypes.find((type) => type.typeName === 'Software');
    const softwareId = software?.typeId;
    expect(software?.mspConnectWiseBoardSubTypes.find((sub) => sub.subTypeId === email.id)).toMatchObject({ subTypeName: 'Email', tier: 'Tier2', slaDeadLineInHours: 6, subTypeScore: 30 });

    const atPsa = (await direct.listSubtypes(boardId)).filter((sub) => sub.name.toLowerCase() === 'email');
    expect(atPsa).toHaveLength(1);
    expect(atPsa[0]?.id).toBe(email.id);
    expect(atPsa[0]?.typeIds.sort()).toEqual([messaging.id, softwareId].sort());

    const merged = await mergedBoard(admin, msp, boardId);
    expect(subTypeNamesUnder(merged, 'Messaging')).toEqual(['Email']);
    expect(subTypeNamesUnder(merged, 'Software')).toContain('Email');

    // Applied again: nothing new at the PSA, the link kept.
    const again = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ created: { statuses: 0, types: 0, subTypes: 0 } });
    expect((await direct.listSubtypes(boardId)).filter((sub) => sub.name === 'Email')).toEqual([expect.objectContaining({ id: email.id, typeIds: atPsa[0]?.typeIds })]);
  });

  it('A-049 answers the board\'s existing "Email" linked to the asked category, keeping its other link (regression: the PSA refused a second "Email")', async () => {
    const { boardId, messaging, email } = await boardWithEmailUnderMessaging('Subcategory Shared Subtype');
    const category = await admin.post(`/psa/createCategory?${q(msp, { boardId, categoryName: 'Collaboration' })}`);
    expect(category.statusCode, category.body).toBe(200);
    const categoryId = category.json<{ typeId: number }>().typeId;

    const sub = await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId, subCategoryName: 'EMAIL' })}`);
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json()).toMatchObject({ subTypeId: email.id, subTypeName: 'Email', boardId, isExisting: true });
    expect(sub.json<{ typeAssociationIds: number[] }>().typeAssociationIds.sort()).toEqual([messaging.id, categoryId].sort());

    expect((await direct.listSubtypes(boardId)).filter((candidate) => candidate.name.toLowerCase() === 'email')).toEqual([expect.objectContaining({ id: email.id })]);
    const merged = await mergedBoard(admin, msp, boardId);
    expect(subTypeNamesUnder(merged, 'Messaging')).toEqual(['Email']);
    expect(subTypeNamesUnder(merged, 'Collaboration')).toEqual(['Email']);
    // Asked again: the same answer, nothing changed.
    expect((await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId, subCategoryName: 'Email' })}`)).json()).toMatchObject({ subTypeId: email.id, isExisting: true });
  });

  it('A-049 reactivates an inactive subtype of that name under the asked category', async () => {
    const { boardId, email } = await boardWithEmailUnderMessaging('Subcategory Inactive Subtype');
    await direct.updateSubtype(boardId, email.id, { isActive: false });
    const category = await direct.createType(boardId, { name: 'Office' });
    const sub = await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId: category.id, subCategoryName: 'Email' })}`);
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json()).toMatchObject({ subTypeId: email.id, isExisting: true });
    expect((await direct.listSubtypes(boardId)).find((candidate) => candidate.id === email.id)).toMatchObject({ isActive: true });
    expect(subTypeNamesUnder(await mergedBoard(admin, msp, boardId), 'Office')).toEqual(['Email']);
  });

  it('A-050 asked again after its board\'s set-up failed answers that board, so the retried A-051 fills it and no second board is made (regression: the retry was refused as a taken name, leaving an empty board)', async () => {
    const body = { name: 'Retried Setup Board', department, location };
    const created = await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, body);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ isExisting: false });
    const boardId = created.json<{ boardId: number }>().boardId;
    const template = await templateBody(admin);

    // The template step fails at the PSA (every try of its first subtype) after its first type landed.
    sim.faults.failNext({ kind: 503, count: 5, method: 'POST', path: `${CW_API}/service/boards/${boardId}/subtypes` });
    const failed = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, template);
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    sim.faults.reset();
    expect((await direct.listTypes(boardId)).length).toBeGreaterThan(0);
    expect(await direct.listSubtypes(boardId)).toEqual([]);

    // The screen's retry sends the same two calls again.
    const retried = await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { ...body, name: ' retried setup board ' });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ boardId, boardName: 'Retried Setup Board', isExisting: true });
    const applied = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId })}`, template);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await direct.listBoards()).filter((board) => board.name.toLowerCase() === 'retried setup board')).toHaveLength(1);
    expect((await mergedBoard(admin, msp, boardId)).mspConnectWiseBoardTypes).toHaveLength(10);

    // Once set up, the name is taken like any other board's.
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, body)).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.boardNameTaken });
  });

  it('A-050 still refuses a name the PSA already has for a board this MSP did not create here, or asked for in another department', async () => {
    const other = await direct.createBoard({ name: 'Made In The PSA', departmentId: department.id, locationId: location.id });
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { name: 'Made In The PSA', department, location })).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.boardNameTaken });
    expect((await direct.listTypes(other.id))).toEqual([]);

    // Another MSP connected to the same PSA created a board: this MSP's request of that name is still refused.
    const { msp: otherMsp, admin: otherAdmin } = await buildConnectedMsp(t, sim, 'connectwise');
    expect((await otherAdmin.post(`/psa/createConnectWiseBoard?${q(otherMsp)}`, { name: 'Made By Another MSP', department, location })).statusCode).toBe(200);
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { name: 'Made By Another MSP', department, location })).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.boardNameTaken });

    // The same name in another department is another request, not a retry.
    const secondDepartment = (await direct.listDepartments()).find((candidate) => candidate.id !== department.id);
    if (!secondDepartment) throw new Error('the simulator has one department only');
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { name: 'Moved Board', department, location })).statusCode).toBe(200);
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { name: 'Moved Board', department: secondDepartment, location })).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.boardNameTaken });
  });
});

describe('Autotask: a sub-issue type name held under another issue type', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let direct: PsaClient;

  beforeAll(async () => {
    ({ msp, admin } = await buildConnectedMsp(t, sim, 'autotask'));
    direct = directClient('autotask');
  });

  it('A-051 reports it unmatched under the asked issue type and creates nothing; A-049 is refused as not possible, never a 500', async () => {
    const [queue] = await direct.listBoards();
    if (!queue) throw new Error('the simulator has no Autotask queue');
    const [types, subtypes] = await Promise.all([direct.listTypes(null), direct.listSubtypes(null)]);
    // A sub-issue type of one issue type, and another issue type that has no sub-issue type of that name.
    const sub = subtypes.find((candidate) => candidate.isActive && candidate.typeIds.length === 1);
    const otherType = types.find((type) => type.isActive && !sub?.typeIds.includes(type.id) && subtypes.some((candidate) => candidate.typeIds.includes(type.id) && candidate.name !== sub?.name) && !subtypes.some((candidate) => candidate.typeIds.includes(type.id) && candidate.name.toLowerCase() === sub?.name.toLowerCase()));
    const ownSub = subtypes.find((candidate) => otherType !== undefined && candidate.typeIds.includes(otherType.id) && candidate.isActive);
    if (!sub || !otherType || !ownSub) throw new Error('the simulator lacks two Autotask issue types with sub-issue types');

    const body = { types: [{ typeName: otherType.name, subTypes: [{ subTypeName: ownSub.name }, { subTypeName: sub.name }] }] };
    const applied = await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId: queue.id })}`, body);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ created: { statuses: 0, types: 0, subTypes: 0 }, unmatched: [`Subtype: ${otherType.name} / ${sub.name}`] });
    expect(applied.json<{ board: TMergedCategorization }>().board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes.map((entry) => entry.subTypeId)).toEqual([ownSub.id]);
    expect(await direct.listSubtypes(null)).toEqual(subtypes);

    const refused = await admin.post(`/psa/createSubCategory?${q(msp, { boardId: queue.id, categoryId: otherType.id, subCategoryName: sub.name })}`);
    expect(refused.json()).toMatchObject({ status: 422, code: 'psa_validation', detail: MESSAGES.boards.autotaskCreateNotAllowed, flags: { notSupported: true } });
  });
});
