import { describe, expect, it } from 'vitest';
import { MESSAGES, permissionMap, type TEmployeePage, type TPermission } from '@switchboard/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { roles, users } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { newClient, nextIp } from '../auth/auth-test-helpers';

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

async function customRole(msp: TTestMsp, name: string, permissions: TPermission[]): Promise<string> {
  const [role] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name, custom: true, permissions: permissionMap(permissions) }).returning();
  if (!role) throw new Error('role not created');
  return role.id;
}

async function adminOf(msp: TTestMsp): Promise<TestClient> {
  return signedInClient(t, await buildUser(t, msp), nextIp());
}

const listPath = (msp: TTestMsp, which: 'active' | 'inactive', query = '') => `/db/${msp.customDomain}/technicianUsers/${which}Technicians${query}`;

describe('A-007 active technicians and the inactive list', () => {
  it('pages 30 at a time, searches names and emails, filters by role and by PSA link', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    for (let index = 0; index < 31; index += 1) await buildUser(t, msp, { role: 'Technician', firstName: `Tech${String(index).padStart(2, '0')}`, lastName: 'Zulu' });
    await buildUser(t, msp, { role: 'Technician', firstName: 'Linked', lastName: 'Member', psaMemberId: '42' });
    await buildUser(t, msp, { kind: 'client', firstName: 'Client', lastName: 'Person' });

    const first = (await admin.get(listPath(msp, 'active'))).json<TEmployeePage>();
    expect(first).toMatchObject({ total: 33, page: 1, pageSize: 30 });
    expect(first.employees).toHaveLength(30);
    const second = (await admin.get(listPath(msp, 'active', '?page=2'))).json<TEmployeePage>();
    expect(second.employees).toHaveLength(3);
    expect(new Set([...first.employees, ...second.employees].map((employee) => employee.id)).size).toBe(33);

    const searched = (await admin.get(listPath(msp, 'active', '?search=tech0'))).json<TEmployeePage>();
    expect(searched.total).toBe(10);
    expect(searched.employees.every((employee) => employee.firstName.startsWith('Tech0'))).toBe(true);
    const byFullName = (await admin.get(listPath(msp, 'active', `?search=${encodeURIComponent('Linked Mem')}`))).json<TEmployeePage>();
    expect(byFullName.employees.map((employee) => employee.firstName)).toEqual(['Linked']);
    const wildcard = (await admin.get(listPath(msp, 'active', '?search=%25'))).json<TEmployeePage>();
    expect(wildcard.total).toBe(0);

    const admins = (await admin.get(listPath(msp, 'active', `?roleId=${msp.roleIds.Admin}`))).json<TEmployeePage>();
    expect(admins.employees.map((employee) => employee.roleName)).toEqual(['Admin']);
    const linked = (await admin.get(listPath(msp, 'active', '?hasPsaMember=true'))).json<TEmployeePage>();
    expect(linked.employees.map((employee) => employee.psaMemberId)).toEqual(['42']);
    expect((await admin.get(listPath(msp, 'inactive'))).json<TEmployeePage>()).toMatchObject({ total: 0, employees: [] });
  });

  it('answers a bad filter with a plain 400, and refuses without permission, session or tenant', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await adminOf(msp);
    const bad = await admin.get(listPath(msp, 'active', '?roleId=admins'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toMatch(/Role/);
    expect((await admin.get(listPath(msp, 'active', '?page=0'))).statusCode).toBe(400);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.get(listPath(msp, 'active'))).statusCode).toBe(403);
    expect((await technician.get(listPath(msp, 'inactive'))).statusCode).toBe(403);
    expect((await admin.get(listPath(other, 'active'))).statusCode).toBe(404);
    expect((await newClient(t).get(listPath(msp, 'inactive'))).statusCode).toBe(401);
  });
});

