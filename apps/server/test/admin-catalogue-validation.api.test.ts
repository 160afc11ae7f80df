import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from './factories';
import { createTestApp, type TestClient, type TTestApp } from './test-app';

/**
 * Issue #8 "Done when": every call of the catalogue groups Technicians & employees, Client users,
 * Companies & contacts, Teams and A-005 words each bad input in a sentence a person can act on (400 with
 * the field named), and an id of nothing in this MSP is a 404. Success, 401, 403, wrong tenant and CSRF
 * are in each module's tests and the generated access matrix; the form-level messages (new employee,
 * add contact, teams) in the module tests. This table covers the query and path inputs that had none.
 */

let t: TTestApp;
let msp: TTestMsp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  admin = await signedInClient(t, await buildUser(t, msp));
});
afterAll(async () => t.close());

type TCase = { call: string; method: 'GET' | 'PUT' | 'DELETE' | 'POST'; url: (domain: string) => string; body?: unknown; status: number; detail: string; field?: string };

const NOBODY = '00000000-0000-4000-8000-000000000000';
const CASES: TCase[] = [
  { call: 'A-001 no id', method: 'GET', url: (d) => `/db/${d}/technicianUsers/getById`, status: 400, detail: 'Id is required.', field: 'id' },
  { call: 'A-001 malformed id', method: 'GET', url: (d) => `/db/${d}/technicianUsers/getById?id=abc`, status: 400, detail: 'Id must be a valid id.', field: 'id' },
  { call: 'A-002 malformed id', method: 'GET', url: (d) => `/db/${d}/clientUsers/getById?id=abc`, status: 400, detail: 'Id must be a valid id.', field: 'id' },
  { call: 'A-003 malformed client database id', method: 'GET', url: (d) => `/db/${d}/getClientsByPSAAutopilotId?psaAutopilotId=abc`, status: 400, detail: 'Use the client database id.', field: 'psaAutopilotId' },
  { call: 'A-005 malformed client id', method: 'GET', url: (d) => `/db/${d}/clientIntegrations/client?clientId=abc`, status: 400, detail: 'Choose a client company.', field: 'clientId' },
  { call: 'A-005 unknown client', method: 'GET', url: (d) => `/db/${d}/clientIntegrations/client?clientId=${NOBODY}`, status: 404, detail: 'Not found.' },
  { call: 'A-010 no client id', method: 'GET', url: (d) => `/db/${d}/clientUsersOfEachClient`, status: 400, detail: 'Client id is required.', field: 'clientId' },
  { call: 'A-012 no MSP', method: 'GET', url: () => '/db/api/teams/getByMspCustomDomain', status: 400, detail: 'MSP custom domain is required.', field: 'mspCustomDomain' },
  { call: 'A-025 no MSP', method: 'GET', url: () => '/psa/getCompanyTypes', status: 400, detail: 'MSP custom domain is required.', field: 'mspCustomDomain' },
  { call: 'A-028 no MSP', method: 'GET', url: () => '/psa/getCommunicationTypes', status: 400, detail: 'MSP custom domain is required.', field: 'mspCustomDomain' },
  { call: 'A-024 no MSP', method: 'GET', url: () => '/psa/psa/getMembers', status: 400, detail: 'MSP custom domain is required.', field: 'mspCustomDomain' },
  { call: 'A-036 unknown tier', method: 'PUT', url: (d) => `/db/${d}/technicianUsers/edit`, body: { email: 'nobody@example.com', tierLevel: 'Tier9' }, status: 400, detail: 'Tier must be one of: Tier1, Tier2, Tier3, NoTier.', field: 'tierLevel' },
  { call: 'A-036 unknown person', method: 'PUT', url: (d) => `/db/${d}/technicianUsers/edit`, body: { email: 'nobody@example.com', tierLevel: 'Tier1' }, status: 404, detail: 'Not found.' },
  { call: 'A-037 malformed role', method: 'PUT', url: (d) => `/db/${d}/clientUsers/edit`, body: { email: 'nobody@example.com', roleId: 'abc' }, status: 400, detail: 'Role must be a valid id.', field: 'roleId' },
  { call: 'A-038 no id', method: 'GET', url: (d) => `/db/${d}/technicianUsers/delete`, status: 400, detail: 'Id is required.', field: 'id' },
  { call: 'A-038 malformed id', method: 'GET', url: (d) => `/db/${d}/technicianUsers/delete?id=abc`, status: 400, detail: 'Id must be a valid id.', field: 'id' },
  { call: 'A-038 unknown employee', method: 'GET', url: (d) => `/db/${d}/technicianUsers/delete?id=${NOBODY}`, status: 404, detail: 'Not found.' },
  { call: 'A-039 malformed id', method: 'GET', url: (d) => `/db/${d}/updateConnectWiseMemberTier?id=abc&tier=Tier1`, status: 400, detail: 'Id must be a valid id.', field: 'id' },
  { call: 'A-039 unknown employee', method: 'GET', url: (d) => `/db/${d}/updateConnectWiseMemberTier?id=${NOBODY}&tier=Tier1`, status: 404, detail: 'Not found.' },
  { call: 'A-046 empty selection', method: 'POST', url: (d) => `/psa/${d}/addPSAMembers`, body: { members: [] }, status: 400, detail: 'Select at least one PSA member to import.', field: 'members' },
  { call: 'A-054 unknown team', method: 'PUT', url: () => `/psa/api/teams/addMembers/${NOBODY}`, body: [], status: 404, detail: 'Not found.' },
  { call: 'A-055 no e-mail', method: 'DELETE', url: () => `/psa/api/teams/removeMember/${NOBODY}`, status: 400, detail: 'Email is required.', field: 'emailId' },
  { call: 'A-055 unknown team', method: 'DELETE', url: () => `/psa/api/teams/removeMember/${NOBODY}?emailId=someone@example.com`, status: 404, detail: 'Not found.' },
  { call: 'A-063 unknown team', method: 'PUT', url: () => `/psa/api/teams/update/${NOBODY}`, body: { teamName: 'Night shift' }, status: 404, detail: 'Not found.' },
  { call: 'A-064 malformed team id', method: 'GET', url: () => '/db/api/teams/getById/abc', status: 400, detail: 'Team id must be a valid id.', field: 'teamId' },
  { call: 'A-064 unknown team', method: 'GET', url: () => `/db/api/teams/getById/${randomUUID()}`, status: 404, detail: 'Not found.' },
];

describe('admin catalogue calls: each bad input is a sentence, an unknown id a 404', () => {
  it.each(CASES)('$call → $status "$detail"', async ({ method, url, body, status, detail, field }) => {
    const target = url(msp.customDomain);
    const response = method === 'GET' ? await admin.get(target) : method === 'DELETE' ? await admin.delete(target) : method === 'PUT' ? await admin.put(target, body) : await admin.post(target, body);
    expect(response.statusCode, response.body).toBe(status);
    const problem = response.json<{ detail: string; invalidParams?: Array<{ name: string; reason: string }> }>();
    expect(problem.detail).toBe(detail);
    if (field !== undefined) expect(problem.invalidParams).toContainEqual({ name: field, reason: detail });
  });
});
