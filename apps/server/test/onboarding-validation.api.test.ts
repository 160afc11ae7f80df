// Issue #7's audit: every call of the onboarding groups ("Integrations & PSA setup", "Boards &
// categorisation", "Imports/streams", "Batch sync", A-046/A-053/A-054) answers bad input with a 400 whose
// detail a person can act on and the field it is about. The access matrix proves 4xx for malformed input;
// this file pins the words. Success paths live in each module's own API test.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { simulatorPsaClient, buildConnectedMsp, withSimulatorApp } from './psa-simulator';
import type { TestClient, TTestApp } from './test-app';
import type { TTestMsp } from './factories';

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

interface TBadCall {
  id: string;
  method: 'GET' | 'POST' | 'PUT';
  url: (d: string) => string;
  body?: object;
  detail: string;
  fields: string[];
}

const BAD_CALLS: TBadCall[] = [
  { id: 'A-005 no client', method: 'GET', url: (d) => `/db/${d}/clientIntegrations/client`, detail: 'Choose a client company.', fields: ['clientId'] },
  { id: 'A-026 no MSP', method: 'GET', url: () => '/psa/getConnectWiseBoards', detail: 'MSP custom domain is required.', fields: ['mspCustomDomain'] },
  { id: 'A-027 no MSP', method: 'GET', url: () => '/psa/getConnectWisePriorities', detail: 'MSP custom domain is required.', fields: ['mspCustomDomain'] },
  { id: 'A-029 no board on ConnectWise', method: 'GET', url: (d) => `/psa/getConnectWiseStatuses?mspCustomDomain=${d}`, detail: 'Choose a board: ConnectWise keeps its statuses per board.', fields: ['boardId'] },
  { id: 'A-029 board not a number', method: 'GET', url: (d) => `/psa/getConnectWiseStatuses?mspCustomDomain=${d}&boardId=abc`, detail: 'Board id must be a number.', fields: ['boardId'] },
  { id: 'A-030 no board', method: 'GET', url: (d) => `/psa/getMergedConnectWiseCategorizationWithoutGPT?mspCustomDomain=${d}`, detail: 'Board id must be a number.', fields: ['boardId'] },
  { id: 'A-031 no MSP', method: 'GET', url: () => '/psa/getConnectWiseDepartments', detail: 'MSP custom domain is required.', fields: ['mspCustomDomain'] },
  { id: 'A-032 no MSP', method: 'GET', url: () => '/psa/getConnectWiseLocations', detail: 'MSP custom domain is required.', fields: ['mspCustomDomain'] },
  { id: 'A-033 no run', method: 'GET', url: () => '/psa/api/batch/status', detail: 'Parent run id is required.', fields: ['parentRunId'] },
  { id: 'A-033 run not an id', method: 'GET', url: () => '/psa/api/batch/status?parentRunId=nope', detail: 'Parent run id must be a valid id.', fields: ['parentRunId'] },
  { id: 'A-034 boards not a list', method: 'POST', url: (d) => `/db/${d}/addUpdatePSATicketingConfiguration`, body: { connectWiseConfig: { boardDetails: 'Help Desk' } }, detail: 'Board details must be a list.', fields: ['connectWiseConfig.boardDetails'] },
  { id: 'A-040 no PSA', method: 'POST', url: (d) => `/db/${d}/integrations/update`, body: {}, detail: 'Send exactly one of connectWiseManageIntegration or autotaskIntegration.', fields: ['connectWiseManageIntegration'] },
  {
    id: 'A-040 ConnectWise without company',
    method: 'POST',
    url: (d) => `/db/${d}/integrations/update`,
    body: { connectWiseManageIntegration: { companyId: '', publicKey: 'pub', privateKey: 'priv', psaUrl: 'https://cw.example.com', clientId: 'client' } },
    detail: 'Company id is required.',
    fields: ['connectWiseManageIntegration.companyId'],
  },
  {
    id: 'A-040 Autotask without secret and code',
    method: 'POST',
    url: (d) => `/db/${d}/integrations/update`,
    body: { autotaskIntegration: { username: 'api@example.com', secret: '', integrationCode: '' } },
    detail: 'Secret is required.',
    fields: ['autotaskIntegration.secret', 'autotaskIntegration.integrationCode'],
  },
  { id: 'A-041 no status', method: 'POST', url: (d) => `/db/${d}/integrations/updateConnectWiseManageIntegrator`, detail: 'Status must be one of: true, false.', fields: ['status'] },
  { id: 'A-041 status not a flag', method: 'POST', url: (d) => `/db/${d}/integrations/updateConnectWiseManageIntegrator?status=maybe`, detail: 'Status must be one of: true, false.', fields: ['status'] },
  { id: 'A-042 nothing chosen', method: 'GET', url: (d) => `/db/${d}/updateClientSync`, detail: 'Client type id must be a number.', fields: ['clientTypeId', 'clientTypeName'] },
  { id: 'A-046 no members', method: 'POST', url: (d) => `/psa/${d}/addPSAMembers`, body: {}, detail: 'Members is required.', fields: ['members'] },
  { id: 'A-047 no board', method: 'POST', url: (d) => `/psa/createStatus?mspCustomDomain=${d}&statusName=Open`, detail: 'Board id must be a number.', fields: ['boardId'] },
  { id: 'A-048 no name', method: 'POST', url: (d) => `/psa/createCategory?mspCustomDomain=${d}&boardId=1`, detail: 'A category name is required.', fields: ['categoryName'] },
  { id: 'A-049 no category', method: 'POST', url: (d) => `/psa/createSubCategory?mspCustomDomain=${d}&boardId=1&subCategoryName=VPN`, detail: 'Category id must be a number.', fields: ['categoryId'] },
  { id: 'A-050 no title', method: 'POST', url: (d) => `/psa/createConnectWiseBoard?mspCustomDomain=${d}`, body: {}, detail: 'A board title is required.', fields: ['name'] },
  { id: 'A-051 no types', method: 'POST', url: (d) => `/psa/createDefaultBoardSetup?mspCustomDomain=${d}&boardId=1`, body: { types: [] }, detail: 'Types needs at least 1 entry.', fields: ['types'] },
  { id: 'A-051 no board', method: 'POST', url: (d) => `/psa/createDefaultBoardSetup?mspCustomDomain=${d}`, body: { types: [{ typeName: 'Email', subTypes: [] }] }, detail: 'Board id must be a number.', fields: ['boardId'] },
  { id: 'A-052 no board', method: 'POST', url: () => '/psa/applyGPTScoringToConnectWiseCategorization', body: {}, detail: 'Board is required.', fields: ['board'] },
  { id: 'A-053 no board', method: 'POST', url: (d) => `/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${d}`, body: {}, detail: 'Please select a board.', fields: ['boardId'] },
  { id: 'A-054 team not an id', method: 'PUT', url: () => '/psa/api/teams/addMembers/abc', body: [], detail: 'Team id must be a valid id.', fields: ['teamId'] },
];

