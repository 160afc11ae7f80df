import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { permissionMap, type TActivityPage } from '@switchboard/contracts';
import { auditEvents, emailConnectorMessages, psaCompanies, psaOutbox, psaTickets } from '@switchboard/db';
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
      ['from=2026-13-01', 'Use a date between 1970 and 9998, like 2026-01-31.'],
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

  // Regression: to=9999-12-31 made the end bound year 10000 and from=0000-01-01 a year PostgreSQL has not: a 500 for the
  // page and a CSV whose headers had gone out before the query failed.
  it('refuses a date outside the years the log can hold, in plain words, for the page and the CSV', async () => {
    for (const query of ['to=9999-12-31', 'from=0000-01-01', 'from=1969-12-31', 'to=10000-01-01']) {
      for (const path of [base(), `${base()}/export.csv`]) {
        const response = await admin.get(`${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.headers['content-type'], query).toContain('application/problem+json');
        expect(response.body, query).toContain('Use a date between 1970 and 9998, like 2026-01-31.');
      }
    }
    expect((await admin.get(`${base()}?from=1970-01-01&to=9998-12-31`)).statusCode).toBe(200);
    const csv = await admin.get(`${base()}/export.csv?from=1970-01-01&to=9998-12-31`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.startsWith('When (UTC),')).toBe(true);
  });

  // Regression: the CSV's headers and first line went out before the first query ran, so a failing read left a
  // "200 text/csv" download cut short instead of an error the browser shows.
  it('answers a failing export with a problem, not a cut-short CSV', async () => {
    const failing = await createTestApp();
    try {
      const failingMsp = await buildMsp(failing);
      const failingAdmin = await signedInClient(failing, await buildUser(failing, failingMsp, { role: 'Admin' }));
      await failing.deps.database.db.execute(sql`alter table audit_events rename to audit_events_away`);
      const response = await failingAdmin.get(`/db/${failingMsp.customDomain}/activityLog/export.csv`);
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.headers['content-disposition']).toBeUndefined();
    } finally {
      await failing.close();
    }
  });

  // Regression: the From and To days were UTC days while the table shows the admin's local times, so an event at
  // 23:30 in New York on 1 March (04:30 UTC on 2 March) was not in "From 1 March to 1 March".
  it('reads From and To as days of the time zone the screen sends', async () => {
    const zoneMsp = await buildMsp(t);
    const zoneAdmin = await signedInClient(t, await buildUser(t, zoneMsp, { role: 'Admin' }));
    const event = (action: string, at: string) => ({ mspId: zoneMsp.id, actorKind: 'system', action, outcome: 'success' as const, createdAt: new Date(at) });
    await t.deps.database.db.insert(auditEvents).values([
      // 00:30 on 1 March in New York (EST, UTC-5)
      event('wizard.finish', '2026-03-01T05:30:00.000Z'),
      // 23:30 on 1 March in New York
      event('demo.seed', '2026-03-02T04:30:00.000Z'),
      // 00:30 on 2 March in New York
      event('queue.settings_save', '2026-03-02T05:30:00.000Z'),
      // 23:30 on 8 March in New York, after the switch to summer time (EDT, UTC-4)
      event('msp.branding.save', '2026-03-09T03:30:00.000Z'),
      // 00:30 on 9 March in New York (EDT)
      event('msp.logo.save', '2026-03-09T04:30:00.000Z'),
    ]);
    const actions = async (query: string) => {
      const response = await zoneAdmin.get(`/db/${zoneMsp.customDomain}/activityLog?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TActivityPage>().items.map((item) => item.action);
    };
    expect(await actions('from=2026-03-01&to=2026-03-01&tz=America/New_York')).toEqual(['demo.seed', 'wizard.finish']);
    expect(await actions('from=2026-03-02&to=2026-03-08&tz=America/New_York')).toEqual(['msp.branding.save', 'queue.settings_save']);
    // Without a zone the days are UTC days, as before.
    expect(await actions('from=2026-03-01&to=2026-03-01')).toEqual(['wizard.finish']);
    const csv = (await zoneAdmin.get(`/db/${zoneMsp.customDomain}/activityLog/export.csv?from=2026-03-01&to=2026-03-01&tz=America/New_York`)).body.trimEnd().split('\r\n');
    expect(csv.slice(1).map((line) => line.split(',')[3])).toEqual(['demo.seed', 'wizard.finish']);
    const bad = await zoneAdmin.get(`/db/${zoneMsp.customDomain}/activityLog?from=2026-03-01&tz=Mars/Olympus_Mons`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The time zone is not one this server knows.');
  });

  // Regression: every auth.* action counted as a sign-in, so turning off the authenticator app or changing a password
  // was under "Sign-ins" and missing from "Accounts".
  it('counts authenticator, password and activation changes as account changes, not sign-ins', async () => {
    const kindMsp = await buildMsp(t);
    const kindUser = await buildUser(t, kindMsp, { role: 'Admin' });
    const kindAdmin = await signedInClient(t, kindUser);
    const actions = ['auth.sign_in', 'auth.sign_in.password', 'auth.two_factor', 'auth.two_factor.resend', 'auth.lockout', 'auth.logout', 'auth.totp.disable', 'auth.totp.enable', 'auth.password_change', 'auth.password_reset.request', 'auth.activation'];
    await t.deps.database.db.insert(auditEvents).values(
      actions.map((action, index) => ({ mspId: kindMsp.id, actorKind: 'user', actorId: kindUser.id, action, target: kindUser.id, outcome: 'success' as const, createdAt: new Date(Date.UTC(2026, 3, 1, 12, index)) })),
    );
    const ofKind = async (kind: string) =>
      (await kindAdmin.get(`/db/${kindMsp.customDomain}/activityLog?from=2026-04-01&to=2026-04-01&kind=${kind}`)).json<TActivityPage>().items.map((item) => [item.action, item.kind]).reverse();
    expect(await ofKind('sign-in')).toEqual(actions.slice(0, 6).map((action) => [action, 'sign-in']));
    expect(await ofKind('account')).toEqual(actions.slice(6).map((action) => [action, 'account']));
  });

  // Regression: the email connector's and the PSA outbox's events showed message and write ids.
  it('names the email connector\'s and the PSA outbox\'s targets', async () => {
    const mailMsp = await buildMsp(t);
    const mailAdmin = await signedInClient(t, await buildUser(t, mailMsp, { role: 'Admin' }));
    const db = t.deps.database.db;
    const [mail] = await db.insert(emailConnectorMessages).values({ mspId: mailMsp.id, messageId: '<m1@example.com>', fromAddress: 'jo@contoso.com', subject: 'Printer jammed again', state: 'pending' }).returning({ id: emailConnectorMessages.id });
    const [blank] = await db.insert(emailConnectorMessages).values({ mspId: mailMsp.id, messageId: '<m2@example.com>', fromAddress: 'jo@contoso.com', subject: '', state: 'skipped' }).returning({ id: emailConnectorMessages.id });
    const [ticket] = await db.insert(psaTickets).values({ mspId: mailMsp.id, psaType: 'CONNECTWISE', externalId: '815', ticketNumber: '815', summary: 'VPN down' }).returning({ id: psaTickets.id });
    const [write] = await db
      .insert(psaOutbox)
      .values({ mspId: mailMsp.id, kind: 'queue.note', idempotencyKey: 'note-1', targetType: 'ticket', targetId: ticket?.id ?? '', payload: { ticketId: 815, text: 'Rebooted', kind: 'internal' }, psaConnection: 'none' })
      .returning({ id: psaOutbox.id });
    const goneMail = '00000000-0000-4000-8000-000000000777';
    const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 12, minute));
    const event = (minute: number, action: string, target: string | null, details?: Record<string, unknown>) => ({ mspId: mailMsp.id, actorKind: 'system', action, target, outcome: 'success' as const, details, createdAt: at(minute) });
    await db.insert(auditEvents).values([
      event(1, 'email_connector.ticket', mail?.id ?? null, { subject: 'Printer jammed again' }),
      event(2, 'email_connector.note', goneMail, { subject: 'Re: Toner' }),
      event(3, 'email_connector.file_under', blank?.id ?? null, { subject: '' }),
      event(4, 'psa_write.email.ticket.create', mail?.id ?? null),
      event(5, 'psa_write.email.ticket.note', ticket?.id ?? null),
      event(6, 'email_connector.update', 'email-connector', { address: 'help@msp.example' }),
      event(7, 'psa_write.connection_changed', 'psa_outbox', { count: 2 }),
      event(8, 'psa_write.retry', write?.id ?? null, { kind: 'queue.note' }),
    ]);
    const page = (await mailAdmin.get(`/db/${mailMsp.customDomain}/activityLog?from=2026-05-01&to=2026-05-01`)).json<TActivityPage>();
    expect(page.items.map((item) => [item.action, item.targetLabel]).reverse()).toEqual([
      ['email_connector.ticket', 'Printer jammed again'],
      ['email_connector.note', 'Re: Toner'],
      ['email_connector.file_under', '(no subject)'],
      ['psa_write.email.ticket.create', 'Printer jammed again'],
      ['psa_write.email.ticket.note', '#815 VPN down'],
      ['email_connector.update', 'Email connector'],
      ['psa_write.connection_changed', 'PSA outbox'],
      ['psa_write.retry', 'Internal note on the ticket'],
    ]);
  });

  // Regression (review s29 #2): giving someone a role was only "user.profile_edit" with fields ['roleId'], under Accounts.
  it('lists a person\'s role change under Roles, with the roles before and after', async () => {
    const roleMsp = await buildMsp(t);
    const roleAdmin = await signedInClient(t, await buildUser(t, roleMsp, { role: 'Admin' }));
    const tech = await buildUser(t, roleMsp, { role: 'Technician', firstName: 'Tia', lastName: 'Tech' });
    expect((await roleAdmin.put(`/db/${roleMsp.customDomain}/technicianUsers/edit`, { email: tech.email, roleId: roleMsp.roleIds.Admin })).statusCode).toBe(200);
    const page = (await roleAdmin.get(`/db/${roleMsp.customDomain}/activityLog?kind=role`)).json<TActivityPage>();
    expect(page.items.map((item) => [item.action, item.kind, item.targetLabel])).toEqual([['user.role_change', 'role', 'Tia Tech']]);
    const [recorded] = await t.deps.database.db.select({ details: auditEvents.details }).from(auditEvents).where(sql`${auditEvents.id} = ${page.items[0]?.id ?? null}`);
    expect(recorded?.details).toEqual({
      kind: 'technician',
      before: { roleId: roleMsp.roleIds.Technician, roleName: 'Technician' },
      after: { roleId: roleMsp.roleIds.Admin, roleName: 'Admin' },
    });
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
