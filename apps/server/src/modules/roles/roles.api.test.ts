import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, cloneRoleName, MESSAGES, permissionMap, type TRole } from '@switchboard/contracts';
import { auditEvents, roles, users } from '@switchboard/db';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { isPostgresRun, waitForLockWaiter } from '../../../test/lock-waits';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function adminOf(msp: TTestMsp): Promise<TestClient> {
  return signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
}

async function rolesOf(client: TestClient, msp: TTestMsp): Promise<TRole[]> {
  const response = await client.get(`/db/${msp.customDomain}/roles/all`);
  expect(response.statusCode).toBe(200);
  return (response.json<{ roles: TRole[] }>()).roles;
}

const dispatcherPermissions = permissionMap(['boardView', 'technicianUserManagement']);

describe('A-013 GET /db/{msp}/roles/all', () => {
  it('lists the built-in roles with full permission maps for any signed-in user of the MSP', async () => {
    const msp = await buildMsp(t);
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    const roles = await rolesOf(client, msp);
    expect(roles.map((role) => role.name)).toEqual(['Admin', 'Client', 'Technician']);
    expect(roles.find((role) => role.name === 'Admin')).toMatchObject({ custom: false, permissions: ALL_PERMISSIONS, mspCustomDomain: msp.customDomain });
    expect(roles.find((role) => role.name === 'Technician')?.permissions).toEqual(BUILT_IN_ROLES.Technician);
  });

  it('answers 401 without a session and 404 for another MSP', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    expect((await new TestClient(t.app).get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(401);
    const response = await (await adminOf(other)).get(`/db/${msp.customDomain}/roles/all`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('A-061 POST /db/{msp}/roles/create', () => {
  it('creates a custom role, lists it, and audits the change', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Dispatcher', permissions: dispatcherPermissions, custom: true, mspCustomDomain: msp.customDomain });
    expect(response.statusCode).toBe(200);
    const { role } = response.json<{ role: TRole }>();
    expect(role).toMatchObject({ name: 'Dispatcher', custom: true, permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
    expect((await rolesOf(admin, msp)).map((listed) => listed.name)).toContain('Dispatcher');
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.create')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target: role.id, outcome: 'success' });
  });

  it('edits a custom role when id is present, and a user of that role gets the new permissions', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const created = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Billing', permissions: permissionMap(['clientBilling']), mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    const holder = await signedInClient(t, await buildUser(t, msp, { roleId: created.role.id }));
    expect((await holder.post(`/db/${msp.customDomain}/roles/create`, { name: 'X', permissions: permissionMap([]), mspCustomDomain: msp.customDomain })).statusCode).toBe(403);

    const edited = await admin.post(`/db/${msp.customDomain}/roles/create`, { id: created.role.id, name: 'Billing and roles', permissions: permissionMap(['clientBilling', 'roleManagement']), mspCustomDomain: msp.customDomain });
    expect(edited.statusCode).toBe(200);
    expect((edited.json<{ role: TRole }>()).role).toMatchObject({ id: created.role.id, name: 'Billing and roles', permissions: { roleManagement: true, clientBilling: true } });
    // Permissions always come from the role, so the holder can now manage roles.
    expect((await holder.post(`/db/${msp.customDomain}/roles/create`, { name: 'Holder made', permissions: permissionMap([]), mspCustomDomain: msp.customDomain })).statusCode).toBe(200);
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.update')));
    expect(audit[0]?.details).toMatchObject({ before: { name: 'Billing' }, after: { name: 'Billing and roles' } });
  });

  // Decision 025: nobody can edit roles into a state where no active person can manage roles any more.
  it('refuses to take Role management out of the role of the last people who can manage roles, saying why', async () => {
    const msp = await buildMsp(t);
    const keepers = (await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Role keepers', custom: true, permissions: permissionMap(['roleManagement', 'technicianUserManagement', 'boardView']) }).returning())[0];
    if (!keepers) throw new Error('role not inserted');
    const keeper = await signedInClient(t, await buildUser(t, msp, { roleId: keepers.id }));
    // An inactive admin cannot give Role management back, so does not count.
    const formerAdmin = await buildUser(t, msp, { role: 'Admin' });
    await t.deps.database.db.update(users).set({ isActive: false }).where(eq(users.id, formerAdmin.id));
    const lockOut = { id: keepers.id, name: 'Role keepers', permissions: permissionMap(['technicianUserManagement']), mspCustomDomain: msp.customDomain };

    const refused = await keeper.post(`/db/${msp.customDomain}/roles/create`, lockOut);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.roleLastRoleManager });
    expect((await rolesOf(keeper, msp)).find((role) => role.id === keepers.id)?.permissions).toMatchObject({ roleManagement: true });
    const [failure] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.update')));
    expect(failure).toMatchObject({ outcome: 'failure', details: { reason: 'last_role_manager' } });
    // Renaming or changing other permissions is fine while Role management stays.
    expect((await keeper.post(`/db/${msp.customDomain}/roles/create`, { ...lockOut, name: 'Keepers', permissions: permissionMap(['roleManagement', 'technicianUserManagement']) })).statusCode).toBe(200);

    // Once another active person can manage roles, the role may lose it.
    await buildUser(t, msp, { role: 'Admin' });
    const allowed = await keeper.post(`/db/${msp.customDomain}/roles/create`, lockOut);
    expect(allowed.statusCode).toBe(200);
    expect((allowed.json<{ role: TRole }>()).role.permissions).toMatchObject({ roleManagement: false, technicianUserManagement: true });
  });

  // Regression (review s26 #1): an imported Admin with no password yet counted as someone who could still manage roles.
  it('refuses taking Role management out of a role while the only other holder cannot sign in', async () => {
    const msp = await buildMsp(t);
    const [managers] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Managers', custom: true, permissions: permissionMap(['roleManagement', 'technicianUserManagement']) }).returning();
    if (!managers) throw new Error('role not created');
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: managers.id }));
    await buildUser(t, msp, { role: 'Admin', password: null });
    await buildUser(t, msp, { kind: 'client', role: 'Admin' });
    const strip = () => manager.post(`/db/${msp.customDomain}/roles/create`, { id: managers.id, name: 'Managers', permissions: permissionMap(['technicianUserManagement']), mspCustomDomain: msp.customDomain });
    const refused = await strip();
    expect(refused.json()).toMatchObject({ status: 409, detail: MESSAGES.roleLastRoleManager });
    expect((await rolesOf(manager, msp)).find((role) => role.id === managers.id)?.permissions).toMatchObject({ roleManagement: true });
  });

  // Regression (review s26 #3): a clone of a role named 51–60 characters was always refused (the name passed 60).
  it('clones a role whose name is as long as a role name may be', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const base = 'N'.repeat(55);
    expect((await admin.post(`/db/${msp.customDomain}/roles/create`, { name: base, permissions: ALL_PERMISSIONS, mspCustomDomain: msp.customDomain })).statusCode).toBe(200);
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const name = cloneRoleName(base, (await rolesOf(admin, msp)).map((role) => role.name));
      const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { name, permissions: ALL_PERMISSIONS, custom: true, mspCustomDomain: msp.customDomain });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ role: TRole }>().role.name).toMatch(new RegExp(`… - Clone ${attempt}$`));
    }
  });

  it('clones a role under the name cloneRoleName computes', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const names = (await rolesOf(admin, msp)).map((role) => role.name);
      const name = cloneRoleName('Admin', names);
      expect(name).toBe(`Admin - Clone ${attempt}`);
      const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { name, permissions: ALL_PERMISSIONS, custom: true, mspCustomDomain: msp.customDomain });
      expect(response.statusCode).toBe(200);
    }
    expect((await rolesOf(admin, msp)).filter((role) => role.name.startsWith('Admin - Clone'))).toHaveLength(2);
  });

  it('refuses a name already used, compared case-insensitively, including built-in names', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Dispatcher', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
    for (const name of ['dispatcher', 'ADMIN']) {
      const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { name, permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.roleNameTaken });
    }
    const other = await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Other', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
    const renamed = await admin.post(`/db/${msp.customDomain}/roles/create`, { id: (other.json<{ role: TRole }>()).role.id, name: 'DISPATCHER', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
    expect(renamed.statusCode).toBe(409);
  });

  it('lets two MSPs use the same role name', async () => {
    const first = await buildMsp(t);
    const second = await buildMsp(t);
    for (const msp of [first, second]) {
      const response = await (await adminOf(msp)).post(`/db/${msp.customDomain}/roles/create`, { name: 'Dispatcher', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain });
      expect(response.statusCode).toBe(200);
    }
  });

  it('validates the name (1–60 characters) and the full 12-flag permission map', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const cases = [
      { name: '   ', permissions: dispatcherPermissions },
      { name: 'x'.repeat(61), permissions: dispatcherPermissions },
      { name: 'Partial', permissions: { boardView: true } },
      { name: 'Wrong type', permissions: { ...dispatcherPermissions, boardView: 'yes' } },
    ];
    for (const body of cases) {
      const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { ...body, mspCustomDomain: msp.customDomain });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation' });
    }
    expect((await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'x'.repeat(60), permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).statusCode).toBe(200);
  });

  it('keeps built-in roles read-only', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const response = await admin.post(`/db/${msp.customDomain}/roles/create`, { id: msp.roleIds.Technician, name: 'Technician', permissions: ALL_PERMISSIONS, mspCustomDomain: msp.customDomain });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ detail: MESSAGES.roleBuiltIn });
    expect((await rolesOf(admin, msp)).find((role) => role.name === 'Technician')?.permissions).toEqual(BUILT_IN_ROLES.Technician);
  });

  it('needs roleManagement (403), a session (401), the CSRF header (403 csrf), and the same tenant (404)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const body = { name: 'Dispatcher', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain };
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.post(`/db/${msp.customDomain}/roles/create`, body)).json()).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await new TestClient(t.app).post(`/db/${msp.customDomain}/roles/create`, body)).statusCode).toBe(401);
    const admin = await adminOf(msp);
    expect((await admin.post(`/db/${msp.customDomain}/roles/create`, body, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    expect((await (await adminOf(other)).post(`/db/${msp.customDomain}/roles/create`, body)).statusCode).toBe(404);
    // The body's MSP must be the session's too.
    expect((await admin.post(`/db/${msp.customDomain}/roles/create`, { ...body, mspCustomDomain: other.customDomain })).statusCode).toBe(404);
    // Editing another MSP's role by id finds nothing.
    const foreign = (await (await adminOf(other)).post(`/db/${other.customDomain}/roles/create`, { ...body, mspCustomDomain: other.customDomain })).json<{ role: TRole }>();
    expect((await admin.post(`/db/${msp.customDomain}/roles/create`, { ...body, id: foreign.role.id, name: 'Stolen' })).statusCode).toBe(404);
    expect(await rolesOf(admin, msp)).toHaveLength(3);
  });
});

