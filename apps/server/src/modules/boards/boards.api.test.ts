import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, permissionMap, type TMergedCategorization, type TScoredBoard, type TTicketingConfiguration } from '@switchboard/contracts';
import { psaCompanies, psaTickets } from '@switchboard/db';
import { and, count, eq } from 'drizzle-orm';
import type { PsaClient, TPsaType } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { loadHistoricalTickets } from '../../../test/historical-tickets';
import { insertCustomRole } from '../roles/roles.repository';
import { upsertTicketCopies, type TTicketCopy } from './ticket-copies.repository';
import { REPEATED_ENTRY_MESSAGES } from './boards.service';

let t: TTestApp;
let sim: TPsaSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

/** The simulator read directly: what the PSA really holds after a call. */
const directClient = (psaType: TPsaType): PsaClient => simulatorPsaClient(sim, psaType, psaType === 'connectwise' ? 'boards-direct-cw' : 'boards-direct-at');
const connectedMsp = (psaType: TPsaType) => buildConnectedMsp(t, sim, psaType);

const q = (msp: TTestMsp, extra: Record<string, string | number> = {}) => new URLSearchParams({ mspCustomDomain: msp.customDomain, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) }).toString();

async function mergedBoard(admin: TestClient, msp: TTestMsp, boardId: number): Promise<TMergedCategorization> {
  const response = await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?${q(msp, { boardId })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TMergedCategorization>();
}

/** The merged board as the editor would send it back (A-030 output is a valid A-034 board). */
function editable(board: TMergedCategorization) {
  const { psaType: _psaType, isConfigured: _isConfigured, statuses: _statuses, canCreate: _canCreate, ...detail } = board;
  return detail;
}

describe('ConnectWise board editing', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let direct: PsaClient;
  let boardId: number;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp('connectwise'));
    direct = directClient('connectwise');
    const board = (await direct.listBoards()).find((candidate) => candidate.name === 'Help Desk');
    if (!board) throw new Error('the demo simulator has no Help Desk board');
    boardId = board.id;
  });

  it('A-030 merges the PSA board with the defaults when nothing is stored, under both casings', async () => {
    const merged = await mergedBoard(admin, msp, boardId);
    const psaTypes = (await direct.listTypes(boardId)).filter((type) => type.isActive);
    expect(merged.isConfigured).toBe(false);
    expect(merged.boardName).toBe('Help Desk');
    expect(merged.mspConnectWiseBoardTypes.map((type) => type.typeName).sort()).toEqual(psaTypes.map((type) => type.name).sort());
    const passwordReset = merged.mspConnectWiseBoardTypes.flatMap((type) => type.mspConnectWiseBoardSubTypes).find((sub) => sub.subTypeName === 'Password Reset');
    expect(passwordReset).toMatchObject({ priorityScore: 0, subTypeScore: 0, tier: 'Tier1', slaDeadLineInHours: 1, isNew: false });
    expect(merged.newCreatingTicketStatus).toBe('New');
    expect(merged.closingTicketStatus).toBe('Closed');
    expect(merged.canCreate).toEqual({ types: true, subTypes: true, statuses: true, boards: true });
    const other = await admin.get(`/psa/getMergedConnectwiseCategorizationWithoutGPT?${q(msp, { boardId })}`);
    expect(other.json()).toEqual(merged);
    expect((await admin.get(`/psa/getMergedConnectWiseCategorizationWithoutGPT?${q(msp, { boardId: 999999 })}`)).json()).toMatchObject({ status: 404, code: 'psa_not_found', detail: MESSAGES.boards.boardUnknown });
  });

  it('A-034 creates a new type and subtype at the PSA, stores them with real ids, and a repeated save creates no duplicate', async () => {
    const board = editable(await mergedBoard(admin, msp, boardId));
    const body = {
      mspCustomDomain: msp.customDomain,
      psaType: 'CONNECTWISE',
      connectWiseConfig: {
        boardDetails: [
          {
            ...board,
            mspConnectWiseBoardTypes: [
              ...board.mspConnectWiseBoardTypes,
              {
                typeId: null,
                typeName: 'Cloud Backup',
                isNew: true,
                tempIndex: 'tmp-1',
                mspConnectWiseBoardSubTypes: [{ subTypeId: null, subTypeName: 'Restore Request', isNew: true, tempIndex: 'tmp-2', priorityScore: '40', subTypeScore: 'n/a', slaDeadLineInHours: '', tier: 'Tier2' }],
              },
            ],
          },
        ],
      },
    };
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const config = saved.json<TTicketingConfiguration>();
    const storedType = config.connectWiseConfig?.boardDetails[0]?.mspConnectWiseBoardTypes.find((type) => type.typeName === 'Cloud Backup');
    expect(storedType?.isNew).toBe(false);
    expect(storedType?.typeId).toEqual(expect.any(Number));
    // 01 §5: a non-numeric score becomes 0, non-numeric SLA hours 1 on ConnectWise.
    expect(storedType?.mspConnectWiseBoardSubTypes[0]).toMatchObject({ subTypeName: 'Restore Request', isNew: false, priorityScore: 40, subTypeScore: 0, slaDeadLineInHours: 1, tier: 'Tier2' });

    const psaType = (await direct.listTypes(boardId)).find((type) => type.name === 'Cloud Backup');
    expect(psaType?.id).toBe(storedType?.typeId);
    const psaSubtype = (await direct.listSubtypes(boardId)).find((sub) => sub.name === 'Restore Request');
    expect(psaSubtype?.typeIds).toContain(psaType?.id);

    // A retried save (the browser never saw the answer) carries the version read before the first one: refused as
    // stale (decision 012) without touching the PSA. Sent without a version (an older client), it reuses what the first one created.
    expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, body)).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.staleSave });
    expect((await direct.listTypes(boardId)).filter((type) => type.name === 'Cloud Backup')).toHaveLength(1);
    const [detail] = body.connectWiseConfig.boardDetails;
    const { version: _version, ...unversioned } = detail ?? board;
    const retried = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { ...body, connectWiseConfig: { boardDetails: [unversioned] } });
    expect(retried.statusCode).toBe(200);
    // The same content as the first save; only the version moved on.
    const { version: firstVersion, ...firstSaved } = config.connectWiseConfig?.boardDetails[0] ?? {};
    const { version: retriedVersion, ...retriedSaved } = retried.json<TTicketingConfiguration>().connectWiseConfig?.boardDetails[0] ?? {};
    expect(retriedSaved).toEqual(firstSaved);
    expect(retriedVersion).not.toBe(firstVersion);
    expect((await direct.listTypes(boardId)).filter((type) => type.name === 'Cloud Backup')).toHaveLength(1);
    expect((await direct.listSubtypes(boardId)).filter((sub) => sub.name === 'Restore Request')).toHaveLength(1);

    const read = await admin.get(`/db/${msp.customDomain}/getPSATicketingConfiguration`);
    expect(read.json()).toEqual(retried.json());
    const merged = await mergedBoard(admin, msp, boardId);
    expect(merged.isConfigured).toBe(true);
    expect(merged.mspConnectWiseBoardTypes.find((type) => type.typeName === 'Cloud Backup')?.mspConnectWiseBoardSubTypes[0]).toMatchObject({ priorityScore: 40, tier: 'Tier2' });
  });

  it('A-034 adds one new subcategory under two categories in one save: one PSA subtype associated with both, shown under both on reload, kept by the next save (regression: it was associated with the first category only and vanished from the second)', async () => {
    const board = editable(await mergedBoard(admin, msp, boardId));
    const withOther = (type: (typeof board.mspConnectWiseBoardTypes)[number], index: number) =>
      ['Hardware', 'Software'].includes(type.typeName)
        ? { ...type, mspConnectWiseBoardSubTypes: [...type.mspConnectWiseBoardSubTypes, { subTypeId: null, subTypeName: 'Other', isNew: true, tempIndex: `tmp-other-${index}`, priorityScore: 10 + index, subTypeScore: 20, slaDeadLineInHours: 4, tier: 'Tier2' }] }
        : type;
    const save = (detail: unknown) => admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } });
    const saved = await save({ ...board, mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.map(withOther) });
    expect(saved.statusCode, saved.body).toBe(200);

    const typeIdOf = (name: string) => board.mspConnectWiseBoardTypes.find((type) => type.typeName === name)?.typeId;
    const others = (await direct.listSubtypes(boardId)).filter((sub) => sub.name === 'Other');
    expect(others).toHaveLength(1);
    expect(others[0]?.typeIds.sort()).toEqual([typeIdOf('Hardware'), typeIdOf('Software')].sort());
    expect(others[0]?.isActive).toBe(true);

    // The editor reloads from A-030, which lists a type's associated, active subtypes only.
    const otherUnder = (merged: TMergedCategorization, typeName: string) => merged.mspConnectWiseBoardTypes.find((type) => type.typeName === typeName)?.mspConnectWiseBoardSubTypes.find((sub) => sub.subTypeName === 'Other');
    const reloaded = await mergedBoard(admin, msp, boardId);
    const expected = (typeName: string) => ({ subTypeId: others[0]?.id, tier: 'Tier2', slaDeadLineInHours: 4, priorityScore: 10 + board.mspConnectWiseBoardTypes.findIndex((type) => type.typeName === typeName) });
    expect(otherUnder(reloaded, 'Hardware')).toMatchObject(expected('Hardware'));
    expect(otherUnder(reloaded, 'Software')).toMatchObject(expected('Software'));

    // The next save sends what the editor reloaded: both rows stay, at the PSA and in the stored board.
    expect((await save(editable(reloaded))).statusCode).toBe(200);
    const again = await mergedBoard(admin, msp, boardId);
    expect(otherUnder(again, 'Hardware')).toMatchObject(expected('Hardware'));
    expect(otherUnder(again, 'Software')).toMatchObject(expected('Software'));
    const stored = (await admin.get(`/db/${msp.customDomain}/getPSATicketingConfiguration`)).json<TTicketingConfiguration>().connectWiseConfig?.boardDetails.find((detail) => detail.boardId === boardId);
    for (const typeName of ['Hardware', 'Software']) {
      const row = stored?.mspConnectWiseBoardTypes.find((type) => type.typeName === typeName)?.mspConnectWiseBoardSubTypes.find((sub) => sub.subTypeName === 'Other');
      expect(row?.typeAssociationIds.sort(), typeName).toEqual(others[0]?.typeIds.sort());
    }
  });

  it('A-034 reactivates an inactive type and subtype of the new names instead of storing what A-030 hides (regression)', async () => {
    const hardwareId = (await direct.listTypes(boardId)).find((type) => type.name === 'Hardware')?.id;
    if (hardwareId === undefined) throw new Error('no Hardware type');
    const retiredType = await direct.createType(boardId, { name: 'Retired Category' });
    await direct.updateType(boardId, retiredType.id, { isActive: false });
    const retiredSub = await direct.createSubtype(boardId, { name: 'Legacy Printer', typeIds: [hardwareId] });
    await direct.updateSubtype(boardId, retiredSub.id, { isActive: false });

    const board = editable(await mergedBoard(admin, msp, boardId));
    expect(board.mspConnectWiseBoardTypes.some((type) => type.typeName === 'Retired Category')).toBe(false);
    const newSub = { subTypeId: null, subTypeName: 'legacy printer', isNew: true, tempIndex: 'tmp-legacy', tier: 'Tier3' };
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, {
      connectWiseConfig: { boardDetails: [{ ...board, mspConnectWiseBoardTypes: [...board.mspConnectWiseBoardTypes, { typeId: null, typeName: 'Retired Category', isNew: true, tempIndex: 'tmp-retired', mspConnectWiseBoardSubTypes: [newSub] }] }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    expect((await direct.listTypes(boardId)).filter((type) => type.name === 'Retired Category')).toEqual([expect.objectContaining({ id: retiredType.id, isActive: true })]);
    const [sub] = (await direct.listSubtypes(boardId)).filter((candidate) => candidate.name === 'Legacy Printer');
    expect(sub).toMatchObject({ id: retiredSub.id, isActive: true });
    expect(sub?.typeIds.sort()).toEqual([hardwareId, retiredType.id].sort());
    const reloaded = (await mergedBoard(admin, msp, boardId)).mspConnectWiseBoardTypes.find((type) => type.typeName === 'Retired Category');
    expect(reloaded?.mspConnectWiseBoardSubTypes).toEqual([expect.objectContaining({ subTypeId: retiredSub.id, subTypeName: 'Legacy Printer', tier: 'Tier3' })]);
  });

  it('A-034 refuses a board without an open and a closed status, without a board, with bad numbers or stale ids', async () => {
    const board = editable(await mergedBoard(admin, msp, boardId));
    const save = (detail: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] }, ...extra });
    const expectProblem = async (detail: Record<string, unknown>, message: string) => {
      const response = await save(detail);
      expect(response.json(), response.body).toMatchObject({ status: 400, code: 'validation', detail: message });
    };
    await expectProblem({ ...board, closingTicketStatusId: null }, MESSAGES.boards.statusesRequired);
    await expectProblem({ ...board, newCreatingTicketStatusId: null }, MESSAGES.boards.statusesRequired);
    await expectProblem({ ...board, boardId: null }, MESSAGES.boards.noBoardSelected);
    await expectProblem({ ...board, newCreatingTicketStatusId: 987654 }, MESSAGES.boards.openStatusUnknown);
    await expectProblem({ ...board, closingTicketStatusId: 987654 }, MESSAGES.boards.closedStatusUnknown);
    const [firstType] = board.mspConnectWiseBoardTypes;
    if (!firstType) throw new Error('board without types');
    const withSub = (sub: Record<string, unknown>) => ({ ...board, mspConnectWiseBoardTypes: [{ ...firstType, mspConnectWiseBoardSubTypes: [{ ...firstType.mspConnectWiseBoardSubTypes[0], ...sub }] }] });
    await expectProblem(withSub({ priorityScore: 150 }), MESSAGES.boards.scoreRange);
    await expectProblem(withSub({ slaDeadLineInHours: 0 }), MESSAGES.boards.slaRange);
    await expectProblem(withSub({ subTypeName: '  ' }), MESSAGES.boards.subTypeNameRequired);
    await expectProblem(withSub({ subTypeId: 987654 }), MESSAGES.boards.subTypeUnknown);
    await expectProblem(withSub({ priorityId: 987654 }), MESSAGES.boards.priorityUnknown);
    await expectProblem({ ...board, mspConnectWiseBoardTypes: [{ ...firstType, typeId: 987654 }] }, MESSAGES.boards.typeUnknown);
    await expectProblem({ ...board, mspConnectWiseBoardTypes: [firstType, { ...firstType, typeId: null, isNew: true }] }, MESSAGES.boards.duplicateTypeName);
    await expectProblem({ ...board, mspConnectWiseBoardTypes: [{ ...firstType, typeName: '' }] }, MESSAGES.boards.typeNameRequired);
    expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { autotaskConfigV2: { ticketQueueDetails: [] } })).json()).toMatchObject({
      status: 400,
      detail: MESSAGES.boards.wrongPsaVariant,
    });
    expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { psaType: 'AUTOTASK', connectWiseConfig: { boardDetails: [] } })).json()).toMatchObject({
      status: 400,
      detail: MESSAGES.boards.wrongPsaVariant,
    });
    // Nothing of a refused save reached the PSA.
    expect((await direct.listTypes(boardId)).filter((type) => type.name === firstType.typeName)).toHaveLength(1);
  });

  it('A-034 answers a type, a subtype or a priority listed twice by id with a 400 on that field, not a 500 (regression: the primary key refused it)', async () => {
    const board = editable(await mergedBoard(admin, msp, boardId));
    const [firstType] = board.mspConnectWiseBoardTypes;
    const [firstSub] = firstType?.mspConnectWiseBoardSubTypes ?? [];
    const [firstPriority] = board.priorities;
    if (!firstType || !firstSub || !firstPriority) throw new Error('board without a type, subtype or priority');
    const path = 'connectWiseConfig.boardDetails.0';
    const save = async (detail: Record<string, unknown>) => {
      const response = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [detail] } });
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ code: string; detail: string; invalidParams: { name: string; reason: string }[] }>();
    };
    // One PSA type id twice under two names (the names pass the duplicate-name check).
    const twoNames = await save({ ...board, mspConnectWiseBoardTypes: [{ ...firstType, typeName: 'A' }, { ...firstType, typeName: 'B' }] });
    expect(twoNames).toMatchObject({ code: 'validation', detail: REPEATED_ENTRY_MESSAGES.type, invalidParams: [{ name: `${path}.mspConnectWiseBoardTypes.1.typeId`, reason: REPEATED_ENTRY_MESSAGES.type }] });
    const twoSubs = await save({ ...board, mspConnectWiseBoardTypes: [{ ...firstType, mspConnectWiseBoardSubTypes: [firstSub, { ...firstSub, subTypeName: `${firstSub.subTypeName} again` }] }] });
    expect(twoSubs).toMatchObject({ detail: REPEATED_ENTRY_MESSAGES.subType, invalidParams: [{ name: `${path}.mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.1.subTypeId` }] });
    const twoPriorities = await save({ ...board, priorities: [firstPriority, { ...firstPriority, priority: 'Copy' }] });
    expect(twoPriorities).toMatchObject({ detail: REPEATED_ENTRY_MESSAGES.priority, invalidParams: [{ name: `${path}.priorities.1.priorityId` }] });
    // The board as read still saves.
    expect((await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [board] } })).statusCode).toBe(200);
  });

  it('A-034 sets the default company from the synchronized companies only (R-179, R-180)', async () => {
    await t.deps.database.db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '19', name: 'Bellweather Insurance' });
    const save = (defaultCompanyId: number | null) => admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { defaultCompanyId, defaultCompanyName: 'typed by the browser' } });
    const saved = await save(19);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<TTicketingConfiguration>().connectWiseConfig).toMatchObject({ defaultCompanyId: 19, defaultCompanyName: 'Bellweather Insurance' });
    // Only the default company changed: the boards saved earlier are still there.
    expect(saved.json<TTicketingConfiguration>().connectWiseConfig?.boardDetails.length).toBeGreaterThan(0);
    expect((await save(4040)).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.companyUnknown });
    expect((await admin.get(`/db/${msp.customDomain}/getPSATicketingConfiguration`)).json<TTicketingConfiguration>().connectWiseConfig?.defaultCompanyId).toBe(19);
    expect((await admin.get(`/db/${msp.customDomain}/psaTicketingConfiguration/defaultCompanyOptions?search=bellw`)).json()).toEqual({ companies: [{ id: 19, name: 'Bellweather Insurance' }] });
    expect((await admin.get(`/db/${msp.customDomain}/psaTicketingConfiguration/defaultCompanyOptions?search=100%25`)).json()).toEqual({ companies: [] });
  });

  it('A-047, A-048, A-049 create a status, a category and a subcategory once; blank names are refused', async () => {
    const status = await admin.post(`/psa/createStatus?${q(msp, { boardId, statusName: 'Awaiting Parts', isClosed: 'false' })}`);
    expect(status.json()).toMatchObject({ statusName: 'Awaiting Parts', isClosed: false, isExisting: false });
    expect((await direct.listStatuses(boardId)).filter((s) => s.name === 'Awaiting Parts')).toHaveLength(1);
    expect((await admin.post(`/psa/createStatus?${q(msp, { boardId, statusName: 'awaiting parts' })}`)).json()).toMatchObject({ isExisting: true, statusId: status.json<{ statusId: number }>().statusId });
    expect((await admin.post(`/psa/createStatus?${q(msp, { boardId, statusName: ' ' })}`)).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.statusNameRequired });

    const category = await admin.post(`/psa/createCategory?${q(msp, { boardId, categoryName: 'Line of Business Apps' })}`);
    expect(category.json()).toMatchObject({ typeName: 'Line of Business Apps', isExisting: false });
    const categoryId = category.json<{ typeId: number }>().typeId;
    expect((await direct.listTypes(boardId)).some((type) => type.id === categoryId)).toBe(true);
    expect((await admin.post(`/psa/createCategory?${q(msp, { boardId, categoryName: '' })}`)).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.categoryNameRequired });

    const sub = await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId, subCategoryName: 'QuickBooks' })}`);
    expect(sub.json()).toMatchObject({ subTypeName: 'QuickBooks', typeAssociationIds: [categoryId], isExisting: false });
    expect((await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId, subCategoryName: 'QuickBooks' })}`)).json()).toMatchObject({ isExisting: true });
    expect((await direct.listSubtypes(boardId)).filter((s) => s.name === 'QuickBooks')).toHaveLength(1);
    expect((await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId, subCategoryName: '' })}`)).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.subCategoryNameRequired });
    expect((await admin.post(`/psa/createSubCategory?${q(msp, { boardId, categoryId: 987654, subCategoryName: 'X' })}`)).json()).toMatchObject({ status: 404, detail: MESSAGES.boards.typeUnknown });
    expect((await admin.post(`/psa/createCategory?${q(msp, { boardId: 'abc', categoryName: 'X' })}`)).statusCode).toBe(400);
  });

  it('A-050 creates a custom board; A-023 + A-051 apply the default template to it, and again without duplicates', async () => {
    const [department] = await direct.listDepartments();
    const [location] = await direct.listLocations();
    if (!department || !location) throw new Error('simulator lacks departments or locations');
    const createBoard = (body: Record<string, unknown>) => admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, body);
    expect((await createBoard({ name: '  ', department, location })).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.boardTitleRequired });
    expect((await createBoard({ name: 'Projects', location })).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.departmentRequired });
    expect((await createBoard({ name: 'Projects', department })).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.locationRequired });
    expect((await createBoard({ name: 'Projects', department: { id: 987654 }, location })).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.departmentUnknown });
    expect((await createBoard({ name: 'Help Desk', department, location })).json()).toMatchObject({ status: 409, detail: MESSAGES.boards.boardNameTaken });
    const created = await createBoard({ title: 'Managed Services', department, location });
    expect(created.statusCode, created.body).toBe(200);
    const newBoardId = created.json<{ boardId: number }>().boardId;
    expect((await direct.listBoards()).find((board) => board.id === newBoardId)?.name).toBe('Managed Services');

    const template = await admin.get('/db/default-et7-board-template/connectWiseManageDetails');
    expect(template.statusCode).toBe(200);
    const templateBody = template.json<{ types: { subTypes: unknown[] }[]; statuses: unknown[]; priorities: unknown[] }>();
    expect(templateBody.types).toHaveLength(10);
    expect((await admin.get('/db/no-such-template/connectWiseManageDetails')).json()).toMatchObject({ status: 404, detail: MESSAGES.boards.templateNotFound });

    const apply = () => admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId: newBoardId })}`, templateBody);
    const first = await apply();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: { types: 10, subTypes: 37 }, unmatched: [] });
    const applied = first.json<{ board: { newCreatingTicketStatus: string; closingTicketStatus: string; mspConnectWiseBoardTypes: { typeName: string; mspConnectWiseBoardSubTypes: { subTypeName: string; slaDeadLineInHours: number; priority: string; priorityScore: number; tier: string }[] }[] } }>().board;
    expect(applied.newCreatingTicketStatus).toBe('New');
    expect(applied.closingTicketStatus).toBe('Closed');
    const reset = applied.mspConnectWiseBoardTypes.find((type) => type.typeName === 'Accounts & Access')?.mspConnectWiseBoardSubTypes.find((sub) => sub.subTypeName === 'Password Reset');
    expect(reset).toMatchObject({ slaDeadLineInHours: 2, priority: 'Priority 2 - High', priorityScore: 75, tier: 'Tier1' });
    expect((await apply()).json()).toMatchObject({ created: { statuses: 0, types: 0, subTypes: 0 } });
    expect((await direct.listTypes(newBoardId)).filter((type) => type.name === 'Accounts & Access')).toHaveLength(1);
    expect((await admin.post(`/psa/createDefaultBoardSetup?${q(msp, { boardId: newBoardId })}`, { types: [] })).statusCode).toBe(400);
  });

  it('A-052 scores from the MSP\'s own closed tickets, explains each number, and falls back to the defaults without history', async () => {
    const board = editable(await mergedBoard(admin, msp, boardId));
    const score = async () => {
      const response = await admin.post('/psa/applyGPTScoringToConnectWiseCategorization', { board });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TScoredBoard>();
    };
    const empty = await score();
    expect(empty.history.ticketCount).toBe(0);
    expect(empty.suggestions.every((s) => s.priorityScore.source === 'default' && s.slaDeadLineInHours.value === 1)).toBe(true);
    expect(empty.suggestions[0]?.priorityScore.explanation).toContain('No closed tickets of this board');

    const [types, subtypes, priorities] = await Promise.all([direct.listTypes(boardId), direct.listSubtypes(boardId), direct.listPriorities()]);
    const history = loadHistoricalTickets();
    const copies: TTicketCopy[] = history.map((ticket) => {
      const type = types.find((candidate) => candidate.name === ticket.type);
      const subtype = subtypes.find((candidate) => candidate.name === ticket.subType && (type === undefined || candidate.typeIds.includes(type.id)));
      const priority = priorities.find((candidate) => candidate.name === ticket.priority);
      return {
        externalId: ticket.id,
        summary: ticket.summary,
        description: ticket.description,
        board: { id: boardId, name: 'Help Desk' },
        type: { id: type?.id ?? null, name: ticket.type },
        subtype: { id: subtype?.id ?? null, name: ticket.subType },
        priority: { id: priority?.id ?? null, name: ticket.priority },
        company: { id: ticket.companyId },
        owner: { id: null, name: ticket.technicianIdentifier },
        isClosed: true,
        resolution: ticket.resolution,
        timeSpentMinutes: ticket.timeSpentMinutes,
        createdAt: new Date(ticket.createdAt),
        closedAt: new Date(ticket.closedAt),
        updatedAt: new Date(ticket.closedAt),
      };
    });
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', copies)).toBe(history.length);
    // Idempotent: a second run writes the same rows, not new ones.
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', copies);
    const [stored] = await t.deps.database.db.select({ total: count() }).from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.psaType, 'CONNECTWISE')));
    expect(stored?.total).toBe(history.length);

    const scored = await score();
    expect(scored.history.ticketCount).toBe(history.length);
    const reset = scored.suggestions.find((s) => s.subTypeName === 'Password Reset');
    const resetTickets = history.filter((ticket) => ticket.subType === 'Password Reset');
    expect(reset?.ticketCount).toBe(resetTickets.length);
    expect(reset?.priorityScore.source).toBe('history');
    expect(reset?.priorityScore.explanation).toContain(`Mean priority of ${resetTickets.length} closed tickets`);
    expect(reset?.slaDeadLineInHours.source).toBe('history');
    expect(reset?.slaDeadLineInHours.explanation).toMatch(/^80% of \d+ closed tickets were resolved within \d+ h/);
    expect(scored.suggestions.some((s) => s.subTypeScore.value === 100)).toBe(true);
    // The scored board carries the suggestions and can be saved as is.
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { connectWiseConfig: { boardDetails: [scored.board] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin.post('/psa/applyGPTScoringToConnectWiseCategorization', { board: { ...board, boardId: null } })).json()).toMatchObject({ status: 400, detail: MESSAGES.boards.noBoardSelected });
  });
});