describe('onboarding calls answer bad input in plain words', () => {
  let msp: TTestMsp;
  let admin: TestClient;

  beforeAll(async () => {
    ({ msp, admin } = await buildConnectedMsp(t, sim, 'connectwise'));
  });

  for (const call of BAD_CALLS) {
    it(`${call.id}: "${call.detail}"`, async () => {
      const response = await admin.request({ method: call.method, url: call.url(msp.customDomain), ...(call.body !== undefined ? { payload: call.body } : {}) });
      expect(response.statusCode, response.body).toBe(400);
      const problem = response.json<{ code: string; detail: string; invalidParams: { name: string }[] }>();
      expect(problem).toMatchObject({ code: 'validation', detail: call.detail });
      expect(problem.invalidParams.map((param) => param.name)).toEqual(call.fields);
    });
  }
});

describe('A-029 statuses without a board', () => {
  it('Autotask keeps one status list, so no board is needed there', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'autotask');
    const response = await admin.get(`/psa/getConnectWiseStatuses?mspCustomDomain=${msp.customDomain}`);
    expect(response.statusCode, response.body).toBe(200);
    const statuses = await simulatorPsaClient(sim, 'autotask', 'validation-direct-at').listStatuses(null);
    expect(statuses.length).toBeGreaterThan(0);
    expect(response.json()).toEqual(statuses);
  });
});
