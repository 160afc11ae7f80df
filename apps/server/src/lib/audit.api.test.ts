import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { permissionMap, type TRole } from '@switchboard/contracts';
import { accounts, auditEvents, sessions, users } from '@switchboard/db';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';
import { buildMsp, buildUser, signedInClient } from '../../test/factories';
import { sha256 } from './crypto';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** From here on the database refuses every new audit event, as a full disk or a broken constraint would. */
const refuseAuditEvents = () => t.deps.database.db.execute(sql`alter table audit_events add constraint audit_events_refused_by_test check (false) not valid`);
const acceptAuditEvents = () => t.deps.database.db.execute(sql`alter table audit_events drop constraint if exists audit_events_refused_by_test`);

const permissions = permissionMap(['boardView']);

describe('audit events are written in the transaction of the change they record (issue #6 §3)', () => {
  it('when the audit event cannot be written, the change it records is rolled back, on every audited path', async () => {
    const msp = await buildMsp(t);
    const adminUser = await buildUser(t, msp, { role: 'Admin', firstName: 'Original' });
    const admin = await signedInClient(t, adminUser);
    const rolesUrl = `/db/${msp.customDomain}/roles`;
    const roleNames = async () => (await admin.get(`${rolesUrl}/all`)).json<{ roles: TRole[] }>().roles.map((role) => role.name);
    const created = (name: string) => admin.post(`${rolesUrl}/create`, { name, permissions, mspCustomDomain: msp.customDomain });
    const editable = (await created('Before')).json<{ role: TRole }>().role;
    const deletable = (await created('Keep me')).json<{ role: TRole }>().role;
    const brandBefore = (await admin.get(`/db/${msp.customDomain}/branding`)).json<Record<string, string>>();
    const leaving = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    const accountEmail = `audit-${Date.now().toString(36)}@acme-it.example`;

    await refuseAuditEvents();
    try {
      const cases: Array<[string, () => Promise<{ statusCode: number }>, () => Promise<unknown>, unknown]> = [
        ['role create', () => created('Never'), roleNames, expect.not.arrayContaining(['Never'])],
        ['role edit', () => admin.post(`${rolesUrl}/create`, { id: editable.id, name: 'After', permissions, mspCustomDomain: msp.customDomain }), roleNames, expect.arrayContaining(['Before'])],
        ['role delete', () => admin.get(`${rolesUrl}/delete?id=${deletable.id}`), roleNames, expect.arrayContaining(['Keep me'])],
        [
          'employee add',
          () => admin.post(`/db/${msp.customDomain}/technicianUsers/add`, { firstName: 'New', lastName: 'Hire', phoneNumber: '7205550101', email: 'new.hire@example.com', password: 'Another!Pass1' }),
          async () => (await t.deps.database.db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.email, 'new.hire@example.com')))).length,
          0,
        ],
        [
          'branding save',
          () => admin.post(`/db/${msp.customDomain}/branding`, { primaryColour: '#123456', primaryButtonColour: '#123456', secondaryButtonColour: '#123456' }),
          async () => (await admin.get(`/db/${msp.customDomain}/branding`)).json(),
          brandBefore,
        ],
        [
          'profile edit',
          () => admin.put(`/db/${msp.customDomain}/technicianUsers/edit`, { email: adminUser.email, firstName: 'Renamed' }),
          async () => (await t.deps.database.db.select({ firstName: users.firstName }).from(users).where(and(eq(users.mspId, msp.id), eq(users.id, adminUser.id))))[0]?.firstName,
          'Original',
        ],
        ['authenticator setup', () => admin.post(`/db/${msp.customDomain}/technicianUsers/totp/setup`), async () => (await t.deps.database.db.select({ totpPendingSecret: users.totpPendingSecret }).from(users).where(eq(users.id, adminUser.id)))[0]?.totpPendingSecret, null],
        [
          'account sign-up',
          () =>
            new TestClient(t.app).post('/auth/createAccount', {
              companyId: 'ACME1',
              firstName: 'Dana',
              lastName: 'Reyes',
              companyName: 'Acme Services',
              email: accountEmail,
              phoneNumber: '(303) 555-0142',
              companyAddress: { street: '12 Main St.', city: 'Denver', state: 'Colorado', zipcode: '80202' },
              password: 'Str0ng!Pass',
            }),
          async () => (await t.deps.database.db.select().from(accounts).where(eq(accounts.email, accountEmail))).length,
          0,
        ],
        ['logout', () => leaving.post('/auth/api/auth/logout', {}), async () => (await t.deps.database.db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.tokenHash, sha256(leaving.sessionCookie ?? ''))))[0]?.revokedAt, null],
      ];
      for (const [name, act, observe, expected] of cases) {
        const response = await act();
        expect.soft(response.statusCode, name).toBe(500);
        expect.soft(await observe(), name).toEqual(expected);
      }
    } finally {
      await acceptAuditEvents();
    }
    // The refused writes left no event behind either.
    expect(await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.delete')))).toEqual([]);
  });

  it('when the audit event is written, the change and its event commit together', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp));
    const { role } = (await admin.post(`/db/${msp.customDomain}/roles/create`, { name: 'Both', permissions, mspCustomDomain: msp.customDomain })).json<{ role: TRole }>();
    const events = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'role.create')));
    expect(events.map((event) => event.target)).toEqual([role.id]);
  });
});