describe('A-038 delete (soft)', () => {
  it('makes the employee inactive, ends their sessions and lists them under Inactive', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const tech = await buildUser(t, msp, { role: 'Technician', firstName: 'Leaving' });
    const techSession = await signedInClient(t, tech, nextIp());
    const ownRecord = `/db/${msp.customDomain}/technicianUsers/getById?id=${tech.id}`;
    expect((await techSession.get(ownRecord)).statusCode).toBe(200);

    const response = await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ employee: { id: tech.id, isActive: false } });
    expect((await techSession.get(ownRecord)).statusCode).toBe(401);
    expect((await admin.get(listPath(msp, 'inactive'))).json<TEmployeePage>().employees.map((employee) => employee.firstName)).toEqual(['Leaving']);
    expect((await admin.get(listPath(msp, 'active'))).json<TEmployeePage>().employees.map((employee) => employee.id)).not.toContain(tech.id);
    const again = await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`);
    expect(again.json()).toMatchObject({ status: 409, detail: MESSAGES.employees.alreadyInactive });
  });

  it('refuses deleting oneself, saying why; another admin may delete them', async () => {
    const msp = await buildMsp(t);
    const onlyAdmin = await buildUser(t, msp);
    const adminSession = await signedInClient(t, onlyAdmin, nextIp());
    expect((await adminSession.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${onlyAdmin.id}`)).json()).toMatchObject({ status: 409, detail: MESSAGES.employees.cannotDeleteSelf });

    // Whoever may act on the last person who can manage roles holds Role management too (review s26 #2), so deleting
    // that person shows lastRoleManager only when two such changes race (below); another admin may delete them.
    const secondAdmin = await signedInClient(t, await buildUser(t, msp, { firstName: 'Second', lastName: 'Admin' }), nextIp());
    expect((await secondAdmin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${onlyAdmin.id}`)).statusCode).toBe(200);
  });

  it('needs the CSRF header, the permission, a session and the same tenant', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await adminOf(msp);
    const tech = await buildUser(t, msp, { role: 'Technician' });
    const stranger = await buildUser(t, other, { role: 'Technician' });
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`)).statusCode).toBe(403);
    expect((await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`)).statusCode).toBe(401);
    expect((await admin.get(`/db/${other.customDomain}/technicianUsers/delete?id=${stranger.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${stranger.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=nope`)).statusCode).toBe(400);
    expect((await admin.get(listPath(msp, 'active'))).json<TEmployeePage>().total).toBe(3);
  });
});

describe('restore (addition)', () => {
  it('brings a deleted employee back to the Active list; refuses an active one, no CSRF header, no permission, another tenant', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await adminOf(msp);
    const tech = await buildUser(t, msp, { role: 'Technician', firstName: 'Returning' });
    const restorePath = `/db/${msp.customDomain}/technicianUsers/restore?id=${tech.id}`;
    expect((await admin.post(restorePath)).json()).toMatchObject({ status: 409, detail: MESSAGES.employees.alreadyActive });
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${tech.id}`)).statusCode).toBe(200);
    expect((await admin.post(restorePath, undefined, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await (await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp())).post(restorePath)).statusCode).toBe(403);
    expect((await admin.post(`/db/${other.customDomain}/technicianUsers/restore?id=${tech.id}`)).statusCode).toBe(404);
    expect((await newClient(t).post(restorePath)).statusCode).toBe(401);
    expect((await admin.post(restorePath)).json()).toMatchObject({ employee: { id: tech.id, isActive: true } });
    expect((await admin.get(listPath(msp, 'active', '?search=Returning'))).json<TEmployeePage>().total).toBe(1);
    expect((await signedInClient(t, tech, nextIp()).then((client) => client.get(`/db/${msp.customDomain}/technicianUsers/getById?id=${tech.id}`))).statusCode).toBe(200);
  });
});

