import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { permissionMap, type TActivityPage } from '@switchboard/contracts';
import { auditEvents, psaCompanies, psaTickets } from '@switchboard/db';
import { buildApp } from '../../app';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from '../../../test/factories';
import { insertCustomRole } from '../roles/roles.repository';

let t: TTestApp;
let msp: TTestMsp;
let adminUser: TTestUser;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  adminUser = await buildUser(t, msp, { role: 'Admin', firstName: 'Ada', lastName: 'Admin' });
  admin = await signedInClient(t, adminUser);
  const day = (d: string) => new Date(`${d}T12:00:00.000Z`);
  await t.deps.database.db.insert(auditEvents).values([
    { mspId: msp.id, actorKind: 'user', actorId: adminUser.id, action: 'auth.sign_in', outcome: 'success', ip: '10.0.0.1', createdAt: day('2026-01-01') },
    { mspId: msp.id, actorKind: 'anonymous', action: 'auth.sign_in', outcome: 'failure', details: { email: 'mallory@example.com' }, createdAt: day('2026-01-02') },
    { mspId: msp.id, actorKind: 'user', actorId: adminUser.id, action: 'role.create', target: '=HYPERLINK("x")', outcome: 'success', createdAt: day('2026-01-03') },
    { mspId: msp.id, actorKind: 'user', actorId: adminUser.id, action: 'access.refused', outcome: 'failure', createdAt: day('2026-01-04') },
    { mspId: msp.id, actorKind: 'user', actorId: adminUser.id, action: 'contact.add', target: 'Smith, "Jo"', outcome: 'success', createdAt: day('2026-01-05') },
  ]);
});
afterAll(async () => t.close());

const base = () => `/db/${msp.customDomain}/activityLog`;