describe('synchronized ticket copies (upsertTicketCopies)', () => {
  it('stores every field as given, whatever characters it holds, and leaves an equal or older copy alone', async () => {
    const msp = await buildMsp(t);
    const awkward = `Quote " apostrophe ' backslash \\ braces {a,b} comma, NULL "NULL" tab\tnew\nline é 漢字 🙂`;
    const copy: TTicketCopy = {
      externalId: 987_654,
      ticketNumber: 'T-987654',
      summary: awkward,
      description: '',
      board: { id: 7, name: 'NULL' },
      type: { id: '12', name: '{}' },
      subtype: null,
      item: { id: 3, name: null },
      priority: { id: 4, name: 'Priority "1"' },
      status: { id: 5, name: 'Closed' },
      company: { id: 6, name: 'Contoso, Ltd.' },
      contact: { id: 8, name: "Zoë O'Brien" },
      owner: { id: null, name: 'unknown' },
      isClosed: true,
      resolution: 'Back\\slash\nand "quotes"',
      timeSpentMinutes: 95,
      createdAt: new Date('2025-10-02T08:15:30.123Z'),
      updatedAt: new Date('2025-10-03T09:00:00.000Z'),
      closedAt: new Date('2025-10-03T09:00:00.000Z'),
    };
    const read = async () => {
      const [row] = await t.deps.database.db.select().from(psaTickets).where(and(eq(psaTickets.mspId, msp.id), eq(psaTickets.externalId, '987654')));
      return row;
    };
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [copy, { externalId: 987_655, summary: 'Second', isClosed: false }])).toBe(2);
    const stored = await read();
    expect(stored).toMatchObject({
      psaType: 'CONNECTWISE',
      ticketNumber: 'T-987654',
      summary: awkward,
      description: '',
      boardExternalId: '7',
      boardName: 'NULL',
      typeExternalId: '12',
      typeName: '{}',
      subtypeExternalId: null,
      subtypeName: null,
      itemExternalId: '3',
      itemName: null,
      priorityName: 'Priority "1"',
      companyName: 'Contoso, Ltd.',
      contactName: "Zoë O'Brien",
      ownerExternalId: null,
      ownerName: 'unknown',
      isClosed: true,
      resolution: 'Back\\slash\nand "quotes"',
      timeSpentMinutes: 95,
    });
    expect(stored?.psaCreatedAt?.toISOString()).toBe('2025-10-02T08:15:30.123Z');
    expect(stored?.psaClosedAt?.toISOString()).toBe('2025-10-03T09:00:00.000Z');
    // The same copy again changes nothing; an older one (earlier updatedAt) never overwrites it; a newer one does.
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [copy])).toBe(0);
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ ...copy, summary: 'Older', updatedAt: new Date('2025-10-01T00:00:00Z') }])).toBe(0);
    expect((await read())?.summary).toBe(awkward);
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ ...copy, summary: 'Newer', timeSpentMinutes: null, updatedAt: new Date('2025-10-04T00:00:00Z') }])).toBe(1);
    expect(await read()).toMatchObject({ summary: 'Newer', timeSpentMinutes: null, contactName: "Zoë O'Brien" });
    // A ConnectWise ticket row carries no resolution (it is a note): a reread keeps the one the copy holds, and changes nothing else.
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ ...copy, summary: 'Newer', timeSpentMinutes: null, resolution: null, updatedAt: new Date('2025-10-04T00:00:00Z') }])).toBe(0);
    expect(await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ ...copy, summary: 'Reread', timeSpentMinutes: null, resolution: null, updatedAt: new Date('2025-10-05T00:00:00Z') }])).toBe(1);
    expect(await read()).toMatchObject({ summary: 'Reread', resolution: 'Back\\slash\nand "quotes"' });
    // A resolution the PSA does send replaces it.
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [{ ...copy, summary: 'Reread', resolution: 'Replaced the toner', updatedAt: new Date('2025-10-06T00:00:00Z') }]);
    expect((await read())?.resolution).toBe('Replaced the toner');
  });
});

