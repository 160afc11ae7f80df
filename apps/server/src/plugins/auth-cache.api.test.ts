import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionMap, type TRole } from '@switchboard/contracts';
import type { TApp } from '../app-deps';
import { createReplicaApp, createTestApp, TestClient, type TTestApp } from '../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../test/factories';

// Decision 011: the resolved session and each MSP's roles list are kept per process for
// AUTH_CACHE_TTL_MS. A change applies at once in the process that made it, and within the TTL in others.

const TTL_MS = 60_000;

/**
 * An app and a replica on one database per TTL, started once for the file: each test has its own MSP, users and
 * sessions and only moves the clock forward, so none needs a database of its own (building one was most of each test).
 */
const started = new Map<number, Promise<{ t: TTestApp; replica: TApp }>>();
beforeAll(async () => {
  await start(TTL_MS);
  await start(0);
}, 120_000);
afterAll(async () => {
  for (const apps of started.values()) {
    const { t, replica } = await apps;
    await replica.close();
    await t.close();
  }
});

function start(authCacheTtlMs: number): Promise<{ t: TTestApp; replica: TApp }> {
  let apps = started.get(authCacheTtlMs);
  if (!apps) {
    apps = (async () => {
      const t = await createTestApp({ config: { authCacheTtlMs } });
      return { t, replica: await createReplicaApp(t) };
    })();
    started.set(authCacheTtlMs, apps);
  }
  return apps;
}

/** The same browser session, sent to another replica. */
function onReplica(app: TApp, client: TestClient): TestClient {
  const other = new TestClient(app, client.ip);
  other.useSession(client.sessionCookie);
  return other;
}

const createRole = (client: TestClient, msp: TTestMsp, name: string) =>
  client.post(`/db/${msp.customDomain}/roles/create`, { name, permissions: permissionMap([]), mspCustomDomain: msp.customDomain });

const roleNames = async (client: TestClient, msp: TTestMsp): Promise<string[]> => {
  const response = await client.get(`/db/${msp.customDomain}/roles/all`);
  expect(response.statusCode).toBe(200);
  return response.json<{ roles: TRole[] }>().roles.map((role) => role.name);
};

/** An admin, and a user of a custom role without role management, both signed in on the first app. */
async function adminAndHolder(app: TTestApp) {
  const msp = await buildMsp(app);
  const admin = await signedInClient(app, await buildUser(app, msp, { role: 'Admin' }), '10.9.0.1');
  const created = await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Billing', permissions: permissionMap(['clientBilling']), mspCustomDomain: msp.customDomain });
  expect(created.statusCode).toBe(200);
  const role = created.json<{ role: TRole }>().role;
  const holderUser = await buildUser(app, msp, { roleId: role.id });
  const holder = await signedInClient(app, holderUser, '10.9.0.2');
  const grantRoleManagement = async () => {
    const edited = await admin.post(`/db/${msp.customDomain}/roles/create`, { id: role.id, name: 'Billing', permissions: permissionMap(['clientBilling', 'roleManagement']), mspCustomDomain: msp.customDomain });
    expect(edited.statusCode).toBe(200);
  };
  return { msp, admin, holder, holderUser, grantRoleManagement };
}

describe('the session and roles-list caches on one app', () => {
  it('refuses a logged-out session at once, though it was just used', async () => {
    const { t } = await start(TTL_MS);
    const msp = await buildMsp(t);
    const client = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    const token = client.sessionCookie;
    expect((await client.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(200);
    expect((await client.get('/auth/api/auth/microsoft-user')).statusCode).toBe(200);
    expect((await client.post('/auth/api/auth/logout')).statusCode).toBe(200);
    const stolen = new TestClient(t.app);
    stolen.useSession(token);
    expect((await stolen.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(401);
  });

  it('applies a role change and a new role at once', async () => {
    const { t } = await start(TTL_MS);
    const { msp, admin, holder, holderUser, grantRoleManagement } = await adminAndHolder(t);
    expect((await createRole(holder, msp, 'Not yet')).statusCode).toBe(403);
    expect(await roleNames(holder, msp)).not.toContain('Dispatcher');
    await grantRoleManagement();
    expect((await createRole(holder, msp, 'Dispatcher')).statusCode).toBe(200);
    expect(await roleNames(admin, msp)).toContain('Dispatcher');
    // A user edit that moves the holder to the Technician role applies at once too.
    const moved = await admin.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: holderUser.email, roleId: msp.roleIds.Technician });
    expect(moved.statusCode).toBe(200);
    expect((await createRole(holder, msp, 'After the move')).statusCode).toBe(403);
  });
});

describe('two apps on one database', () => {
  it('a logout and a role change on one app apply on the other within the TTL', async () => {
    // A TTL the test clock steps over, so a slow machine cannot outrun it between two requests.
    const { t, replica } = await start(TTL_MS);
    const { msp, admin, holder, grantRoleManagement } = await adminAndHolder(t);
    const holderOnReplica = onReplica(replica, holder);
    expect((await createRole(holderOnReplica, msp, 'Not yet')).statusCode).toBe(403);
    expect(await roleNames(holderOnReplica, msp)).not.toContain('Dispatcher');

    await grantRoleManagement();
    expect((await createRole(admin, msp, 'Dispatcher')).statusCode).toBe(200);
    // Within the TTL the replica still answers from what it resolved a moment ago…
    expect((await createRole(holderOnReplica, msp, 'Still not')).statusCode).toBe(403);
    expect(await roleNames(holderOnReplica, msp)).not.toContain('Dispatcher');
    // …and once it has passed, it reads the change.
    t.advanceClock(TTL_MS + 1);
    expect((await createRole(holderOnReplica, msp, 'Holder made')).statusCode).toBe(200);
    expect(await roleNames(holderOnReplica, msp)).toEqual(expect.arrayContaining(['Dispatcher', 'Holder made']));

    expect((await holder.post('/auth/api/auth/logout')).statusCode).toBe(200);
    expect((await holderOnReplica.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(200);
    t.advanceClock(TTL_MS + 1);
    expect((await holderOnReplica.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(401);
  });

  it('with AUTH_CACHE_TTL_MS=0 a change on one app applies on the other at once', async () => {
    const { t, replica } = await start(0);
    const { msp, holder, grantRoleManagement } = await adminAndHolder(t);
    const holderOnReplica = onReplica(replica, holder);
    expect((await createRole(holderOnReplica, msp, 'Not yet')).statusCode).toBe(403);
    await grantRoleManagement();
    expect((await createRole(holderOnReplica, msp, 'Dispatcher')).statusCode).toBe(200);
    expect(await roleNames(holderOnReplica, msp)).toContain('Dispatcher');
    expect((await holder.post('/auth/api/auth/logout')).statusCode).toBe(200);
    expect((await holderOnReplica.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(401);
  });

  it('an expired session is refused even while it is cached', async () => {
    const { t } = await start(TTL_MS);
    const msp = await buildMsp(t);
    const client = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    expect((await client.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(200);
    t.advanceClock(7 * 24 * 60 * 60 * 1000 + 1000);
    expect((await client.get(`/db/${msp.customDomain}/roles/all`)).statusCode).toBe(401);
  });
});