describe('activity log', () => {
  it('pages the MSP\'s events newest first with who, what, when and outcome', async () => {
    const response = await admin.get(`${base()}?from=2026-01-01&to=2026-01-05`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<TActivityPage>();
    expect(page.total).toBe(5);
    expect(page.items.map((event) => [event.action, event.kind, event.who, event.outcome])).toEqual([
      ['contact.add', 'change', 'Ada Admin', 'success'],
      ['access.refused', 'access-refused', 'Ada Admin', 'failure'],
      ['role.create', 'role', 'Ada Admin', 'success'],
      ['auth.sign_in', 'sign-in', 'mallory@example.com', 'failure'],
      ['auth.sign_in', 'sign-in', 'Ada Admin', 'success'],
    ]);
    expect(page.people).toEqual([{ userId: adminUser.id, name: 'Ada Admin' }]);
    const second = (await admin.get(`${base()}?from=2026-01-01&to=2026-01-05&pageSize=2&page=2`)).json<TActivityPage>();
    expect(second.items.map((event) => event.action)).toEqual(['role.create', 'auth.sign_in']);
  });

  it('filters by kind, person and dates (both days included)', async () => {
    const range = 'from=2026-01-01&to=2026-01-05';
    expect((await admin.get(`${base()}?${range}&kind=sign-in`)).json<TActivityPage>().items.map((event) => event.who)).toEqual(['mallory@example.com', 'Ada Admin']);
    expect((await admin.get(`${base()}?${range}&kind=change`)).json<TActivityPage>().items.map((event) => event.action)).toEqual(['contact.add']);
    expect((await admin.get(`${base()}?${range}&userId=${adminUser.id}`)).json<TActivityPage>().total).toBe(4);
    expect((await admin.get(`${base()}?from=2026-01-02&to=2026-01-03`)).json<TActivityPage>().items.map((event) => event.action)).toEqual(['role.create', 'auth.sign_in']);
  });

  it('explains bad filters in plain words', async () => {
    const cases: Array<[string, string]> = [
      ['from=2026-13-01', 'Use a date like 2026-01-31.'],
      ['from=2026-01-05&to=2026-01-01', 'The start date must be on or before the end date.'],
      ['userId=someone', 'Choose a person from the list.'],
      ['page=0', 'Page must be 1 or more.'],
    ];
    for (const [query, message] of cases) {
      const response = await admin.get(`${base()}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).toContain(message);
    }
  });

  it('exports the filtered log as CSV, quoted and safe for spreadsheets', async () => {
    const response = await admin.get(`${base()}/export.csv?from=2026-01-01&to=2026-01-05`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(`activity-${msp.customDomain}-`);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('When (UTC),Who,Kind,Action,Target,Target id,Outcome,IP');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe('2026-01-05T12:00:00.000Z,Ada Admin,change,contact.add,"Smith, ""Jo""","Smith, ""Jo""",success,');
    expect(lines[3]).toContain(`'=HYPERLINK(""x"")`);
    expect(lines[5]).toBe('2026-01-01T12:00:00.000Z,Ada Admin,sign-in,auth.sign_in,,,success,10.0.0.1');
  });

  // Regression: the Export CSV link is a browser navigation, which got the SPA shell (a download named export.html).
  it('serves the CSV to a browser that navigates to the Export CSV link, not the SPA shell', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'sb-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>spa</title>');
    const app = await buildApp(t.deps, { webDist });
    try {
      const browser = new TestClient(app);
      browser.useSession(admin.sessionCookie);
      const response = await browser.get(`${base()}/export.csv?from=2026-01-01&to=2026-01-05`, { csrf: false, headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html,application/xhtml+xml' } });
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.body.split('\r\n')[0]).toBe('When (UTC),Who,Kind,Action,Target,Target id,Outcome,IP');
      // The screen itself is still the SPA's.
      expect((await browser.get(base(), { csrf: false, headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } })).body).toContain('<title>spa</title>');
    } finally {
      await app.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });

  // Regression: the Target column showed raw ids (uuids, PSA numbers) an admin cannot recognise.
  it('names each target in words, the id beside it, in the page and in the CSV', async () => {
    const db = t.deps.database.db;
    const bob = await buildUser(t, msp, { role: 'Technician', firstName: 'Bob', lastName: 'Builder' });
    const role = await insertCustomRole(db, msp.id, 'Night shift', permissionMap(['adminPortal']));
    const [ticket] = await db.insert(psaTickets).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '4711', ticketNumber: '4711', summary: 'Printer offline' }).returning({ id: psaTickets.id });
    await db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '250', name: 'Contoso Ltd' });
    const other = await buildMsp(t);
    const stranger = await buildUser(t, other, { role: 'Technician', firstName: 'Secret', lastName: 'Stranger' });
    const goneRole = '00000000-0000-4000-8000-000000000001';
    const at = (minute: number) => new Date(Date.UTC(2026, 1, 10, 12, minute));
    const event = (minute: number, action: string, target: string | null, details?: Record<string, unknown>) => ({ mspId: msp.id, actorKind: 'user', actorId: adminUser.id, action, target, outcome: 'success' as const, details, createdAt: at(minute) });
    await db.insert(auditEvents).values([
      event(1, 'technician.tier', bob.id),
      event(2, 'role.create', role.id),
      event(3, 'psa_write.queue.close', ticket?.id ?? null),
      event(4, 'psa_write.contact.create', '250'),
      event(5, 'role.delete', goneRole, { name: 'Interns' }),
      event(6, 'msp.branding.save', msp.customDomain),
      event(7, 'integrations.keys.save', 'integrations'),
      event(8, 'technician.tier', stranger.id),
      event(9, 'auth.sign_in', 'someone@example.com'),
    ]);
    const page = (await admin.get(`${base()}?from=2026-02-10&to=2026-02-10`)).json<TActivityPage>();
    expect(page.items.map((item) => [item.targetLabel, item.target]).reverse()).toEqual([
      ['Bob Builder', bob.id],
      ['Night shift', role.id],
      ['#4711 Printer offline', ticket?.id],
      ['Contoso Ltd', '250'],
      ['Interns', goneRole],
      [msp.name, msp.customDomain],
      ['PSA connection', 'integrations'],
      // Another MSP's user is never named: the id stays as recorded.
      [null, stranger.id],
      [null, 'someone@example.com'],
    ]);
    const csv = (await admin.get(`${base()}/export.csv?from=2026-02-10&to=2026-02-10`)).body.trimEnd().split('\r\n');
    expect(csv.at(-1)).toBe(`2026-02-10T12:01:00.000Z,Ada Admin,account,technician.tier,Bob Builder,${bob.id},success,`);
    expect(csv[2]).toBe(`2026-02-10T12:08:00.000Z,Ada Admin,account,technician.tier,${stranger.id},${stranger.id},success,`);
  });

  // Regression: the export paged by a JavaScript Date (milliseconds) while created_at keeps microseconds, so the rows in
  // the same millisecond after a page's last row were skipped.
  it('exports every row exactly once when many share one millisecond across the export\'s pages', async () => {
    const exportMsp = await buildMsp(t);
    const exportAdmin = await signedInClient(t, await buildUser(t, exportMsp, { role: 'Admin' }));
    // 1,200 events a microsecond apart inside two milliseconds: more than two of the export's pages of 500.
    await t.deps.database.db.execute(sql`
      insert into audit_events (msp_id, actor_kind, action, target, outcome, created_at)
      select ${exportMsp.id}::uuid, 'system', 'ticket.update', 'row-' || n, 'success', timestamptz '2026-03-02 10:00:00.123+00' + n * interval '1 microsecond'
      from generate_series(1, 1200) as n`);
    const response = await exportAdmin.get(`/db/${exportMsp.customDomain}/activityLog/export.csv?from=2026-03-02&to=2026-03-02`);
    expect(response.statusCode).toBe(200);
    const targets = response.body.trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[4]);
    expect(targets).toHaveLength(1200);
    // Newest first, as on screen: the same order as before, just none left out.
    expect(targets).toEqual(Array.from({ length: 1200 }, (_, index) => `row-${1200 - index}`));
  });

  it('is for adminPortal or roleManagement only, within the tenant', async () => {
    expect((await new TestClient(t.app).get(base())).statusCode).toBe(401);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.get(base())).statusCode).toBe(403);
    expect((await technician.get(`${base()}/export.csv`)).statusCode).toBe(403);
    const roleManager = await signedInClient(t, await buildUser(t, msp, { roleId: (await insertCustomRole(t.deps.database.db, msp.id, 'Role manager', permissionMap(['roleManagement']))).id }));
    expect((await roleManager.get(base())).statusCode).toBe(200);
    const other = await buildMsp(t);
    expect((await admin.get(`/db/${other.customDomain}/activityLog`)).statusCode).toBe(404);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    const theirs = (await otherAdmin.get(`/db/${other.customDomain}/activityLog?from=2026-01-01&to=2026-01-05`)).json<TActivityPage>();
    expect(theirs.total).toBe(0);
  });
});