describe('A-039 updateConnectWiseMemberTier', () => {
  it('sets a technician’s tier, NoTier included', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const tech = await buildUser(t, msp, { role: 'Technician' });
    const response = await admin.get(`/db/${msp.customDomain}/updateConnectWiseMemberTier?id=${tech.id}&tier=NoTier`);
    expect(response.json()).toMatchObject({ employee: { id: tech.id, tierLevel: 'NoTier' } });
    const listed = (await admin.get(listPath(msp, 'active', '?search=Test'))).json<TEmployeePage>();
    expect(listed.employees.find((employee) => employee.id === tech.id)?.tierLevel).toBe('NoTier');
  });

  it('refuses an unknown tier, another tenant, no permission, no session and no CSRF header', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await adminOf(msp);
    const tech = await buildUser(t, msp, { role: 'Technician' });
    const path = (domain: string, tier: string, id = tech.id) => `/db/${domain}/updateConnectWiseMemberTier?id=${id}&tier=${tier}`;
    expect((await admin.get(path(msp.customDomain, 'Tier9'))).statusCode).toBe(400);
    expect((await admin.get(path(other.customDomain, 'Tier2'))).statusCode).toBe(404);
    expect((await admin.get(path(msp.customDomain, 'Tier2', (await buildUser(t, other)).id))).statusCode).toBe(404);
    expect((await (await signedInClient(t, tech, nextIp())).get(path(msp.customDomain, 'Tier2'))).statusCode).toBe(403);
    expect((await newClient(t).get(path(msp.customDomain, 'Tier2'))).statusCode).toBe(401);
    expect((await admin.get(path(msp.customDomain, 'Tier2'), { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await admin.get(listPath(msp, 'active', `?roleId=${msp.roleIds.Technician}`))).json<TEmployeePage>().employees[0]?.tierLevel).toBe('Tier1');
  });
});

describe('roles beyond one’s own and the last role manager (A-035, A-036)', () => {
  it('does not let a staff manager add an employee as Admin', async () => {
    const msp = await buildMsp(t);
    const staffRoleId = await customRole(msp, 'Staff managers', ['technicianUserManagement']);
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: staffRoleId }), nextIp());
    const body = { firstName: 'New', lastName: 'Person', email: 'new.person@example.com', phoneNumber: '3035550123', password: 'Passw0rd!' };
    const refused = await manager.post(`/db/${msp.customDomain}/technicianUsers/add`, { ...body, roleId: msp.roleIds.Admin });
    expect(refused.json()).toMatchObject({ status: 403, detail: MESSAGES.roleGrantTooBroad });
    expect((await manager.post(`/db/${msp.customDomain}/technicianUsers/add`, { ...body, roleId: staffRoleId })).statusCode).toBe(201);
  });

  it('does not let the last admin demote themself, but does once another admin exists', async () => {
    const msp = await buildMsp(t);
    const admin = await buildUser(t, msp);
    const session = await signedInClient(t, admin, nextIp());
    const demote = () => session.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: admin.email, roleId: msp.roleIds.Technician });
    expect((await demote()).json()).toMatchObject({ status: 409, detail: MESSAGES.employees.lastRoleManager });
    await buildUser(t, msp);
    expect((await demote()).json()).toMatchObject({ user: { roleName: 'Technician' } });
  });
});

// Regression (review s26 #1): the count took in users who cannot sign in (an imported Admin with no password yet, a
// client user holding a role-managing role), so the only admin who can sign in could demote themself and lock the MSP out.
describe('only people who can sign in count as someone who can manage roles (decision 025)', () => {
  it('refuses the only admin who can sign in demoting themself while the other Admin has no password or is a client', async () => {
    const msp = await buildMsp(t);
    const admin = await buildUser(t, msp);
    await buildUser(t, msp, { password: null, firstName: 'Imported', lastName: 'Admin' });
    await buildUser(t, msp, { kind: 'client', roleId: msp.roleIds.Admin });
    const session = await signedInClient(t, admin, nextIp());
    const demote = await session.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: admin.email, roleId: msp.roleIds.Technician });
    expect(demote.json()).toMatchObject({ status: 409, detail: MESSAGES.employees.lastRoleManager });
    expect((await session.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(200);
    const [stored] = await t.deps.database.db.select({ roleId: users.roleId }).from(users).where(and(eq(users.mspId, msp.id), eq(users.id, admin.id)));
    expect(stored?.roleId).toBe(msp.roleIds.Admin);

    // Once another Admin can sign in, the first may step down.
    await buildUser(t, msp, { firstName: 'Second', lastName: 'Admin' });
    expect((await session.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: admin.email, roleId: msp.roleIds.Technician })).json()).toMatchObject({ user: { roleName: 'Technician' } });
  });
});

