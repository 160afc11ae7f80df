import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionMap, type TClientUserList } from '@switchboard/contracts';
import { psaCompanies, roles } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { newClient, nextIp } from '../auth/auth-test-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A synchronized PSA company of this MSP (users point at it by row id, tenant-checked by the database). */
async function buildCompany(mspId: string, externalId: string): Promise<string> {
  const [row] = await t.deps.database.db.insert(psaCompanies).values({ mspId, psaType: 'CONNECTWISE', externalId, name: `Company ${externalId}` }).returning({ id: psaCompanies.id });
  if (!row) throw new Error('company not created');
  return row.id;
}

describe('A-010 clientUsersOfEachClient', () => {
  it('lists the client users of one company only', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp), nextIp());
    const company = await buildCompany(msp.id, '19');
    await buildUser(t, msp, { kind: 'client', firstName: 'Cara', lastName: 'Brightwater', companyRowId: company, psaCompanyId: '19' });
    await buildUser(t, msp, { kind: 'client', firstName: 'Other', lastName: 'Company', companyRowId: await buildCompany(msp.id, '20') });
    await buildUser(t, msp, { role: 'Technician', companyRowId: company });
    const response = await admin.get(`/db/${msp.customDomain}/clientUsersOfEachClient?clientId=${company}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<TClientUserList>().clientUsers).toEqual([expect.objectContaining({ firstName: 'Cara', roleName: 'Client', psaCompanyId: '19', isActive: true })]);
  });

  it('accepts clientUserManagement, refuses others (403), other tenants (404), no session (401) and a bad id (400)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const [role] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Client managers', custom: true, permissions: permissionMap(['clientUserManagement']) }).returning();
    if (!role) throw new Error('role not created');
    const company = await buildCompany(msp.id, '19');
    await buildUser(t, msp, { kind: 'client', companyRowId: company });
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: role.id }), nextIp());
    expect((await manager.get(`/db/${msp.customDomain}/clientUsersOfEachClient?clientId=${company}`)).json<TClientUserList>().clientUsers).toHaveLength(1);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.get(`/db/${msp.customDomain}/clientUsersOfEachClient?clientId=${company}`)).statusCode).toBe(403);
    expect((await manager.get(`/db/${other.customDomain}/clientUsersOfEachClient?clientId=${company}`)).statusCode).toBe(404);
    const stranger = await signedInClient(t, await buildUser(t, other), nextIp());
    expect((await stranger.get(`/db/${other.customDomain}/clientUsersOfEachClient?clientId=${company}`)).statusCode).toBe(404);
    expect((await newClient(t).get(`/db/${msp.customDomain}/clientUsersOfEachClient?clientId=${company}`)).statusCode).toBe(401);
    expect((await manager.get(`/db/${msp.customDomain}/clientUsersOfEachClient?clientId=acme`)).statusCode).toBe(400);
  });
});