describe('A-062 GET /db/{msp}/roles/delete', () => {
  it('deletes an unused custom role and audits it', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Temp', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    const response = await admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: true });
    expect((await rolesOf(admin, msp)).map((listed) => listed.name)).not.toContain('Temp');
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.delete')));
    expect(audit[0]).toMatchObject({ target: role.id, outcome: 'success' });
    expect((await admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a role still assigned to a user (409) or a built-in role', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Held', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    await buildUser(t, msp, { roleId: role.id });
    const inUse = await admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ detail: MESSAGES.roleInUse(1) });
    const builtIn = await admin.get(`/db/${msp.customDomain}/roles/delete?id=${msp.roleIds.Client}`);
    expect(builtIn.statusCode).toBe(403);
    expect(builtIn.json()).toMatchObject({ detail: MESSAGES.roleBuiltIn });
    expect(await rolesOf(admin, msp)).toHaveLength(4);
  });

  // Regression (review s29 #3): a role held only by deleted employees could not be deleted without restoring them first.
  it('moves deleted employees holding the role to Technician, audited, and refuses only for active holders, counting them', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Seasonal', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    const [first, second] = [await buildUser(t, msp, { roleId: role.id }), await buildUser(t, msp, { roleId: role.id })];
    const inUse = await admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`);
    expect(inUse.json()).toMatchObject({ status: 409, detail: MESSAGES.roleInUse(2) });
    expect(MESSAGES.roleInUse(2)).toContain('assigned to 2 people');
    for (const holder of [first, second]) expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${holder.id}`)).statusCode).toBe(200);

    expect((await admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`)).statusCode).toBe(200);
    expect((await rolesOf(admin, msp)).map((listed) => listed.id)).not.toContain(role.id);
    const moved = await t.deps.database.db.select({ roleId: users.roleId, isActive: users.isActive }).from(users).where(and(eq(users.mspId, msp.id), eq(users.lastName, 'User'), eq(users.isActive, false)));
    expect(moved).toEqual([{ roleId: msp.roleIds.Technician, isActive: false }, { roleId: msp.roleIds.Technician, isActive: false }]);
    const events = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'user.role_change')));
    expect(events.map((event) => event.target).sort()).toEqual([first.id, second.id].sort());
    expect(events[0]?.details).toMatchObject({ before: { roleId: role.id, roleName: 'Seasonal' }, after: { roleId: msp.roleIds.Technician, roleName: 'Technician' }, reason: 'role_deleted' });
  });

  it('is a protected state-changing GET: CSRF header, session, permission and tenant', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await adminOf(msp);
    const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Keep', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    const url = `/db/${msp.customDomain}/roles/delete?id=${role.id}`;
    expect((await admin.get(url, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    expect((await new TestClient(t.app).get(url)).statusCode).toBe(401);
    expect((await (await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }))).get(url)).statusCode).toBe(403);
    expect((await (await adminOf(other)).get(url)).statusCode).toBe(404);
    expect((await admin.get(`/db/${msp.customDomain}/roles/delete?id=not-a-uuid`)).statusCode).toBe(400);
    expect((await rolesOf(admin, msp)).map((listed) => listed.name)).toContain('Keep');
  });
});

// Regression (review s29 #1): a role holding only Role management could give itself (or any role) every permission.
describe('A role save or delete stays within the role manager\'s own permissions (decision 044)', () => {
  async function clerkOf(msp: TTestMsp, permissions = permissionMap(['roleManagement'])) {
    const [own] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Role clerk', custom: true, permissions }).returning();
    if (!own) throw new Error('role not inserted');
    return { own, clerk: await signedInClient(t, await buildUser(t, msp, { roleId: own.id })) };
  }
  const save = (client: TestClient, msp: TTestMsp, body: { id?: string; name: string; permissions: Record<string, boolean> }) =>
    client.post(`/db/${msp.customDomain}/roles/create`, { ...body, mspCustomDomain: msp.customDomain });

  it('refuses giving their own role, a new role or a clone of Admin a permission they lack, and nothing changes', async () => {
    const msp = await buildMsp(t);
    await buildUser(t, msp, { role: 'Admin' });
    const { own, clerk } = await clerkOf(msp);
    const employees = `/db/${msp.customDomain}/technicianUsers/activeTechnicians`;
    expect((await clerk.get(employees)).statusCode).toBe(403);
    for (const body of [
      { id: own.id, name: 'Role clerk', permissions: ALL_PERMISSIONS },
      { name: 'Helpers', permissions: permissionMap(['roleManagement', 'technicianUserManagement']) },
      { name: cloneRoleName('Admin', ['Admin']), permissions: ALL_PERMISSIONS },
    ]) {
      const refused = await save(clerk, msp, body);
      expect(refused.json(), body.name).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleGrantTooBroad });
    }
    expect((await clerk.get(employees)).statusCode).toBe(403);
    const listed = await rolesOf(clerk, msp);
    expect(listed.find((role) => role.id === own.id)?.permissions).toEqual(permissionMap(['roleManagement']));
    expect(listed).toHaveLength(4);
  });

  it('refuses changing or deleting a role richer than their own, even to take permissions away', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const { clerk } = await clerkOf(msp, permissionMap(['roleManagement', 'boardView']));
    const { role: richer } = (await save(admin, msp, { name: 'Managers', permissions: permissionMap(['boardView', 'technicianUserManagement']) })).json<{ role: TRole }>();
    const stripped = await save(clerk, msp, { id: richer.id, name: 'Managers', permissions: permissionMap(['boardView']) });
    expect(stripped.json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleChangeTooBroad });
    const deleted = await clerk.get(`/db/${msp.customDomain}/roles/delete?id=${richer.id}`);
    expect(deleted.json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleChangeTooBroad });
    expect((await rolesOf(admin, msp)).find((role) => role.id === richer.id)?.permissions).toEqual(permissionMap(['boardView', 'technicianUserManagement']));
  });

  it('saves and deletes roles within their own permissions', async () => {
    const msp = await buildMsp(t);
    await buildUser(t, msp, { role: 'Admin' });
    const { own, clerk } = await clerkOf(msp, permissionMap(['roleManagement', 'boardView']));
    const created = await save(clerk, msp, { name: 'Viewers', permissions: permissionMap(['boardView']) });
    expect(created.statusCode).toBe(200);
    const { role: viewers } = created.json<{ role: TRole }>();
    expect((await save(clerk, msp, { id: viewers.id, name: 'Viewers', permissions: permissionMap([]) })).statusCode).toBe(200);
    expect((await save(clerk, msp, { id: own.id, name: 'Role clerk', permissions: permissionMap(['roleManagement']) })).statusCode).toBe(200);
    expect((await clerk.get(`/db/${msp.customDomain}/roles/delete?id=${viewers.id}`)).statusCode).toBe(200);
  });
});

/** Users of the MSP whose role id names no role of that MSP: must always be none. */
async function usersOnMissingRoles(msp: TTestMsp): Promise<string[]> {
  const rows = await t.deps.database.db
    .select({ id: users.id })
    .from(users)
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, msp.id), isNull(roles.id)));
  return rows.map((row) => row.id);
}

describe('Regression: a role deleted while a user is being given it (issue #6 §3)', () => {
  const employee = { firstName: 'Lee', lastName: 'Park', phoneNumber: '7205550101', password: 'Another!Pass1' };

  it('never leaves a user on a deleted role: either the delete wins and the add answers 404, or the add wins and the delete answers "role in use"', async () => {
    const msp = await buildMsp(t);
    const adminUser = await buildUser(t, msp, { role: 'Admin' });
    // The delete starts a little later each round, sweeping through the add's window between its
    // role check and its insert (the password hash sits there), until the add wins outright.
    const outcomes: string[] = [];
    for (let delayMs = 0; delayMs <= 400 && !outcomes.includes('201/409'); delayMs += 5) {
      // A fresh client address each round: a slow machine needs more rounds than the per-IP limit
      // of technician adds allows, and a 429 says nothing about the race.
      const admin = await signedInClient(t, adminUser, `192.0.2.${delayMs / 5 + 1}`);
      const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: `Racing ${delayMs}`, permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
      const [added, deleted] = await Promise.all([
        admin.post(`/db/${msp.customDomain}/technicianUsers/add`, { ...employee, email: `racer-${delayMs}@example.com`, roleId: role.id }),
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`)),
      ]);
      const outcome = `${added.statusCode}/${deleted.statusCode}`;
      outcomes.push(outcome);
      expect(['404/200', '201/409']).toContain(outcome);
      if (deleted.statusCode === 409) expect(deleted.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.roleInUse(1) });
      const isRoleListed = (await rolesOf(admin, msp)).some((listed) => listed.id === role.id);
      expect(isRoleListed).toBe(deleted.statusCode === 409);
      expect(await usersOnMissingRoles(msp)).toEqual([]);
    }
    expect(outcomes).toContain('201/409');
  });

  it.skipIf(!isPostgresRun)(
    'PostgreSQL: a delete that meets an assignment not yet committed waits for it, then answers "role in use"',
    async () => {
      const msp = await buildMsp(t);
      const admin = await adminOf(msp);
      const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Held meanwhile', permissions: dispatcherPermissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
      let deleting: ReturnType<TestClient['get']> | undefined;
      await t.deps.database.db.transaction(async (tx) => {
        // Another request is assigning the role: its user row exists but is not committed yet.
        await tx.insert(users).values({ mspId: msp.id, kind: 'technician', roleId: role.id, firstName: 'Mid', lastName: 'Flight', email: 'mid-flight@example.com' });
        deleting = admin.get(`/db/${msp.customDomain}/roles/delete?id=${role.id}`);
        // Commit only once the delete is waiting on the role row.
        await waitForLockWaiter(t);
      });
      const response = await deleting;
      expect(response?.statusCode).toBe(409);
      expect(response?.json()).toMatchObject({ detail: MESSAGES.roleInUse(1) });
      expect((await rolesOf(admin, msp)).map((listed) => listed.id)).toContain(role.id);
      expect(await usersOnMissingRoles(msp)).toEqual([]);
    },
  );
});