describe('Autotask boards map to existing picklist values (decisions #17)', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let queueId: number;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp('autotask'));
    const [queue] = await directClient('autotask').listBoards();
    if (!queue) throw new Error('the simulator has no Autotask queue');
    queueId = queue.id;
  });

  it('reads the queue, saves a mapping through autotaskConfigV2 (SLA default 8 h) and refuses to create', async () => {
    const merged = await mergedBoard(admin, msp, queueId);
    expect(merged.psaType).toBe('AUTOTASK');
    expect(merged.canCreate).toEqual({ types: false, subTypes: false, statuses: false, boards: false });
    const issueType = merged.mspConnectWiseBoardTypes.find((type) => type.mspConnectWiseBoardSubTypes.length > 0);
    if (!issueType) throw new Error('no Autotask issue type with sub-issue types');
    const [sub] = issueType.mspConnectWiseBoardSubTypes;
    expect(sub?.slaDeadLineInHours).toBe(8);
    const queue = {
      queueId,
      queueName: merged.boardName,
      newTicketStatusId: merged.newCreatingTicketStatusId,
      closingStatusId: merged.closingTicketStatusId,
      issueTypes: [{ value: issueType.typeId, label: issueType.typeName, subIssueTypes: [{ value: sub?.subTypeId, label: sub?.subTypeName, priorityScore: 30, subTypeScore: 'x', slaDeadlineInHours: 'soon', tier: 'Tier3' }] }],
    };
    const saved = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, { psaType: 'AUTOTASK', autotaskConfigV2: { ticketQueueDetails: [queue] } });
    expect(saved.statusCode, saved.body).toBe(200);
    const config = saved.json<TTicketingConfiguration>();
    expect(config.connectWiseConfig).toBeUndefined();
    expect(config.autotaskConfigV2?.ticketQueueDetails[0]?.issueTypes[0]?.subIssueTypes[0]).toMatchObject({ priorityScore: 30, subTypeScore: 0, slaDeadlineInHours: 8, tier: 'Tier3' });

    const createNew = await admin.post(`/db/${msp.customDomain}/addUpdatePSATicketingConfiguration`, {
      autotaskConfigV2: { ticketQueueDetails: [{ ...queue, issueTypes: [{ value: null, label: 'Brand new', isNew: true, subIssueTypes: [] }] }] },
    });
    expect(createNew.json()).toMatchObject({ status: 400, detail: MESSAGES.boards.autotaskCreateNotAllowed });
    for (const path of [`/psa/createStatus?${q(msp, { boardId: queueId, statusName: 'X' })}`, `/psa/createCategory?${q(msp, { boardId: queueId, categoryName: 'X' })}`]) {
      expect((await admin.post(path)).json()).toMatchObject({ status: 422, code: 'psa_validation', detail: MESSAGES.boards.autotaskCreateNotAllowed, flags: { notSupported: true } });
    }
    expect((await admin.post(`/psa/createConnectWiseBoard?${q(msp)}`, { name: 'Q', department: { id: 1 }, location: { id: 1 } })).json()).toMatchObject({ status: 422, flags: { notSupported: true } });
  });
});