// Regression (review s26 #2): a staff manager (technicianUserManagement only) could deactivate, restore and demote an
// Admin, because only the role handed out was checked, never the role of the person acted on.
describe('nobody acts on someone whose role holds more than their own', () => {
  it('refuses a staff manager deleting, restoring and demoting an Admin (403), and leaves the Admins as they were', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const activeAdmin = await buildUser(t, msp, { firstName: 'Active', lastName: 'Admin' });
    const formerAdmin = await buildUser(t, msp, { firstName: 'Former', lastName: 'Admin' });
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${formerAdmin.id}`)).statusCode).toBe(200);
    const staffRoleId = await customRole(msp, 'Staff managers', ['technicianUserManagement']);
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: staffRoleId }), nextIp());

    const deleted = await manager.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${activeAdmin.id}`);
    expect(deleted.json()).toMatchObject({ status: 403, detail: MESSAGES.roleTargetTooBroad });
    const restored = await manager.post(`/db/${msp.customDomain}/technicianUsers/restore?id=${formerAdmin.id}`);
    expect(restored.json()).toMatchObject({ status: 403, detail: MESSAGES.roleTargetTooBroad });
    const demoted = await manager.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: activeAdmin.email, roleId: staffRoleId });
    expect(demoted.json()).toMatchObject({ status: 403, detail: MESSAGES.roleTargetTooBroad });

    const stored = await t.deps.database.db.select({ id: users.id, isActive: users.isActive, roleId: users.roleId }).from(users).where(eq(users.mspId, msp.id));
    expect(stored.find((user) => user.id === activeAdmin.id)).toMatchObject({ isActive: true, roleId: msp.roleIds.Admin });
    expect(stored.find((user) => user.id === formerAdmin.id)).toMatchObject({ isActive: false, roleId: msp.roleIds.Admin });

    // Someone whose role holds nothing the manager lacks is still theirs to manage.
    const peer = await buildUser(t, msp, { roleId: staffRoleId });
    const newcomersId = await customRole(msp, 'Newcomers', []);
    expect((await manager.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: peer.email, roleId: newcomersId })).statusCode).toBe(200);
    expect((await manager.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${peer.id}`)).statusCode).toBe(200);
    expect((await manager.post(`/db/${msp.customDomain}/technicianUsers/restore?id=${peer.id}`)).statusCode).toBe(200);
  });
});

// Regression (decision 044): only deleting, restoring and re-roling checked the person acted on, so a people manager whose
// role lacks some of an Admin's permissions could still set the Admin's tier to NoTier (stopping their queue), rename
// them, change their phone or link their account to a PSA member.
describe('decision 044: a lesser people manager changes nothing of a richer colleague', () => {
  const peopleManagerPermissions: TPermission[] = ['technicianUserManagement', 'boardView', 'clientDocuments', 'mspDocuments'];
  const storedPerson = async (msp: TTestMsp, userId: string) => {
    const [row] = await t.deps.database.db
      .select({ firstName: users.firstName, lastName: users.lastName, phone: users.phone, tierLevel: users.tierLevel, roleId: users.roleId, psaMemberId: users.psaMemberId })
      .from(users)
      .where(and(eq(users.mspId, msp.id), eq(users.id, userId)));
    return row;
  };

  it('refuses the tier and every field of the edit on an Admin (403, nothing changed); a same-or-lesser colleague and oneself still change', async () => {
    const msp = await buildMsp(t);
    const richer = await buildUser(t, msp, { firstName: 'Ada', lastName: 'Admin', tierLevel: 'Tier2' });
    const managerRoleId = await customRole(msp, 'People managers', peopleManagerPermissions);
    const managerUser = await buildUser(t, msp, { roleId: managerRoleId, firstName: 'Manny', lastName: 'Manager' });
    const manager = await signedInClient(t, managerUser, nextIp());
    // The brief's case: a role with nothing but Technician user management.
    const staffOnly = await signedInClient(t, await buildUser(t, msp, { roleId: await customRole(msp, 'Staff managers', ['technicianUserManagement']) }), nextIp());
    const before = await storedPerson(msp, richer.id);

    for (const session of [manager, staffOnly]) {
      const tier = await session.get(`/db/${msp.customDomain}/updateConnectWiseMemberTier?id=${richer.id}&tier=NoTier`);
      expect(tier.json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleTargetTooBroad });
      for (const edit of [{ firstName: 'Renamed' }, { lastName: 'Renamed' }, { phoneNumber: '3035550199' }, { tierLevel: 'NoTier' }]) {
        const answer = await session.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: richer.email, ...edit });
        expect(answer.json(), JSON.stringify(edit)).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleTargetTooBroad });
      }
    }
    expect(await storedPerson(msp, richer.id)).toEqual(before);

    // A colleague whose role holds nothing the manager lacks (the built-in Technician, or the manager's own role).
    const technician = await buildUser(t, msp, { role: 'Technician' });
    const peer = await buildUser(t, msp, { roleId: managerRoleId });
    expect((await manager.get(`/db/${msp.customDomain}/updateConnectWiseMemberTier?id=${technician.id}&tier=NoTier`)).json()).toMatchObject({ employee: { id: technician.id, tierLevel: 'NoTier' } });
    const renamed = await manager.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: peer.email, firstName: 'Petra', phoneNumber: '3035550123', tierLevel: 'Tier3' });
    expect(renamed.json()).toMatchObject({ user: { id: peer.id, firstName: 'Petra', phoneNumber: '3035550123', tierLevel: 'Tier3' } });
    // Oneself: one's own names, phone and tier.
    expect((await manager.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: managerUser.email, lastName: 'Renamed', phoneNumber: '3035550124' })).json()).toMatchObject({ user: { lastName: 'Renamed', phoneNumber: '3035550124' } });
    expect((await manager.get(`/db/${msp.customDomain}/updateConnectWiseMemberTier?id=${managerUser.id}&tier=Tier2`)).json()).toMatchObject({ employee: { tierLevel: 'Tier2' } });
    // An Admin still changes another Admin.
    const admin = await adminOf(msp);
    expect((await admin.get(`/db/${msp.customDomain}/updateConnectWiseMemberTier?id=${richer.id}&tier=Tier3`)).json()).toMatchObject({ employee: { tierLevel: 'Tier3' } });
    expect((await admin.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: richer.email, firstName: 'Adele' })).json()).toMatchObject({ user: { firstName: 'Adele' } });
  });

  it('refuses linking an Admin account to a PSA member on import (403, not linked), and links a lesser colleague', async () => {
    const { msp } = await buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() });
    const [first, second] = (await simulatorPsaClient(sim, 'connectwise', 'direct-employees').listMembers()).filter((member) => member.email);
    if (!first?.email || !second?.email) throw new Error('the demo PSA needs two members with e-mails');
    // Accounts without a PSA link that hold the members' addresses (decision 042 links them on import).
    const richer = await buildUser(t, msp, { email: first.email, firstName: 'Ada', lastName: 'Admin' });
    const lesser = await buildUser(t, msp, { role: 'Technician', email: second.email });
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: await customRole(msp, 'People managers', peopleManagerPermissions) }), nextIp());

    const refused = await manager.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: String(first.id) }, { psaMemberId: String(second.id) }] });
    expect(refused.json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleTargetTooBroad });
    expect(await storedPerson(msp, richer.id)).toMatchObject({ psaMemberId: null, roleId: msp.roleIds.Admin });
    expect(await storedPerson(msp, lesser.id)).toMatchObject({ psaMemberId: null });

    const linked = await manager.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: String(second.id) }] });
    expect(linked.statusCode, linked.body).toBe(201);
    expect(await storedPerson(msp, lesser.id)).toMatchObject({ psaMemberId: String(second.id), roleId: msp.roleIds.Technician });
  });
});

// Regression (decision 025): the check ran before the write, outside its transaction and without a lock, so two changes
// at the same moment both passed it and left the MSP with nobody active who can manage roles.
describe('two changes at the same moment never remove the last person who can manage roles', () => {
  const activeRoleManagers = async (msp: TTestMsp) => {
    const rows = await t.deps.database.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
      .where(and(eq(users.mspId, msp.id), eq(users.isActive, true), sql`(${roles.permissions} ->> 'roleManagement') = 'true'`));
    return rows.length;
  };
  // The later of the two is refused: with 409 and the decision-025 message when both are under way at once, or — when
  // it starts after the first has committed — by the access check, since its sender has just lost the right to ask
  // (403) or their session (401). Either way exactly one change lands.
  const expectOneRefused = (answers: Array<{ statusCode: number; json: () => unknown }>, detail: string) => {
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([401, 403, 409]).toContain(codes[1]);
    const conflict = answers.find((answer) => answer.statusCode === 409);
    if (conflict) expect(conflict.json()).toMatchObject({ status: 409, detail });
  };

  it('two admins who deactivate each other: one succeeds, the other is told why', async () => {
    for (let round = 0; round < 3; round += 1) {
      const msp = await buildMsp(t);
      const [first, second] = [await buildUser(t, msp), await buildUser(t, msp)];
      const [firstSession, secondSession] = [await signedInClient(t, first, nextIp()), await signedInClient(t, second, nextIp())];
      const deleteOf = (userId: string) => `/db/${msp.customDomain}/technicianUsers/delete?id=${userId}`;
      expectOneRefused(await Promise.all([firstSession.get(deleteOf(second.id)), secondSession.get(deleteOf(first.id))]), MESSAGES.employees.lastRoleManager);
      expect(await activeRoleManagers(msp)).toBe(1);
    }
  });

  it('two admins who demote each other: one succeeds, the other is told why', async () => {
    for (let round = 0; round < 3; round += 1) {
      const msp = await buildMsp(t);
      const [first, second] = [await buildUser(t, msp), await buildUser(t, msp)];
      const [firstSession, secondSession] = [await signedInClient(t, first, nextIp()), await signedInClient(t, second, nextIp())];
      const demote = (session: TestClient, email: string) => session.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email, roleId: msp.roleIds.Technician });
      expectOneRefused(await Promise.all([demote(firstSession, second.email), demote(secondSession, first.email)]), MESSAGES.employees.lastRoleManager);
      expect(await activeRoleManagers(msp)).toBe(1);
    }
  });

  it('two role managers who take Role management out of each other\'s role: one succeeds, the other is told why', async () => {
    for (let round = 0; round < 3; round += 1) {
      const msp = await buildMsp(t);
      const [northId, southId] = [await customRole(msp, 'North keepers', ['roleManagement', 'technicianUserManagement']), await customRole(msp, 'South keepers', ['roleManagement', 'technicianUserManagement'])];
      const north = await signedInClient(t, await buildUser(t, msp, { roleId: northId }), nextIp());
      const south = await signedInClient(t, await buildUser(t, msp, { roleId: southId }), nextIp());
      const strip = (session: TestClient, id: string, name: string) =>
        session.post(`/db/${msp.customDomain}/roles/create`, { id, name, permissions: permissionMap(['technicianUserManagement']), mspCustomDomain: msp.customDomain });
      expectOneRefused(await Promise.all([strip(north, southId, 'South keepers'), strip(south, northId, 'North keepers')]), MESSAGES.roleLastRoleManager);
      expect(await activeRoleManagers(msp)).toBe(1);
    }
  });
});

describe('A-006 psaMembers and A-046 addPSAMembers', () => {
  const connected = () => buildConnectedMsp(t, sim, 'connectwise', { ip: nextIp() });
  const directMembers = () => simulatorPsaClient(sim, 'connectwise', 'direct-employees').listMembers();

  it('lists the PSA members not yet imported, imports them with Tier1 and the Technician role, and lists them no more', async () => {
    const { msp, admin } = await connected();
    const psaMembers = (await directMembers()).filter((member) => member.email);
    const candidates = (await admin.get(`/db/${msp.customDomain}/psaMembers`)).json<{ members: Array<{ psaMemberId: string; email: string | null }> }>().members;
    expect(candidates.map((member) => member.psaMemberId).sort()).toEqual((await directMembers()).map((member) => String(member.id)).sort());
    const [first, second] = psaMembers;
    if (!first || !second) throw new Error('the demo PSA needs two members with e-mails');

    const imported = await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: String(first.id) }, { psaMemberId: String(second.id), tierLevel: 'Tier3' }] });
    expect(imported.statusCode).toBe(201);
    expect(imported.json()).toMatchObject({
      added: [
        { psaMemberId: String(first.id), email: first.email, tierLevel: 'Tier1', roleName: 'Technician', isActive: true },
        { psaMemberId: String(second.id), tierLevel: 'Tier3', roleName: 'Technician' },
      ],
    });
    const after = (await admin.get(`/db/${msp.customDomain}/psaMembers`)).json<{ members: Array<{ psaMemberId: string }> }>().members;
    expect(after.map((member) => member.psaMemberId)).not.toContain(String(first.id));
    expect(after).toHaveLength(candidates.length - 2);
    expect((await admin.get(listPath(msp, 'active', '?hasPsaMember=true'))).json<TEmployeePage>().total).toBe(2);

    const twice = await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: String(first.id) }] });
    expect(twice.json()).toMatchObject({ status: 409, detail: MESSAGES.employees.memberAlreadyImported });
  });

  it('words an empty selection, an unknown member, a role beyond one’s own and a missing PSA', async () => {
    const { msp, admin } = await connected();
    expect((await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [] })).json()).toMatchObject({ status: 400, detail: MESSAGES.employees.selectMembers });
    expect((await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: '99999999' }] })).json()).toMatchObject({ status: 404, code: 'psa_not_found' });
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: await customRole(msp, 'Staff managers', ['technicianUserManagement']) }), nextIp());
    const [member] = await directMembers();
    const beyond = await manager.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: String(member?.id) }], roleId: msp.roleIds.Admin });
    expect(beyond.json()).toMatchObject({ status: 403, detail: MESSAGES.employees.roleBeyondOwn });

    const unconnected = await buildMsp(t);
    const unconnectedAdmin = await adminOf(unconnected);
    expect((await unconnectedAdmin.get(`/db/${unconnected.customDomain}/psaMembers`)).json()).toEqual({ members: [] });
    expect((await unconnectedAdmin.post(`/psa/${unconnected.customDomain}/addPSAMembers`, { members: [{ psaMemberId: '1' }] })).json()).toMatchObject({ status: 409, code: 'psa_not_configured' });
  });

  it('refuses without permission, session, CSRF header or tenant', async () => {
    const { msp, admin } = await connected();
    const other = await buildMsp(t);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.get(`/db/${msp.customDomain}/psaMembers`)).statusCode).toBe(403);
    expect((await technician.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: '1' }] })).statusCode).toBe(403);
    expect((await newClient(t).get(`/db/${msp.customDomain}/psaMembers`)).statusCode).toBe(401);
    expect((await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { members: [{ psaMemberId: '1' }] }, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await admin.get(`/db/${other.customDomain}/psaMembers`)).statusCode).toBe(404);
    expect((await admin.post(`/psa/${msp.customDomain}/addPSAMembers`, { mspCustomDomain: other.customDomain, members: [{ psaMemberId: '1' }] })).statusCode).toBe(404);
  });
});