describe('access: session, tenant, permission and CSRF on every board call', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let plainTechnician: TestClient;
  let clientUser: TestClient;
  let otherAdmin: TestClient;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp('connectwise'));
    const role = await insertCustomRole(t.deps.database.db, msp.id, 'Dispatch only', permissionMap(['technicianUserManagement']));
    plainTechnician = await signedInClient(t, await buildUser(t, msp, { roleId: role.id }));
    clientUser = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    const other = await buildMsp(t);
    otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
  });

  const calls = (domain: string) => [
    { method: 'GET', url: `/db/${domain}/getPSATicketingConfiguration`, anyUser: true },
    { method: 'POST', url: `/db/${domain}/addUpdatePSATicketingConfiguration`, body: { connectWiseConfig: {} } },
    { method: 'GET', url: '/db/default-et7-board-template/connectWiseManageDetails', sessionTenant: true },
    { method: 'GET', url: `/db/${domain}/psaTicketingConfiguration/defaultCompanyOptions` },
    { method: 'GET', url: `/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${domain}&boardId=1` },
    { method: 'GET', url: `/psa/getMergedConnectwiseCategorizationWithoutGPT?mspCustomDomain=${domain}&boardId=1` },
    { method: 'POST', url: `/psa/createStatus?mspCustomDomain=${domain}&boardId=1&statusName=A` },
    { method: 'POST', url: `/psa/createCategory?mspCustomDomain=${domain}&boardId=1&categoryName=A` },
    { method: 'POST', url: `/psa/createSubCategory?mspCustomDomain=${domain}&boardId=1&categoryId=1&subCategoryName=A` },
    { method: 'POST', url: `/psa/createConnectWiseBoard?mspCustomDomain=${domain}`, body: { name: 'A' } },
    { method: 'POST', url: `/psa/createDefaultBoardSetup?mspCustomDomain=${domain}&boardId=1`, body: { types: [{ typeName: 'A', subTypes: [] }] } },
    { method: 'POST', url: '/psa/applyGPTScoringToConnectWiseCategorization', body: { mspCustomDomain: domain, board: { boardId: 1 } }, sessionTenant: true },
  ];

  it('401 without a session, 404 for another MSP, 403 without boardView/mspIntegrations, 403 csrf without the header', async () => {
    const anonymous = new TestClient(t.app);
    for (const call of calls(msp.customDomain)) {
      const send = (client: TestClient, options: { csrf?: boolean } = {}) => client.request({ method: call.method, url: call.url, ...(call.body ? { payload: call.body } : {}), ...options });
      expect((await send(anonymous)).statusCode, call.url).toBe(401);
      // Another MSP's admin names this MSP: 404 (an MSP in the path, query or body that is not theirs).
      if (!call.url.startsWith('/db/default-et7')) expect((await send(otherAdmin)).statusCode, call.url).toBe(404);
      if (call.anyUser) {
        expect((await send(clientUser)).statusCode, call.url).toBe(200);
      } else {
        expect((await send(plainTechnician)).json(), call.url).toMatchObject({ status: 403, code: 'forbidden' });
        expect((await send(clientUser)).statusCode, call.url).toBe(403);
      }
      if (call.method === 'POST') expect((await send(admin, { csrf: false })).json(), call.url).toMatchObject({ status: 403, code: 'csrf' });
    }
  });
});
