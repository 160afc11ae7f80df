import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LOGO_MAX_BYTES, MESSAGES, permissionMap, type TCreateMspResponse, type TMspProfile, type TRole } from '@switchboard/contracts';
import { auditEvents, msps, roles, uploads, users } from '@switchboard/db';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../app';
import { createAppJobQueue } from '../../app-job-queue';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const SAFE_SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#e03131"/></svg>';
let domainCounter = 0;
const freshDomain = () => `acme-${Date.now().toString(36)}-${(domainCounter++).toString(36)}`;

interface TSignupForm {
  mspName?: string;
  customDomain?: string;
  companyPhoneNumber?: string;
  webSiteUrl?: string;
  file?: { bytes: Buffer | string; type: string; name: string };
}

function signupForm(overrides: TSignupForm = {}): FormData {
  const fields = { mspName: 'Acme IT', customDomain: freshDomain(), companyPhoneNumber: '3035550100', webSiteUrl: 'https://acme.example', ...overrides };
  const form = new FormData();
  for (const name of ['mspName', 'customDomain', 'companyPhoneNumber', 'webSiteUrl'] as const) {
    const value = fields[name];
    if (value !== undefined) form.set(name, value);
  }
  if (fields.file) form.set('file', new Blob([fields.file.bytes], { type: fields.file.type }), fields.file.name);
  return form;
}

/** A browser-like client on its own address, so the sign-up rate limit never mixes tests. */
let ipCounter = 1;
const anonymous = () => new TestClient(t.app, `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`);

async function signUp(form: FormData, client = anonymous()) {
  return client.post('/db/msp', form);
}

async function createdMsp(overrides: TSignupForm = {}): Promise<TCreateMspResponse> {
  const response = await signUp(signupForm(overrides));
  expect(response.statusCode).toBe(201);
  return response.json<TCreateMspResponse>();
}

const firstTechnician = { firstName: 'Dana', lastName: 'Ruiz', phoneNumber: '3035550123', email: 'dana@acme.example', password: 'Str0ng!pass' };

describe('A-082 when the operator limits MSP sign-up (MSP_SIGNUP)', () => {
  it('answers 403 with a plain message when sign-up is off, and creates nothing', async () => {
    const closed = await createTestApp({ config: { mspSignup: { mode: 'off' } } });
    try {
      const customDomain = freshDomain();
      const response = await new TestClient(closed.app, '10.9.0.1').post('/db/msp', signupForm({ customDomain }));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'signup_closed', detail: MESSAGES.mspSignupClosed, flags: { mspSignup: true, signupClosed: true } });
      expect(await closed.deps.database.db.select().from(msps).where(eq(msps.customDomain, customDomain))).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it('needs the configured invitation code when sign-up is by invitation', async () => {
    const invited = await createTestApp({ config: { mspSignup: { mode: 'invitation', code: 'spring-partners-2026' } } });
    try {
      const client = new TestClient(invited.app, '10.9.0.2');
      for (const code of [undefined, '', 'spring-partners-2025']) {
        const form = signupForm();
        if (code !== undefined) form.set('invitationCode', code);
        const refused = await client.post('/db/msp', form);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'signup_closed', detail: MESSAGES.mspSignupInvitationRequired, flags: { invitationRequired: true } });
      }
      const form = signupForm();
      form.set('invitationCode', 'spring-partners-2026');
      expect((await client.post('/db/msp', form)).statusCode).toBe(201);
    } finally {
      await invited.close();
    }
  });
});

describe('A-082 POST /db/msp', () => {
  it('creates the MSP with its built-in roles and a bootstrap token, and audits it', async () => {
    const customDomain = freshDomain();
    const response = await signUp(signupForm({ customDomain: customDomain.toUpperCase(), mspName: '  Acme IT  ' }));
    expect(response.statusCode).toBe(201);
    const created = response.json<TCreateMspResponse>();
    expect(created).toMatchObject({ mspCustomDomain: customDomain, mspName: 'Acme IT' });
    expect(created.bootstrapToken.length).toBeGreaterThanOrEqual(40);
    expect(new Date(created.bootstrapExpiresAt).getTime() - t.deps.now().getTime()).toBeGreaterThan(29 * 60 * 1000);
    const [row] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, customDomain));
    expect(row?.bootstrapTokenHash).not.toBe(created.bootstrapToken);
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, row?.id ?? ''), eq(auditEvents.action, 'msp.create')));
    expect(audit).toHaveLength(1);

    const profile = await anonymous().get(`/db/msp?customDomain=${customDomain}`);
    expect(profile.json<TMspProfile>()).toMatchObject({ mspName: 'Acme IT', customDomain, companyPhoneNumber: '3035550100', webSiteUrl: 'https://acme.example', logoUrl: null });
  });

  it('reports an empty field with emptyFields and mspSignup', async () => {
    for (const missing of ['mspName', 'customDomain', 'companyPhoneNumber', 'webSiteUrl'] as const) {
      const response = await signUp(signupForm({ [missing]: '   ' }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'empty_fields', detail: MESSAGES.emptyFields, flags: { emptyFields: true, mspSignup: true } });
    }
    const absent = new FormData();
    absent.set('mspName', 'Only a name');
    expect((await signUp(absent)).json()).toMatchObject({ status: 400, flags: { emptyFields: true } });
  });

  it('refuses invalid and reserved custom domains (400) and a taken one (409)', async () => {
    for (const customDomain of ['ab', '-acme', 'acme-', 'ac me', 'acme_it', 'a'.repeat(64)]) {
      const response = await signUp(signupForm({ customDomain }));
      expect(response.statusCode, customDomain).toBe(400);
      expect(response.json()).toMatchObject({ flags: { mspSignup: true } });
    }
    expect((await signUp(signupForm({ customDomain: 'acme.it' }))).json()).toMatchObject({ detail: MESSAGES.customDomainInvalid });
    for (const customDomain of ['dashboard', 'technicianusers', 'auth', 'public']) {
      const response = await signUp(signupForm({ customDomain }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail: MESSAGES.customDomainReserved, flags: { mspSignup: true } });
    }
    const existing = await createdMsp();
    const taken = await signUp(signupForm({ customDomain: existing.mspCustomDomain }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ detail: MESSAGES.customDomainTaken, flags: { mspSignup: true } });
  });

  it('refuses a website that is not a web address, a short phone number and an over-long name, in plain words (issue #6 §6)', async () => {
    const cases: Array<[TSignupForm, string]> = [
      [{ webSiteUrl: 'not a url' }, MESSAGES.mspSignup.websiteInvalid],
      [{ webSiteUrl: 'javascript:alert(1)' }, MESSAGES.mspSignup.websiteInvalid],
      [{ companyPhoneNumber: '12' }, MESSAGES.mspSignup.phoneInvalid],
      [{ mspName: 'N'.repeat(500) }, MESSAGES.mspSignup.nameTooLong],
    ];
    for (const [overrides, detail] of cases) {
      const response = await signUp(signupForm(overrides));
      expect(response.statusCode, JSON.stringify(overrides).slice(0, 60)).toBe(400);
      expect(response.json()).toMatchObject({ detail, flags: { mspSignup: true } });
    }
    const bare = await createdMsp({ webSiteUrl: 'acme.example' });
    const profile = (await anonymous().get(`/db/msp?customDomain=${bare.mspCustomDomain}`)).json<TMspProfile>();
    expect(profile.webSiteUrl).toBe('https://acme.example');
  });

  it('stores a PNG logo outside the web root and serves it with its type and nosniff', async () => {
    const created = await createdMsp({ file: { bytes: PNG_BYTES, type: 'image/png', name: 'logo.png' } });
    const profile = (await anonymous().get(`/db/msp?customDomain=${created.mspCustomDomain}`)).json<TMspProfile>();
    expect(profile.logoUrl).toBe(`/db/msp/${created.mspCustomDomain}/logo`);
    const logo = await anonymous().get(profile.logoUrl ?? '');
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(PNG_BYTES)).toBe(true);
    const [row] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, created.mspCustomDomain));
    expect(row?.logoPath).toMatch(/^uploads\/logos\/[0-9a-f-]+\.png$/);
  });

  it('keeps the logo in the database, so a replica with no shared disk serves it (issue #11)', async () => {
    const created = await createdMsp({ file: { bytes: PNG_BYTES, type: 'image/png', name: 'logo.png' } });
    const [msp] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, created.mspCustomDomain));
    const stored = await t.deps.database.db.select().from(uploads).where(eq(uploads.mspId, msp?.id ?? ''));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.contentType).toBe('image/png');
    expect(stored[0]?.sizeBytes).toBe(PNG_BYTES.length);
    expect(Buffer.from(stored[0]?.bytes ?? []).equals(PNG_BYTES)).toBe(true);
    // Another app on the same database with its own (empty) data folder and its own job queue.
    const replica = await buildApp({ ...t.deps, config: { ...t.deps.config, dataDir: join(tmpdir(), `sb-replica-${Date.now()}`) }, jobQueue: createAppJobQueue(t.deps) });
    try {
      const logo = await replica.inject({ method: 'GET', url: `/db/msp/${created.mspCustomDomain}/logo` });
      expect(logo.statusCode).toBe(200);
      expect(logo.rawPayload.equals(PNG_BYTES)).toBe(true);
    } finally {
      await replica.close();
    }
  });

  it('accepts a plain SVG logo and serves it sandboxed', async () => {
    const created = await createdMsp({ file: { bytes: SAFE_SVG, type: 'image/svg+xml', name: 'logo.svg' } });
    const logo = await anonymous().get(`/db/msp/${created.mspCustomDomain}/logo`);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['content-security-policy']).toContain('sandbox');
  });

  it('refuses a logo over 2 MB with 413 fileSize', async () => {
    const big = Buffer.concat([PNG_BYTES, Buffer.alloc(LOGO_MAX_BYTES, 0)]);
    const customDomain = freshDomain();
    const response = await signUp(signupForm({ customDomain, file: { bytes: big, type: 'image/png', name: 'big.png' } }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'file_size', detail: MESSAGES.fileSize, flags: { fileSize: true, mspSignup: true } });
    expect((await anonymous().get(`/db/msp?customDomain=${customDomain}`)).statusCode).toBe(404);
  });

  it('refuses an empty file part with fileMissing', async () => {
    const response = await signUp(signupForm({ file: { bytes: Buffer.alloc(0), type: 'image/png', name: '' } }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'file_missing', detail: MESSAGES.fileMissing, flags: { fileMissing: true, mspSignup: true } });
  });

  it('judges the type by the bytes: a renamed text file, a lying mimetype and a scripted SVG get 415', async () => {
    const svgRefused = 'This SVG contains scripts, links, styles or entity declarations. Export it as PNG, or as a plain SVG.';
    const cases = [
      { bytes: 'just text, not an image', type: 'image/png', name: 'logo.png', detail: MESSAGES.fileType },
      { bytes: PNG_BYTES, type: 'image/gif', name: 'logo.gif', detail: MESSAGES.fileType },
      // Regression: a refused SVG was told it was not an SVG; it now hears what is wrong with it.
      { bytes: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type: 'image/svg+xml', name: 'x.svg', detail: svgRefused },
      { bytes: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>', type: 'image/svg+xml', name: 'y.svg', detail: svgRefused },
      { bytes: '<html><body>hi</body></html>', type: 'text/html', name: 'z.html', detail: MESSAGES.fileType },
    ];
    for (const { detail, ...file } of cases) {
      const response = await signUp(signupForm({ file }));
      expect(response.statusCode, file.name).toBe(415);
      expect(response.json()).toMatchObject({ code: 'file_type', detail, flags: { fileType: true, mspSignup: true } });
    }
  });

  it('treats a file input sent as a plain field like a file: empty is fileMissing, text is not an image', async () => {
    const empty = signupForm();
    empty.set('file', '');
    expect((await signUp(empty)).json()).toMatchObject({ status: 400, code: 'file_missing', flags: { fileMissing: true, mspSignup: true } });
    const text = signupForm();
    text.set('file', SAFE_SVG);
    expect((await signUp(text)).json()).toMatchObject({ status: 415, code: 'file_type' });
  });

  it('is documented in the generated OpenAPI with the other MSP and role routes', async () => {
    const paths = Object.keys((await anonymous().get('/openapi.json')).json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(expect.arrayContaining(['/db/msp', '/db/msp/{customDomain}/logo', '/db/{mspCustomDomain}/branding', '/db/{mspCustomDomain}/technicianUsers/add', '/db/{mspCustomDomain}/roles/all', '/db/{mspCustomDomain}/roles/create', '/db/{mspCustomDomain}/roles/delete']));
  });

  it('requires the CSRF header', async () => {
    const response = await anonymous().post('/db/msp', signupForm(), { csrf: false });
    expect(response.json()).toMatchObject({ status: 403, code: 'csrf' });
  });
});

describe('A-020 GET /db/msp and the logo route', () => {
  it('answers 404 for an unknown MSP and for an MSP without a logo', async () => {
    expect((await anonymous().get('/db/msp?customDomain=nobody-here')).statusCode).toBe(404);
    const created = await createdMsp();
    expect((await anonymous().get(`/db/msp/${created.mspCustomDomain}/logo`)).statusCode).toBe(404);
  });
});

describe('A-035 POST /db/{msp}/technicianUsers/add with the bootstrap token', () => {
  it('creates the first technician as Admin once; the token is then spent', async () => {
    const created = await createdMsp();
    const client = anonymous();
    const url = `/db/${created.mspCustomDomain}/technicianUsers/add`;
    const response = await client.post(url, firstTechnician, { headers: { 'x-bootstrap-token': created.bootstrapToken } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { userKind: 'technician', mspCustomDomain: created.mspCustomDomain, email: 'dana@acme.example', roleName: 'Admin', firstName: 'Dana' } });
    expect(JSON.stringify(response.json())).not.toContain('Str0ng!pass');

    const again = await client.post(url, { ...firstTechnician, email: 'second@acme.example' }, { headers: { 'x-bootstrap-token': created.bootstrapToken } });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ detail: MESSAGES.bootstrapTokenInvalid, flags: { mspSignup: true } });
    const [msp] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, created.mspCustomDomain));
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp?.id ?? ''), eq(auditEvents.action, 'technician.add')));
    expect(audits.map((event) => event.outcome).sort()).toEqual(['failure', 'success']);
    expect(msp?.bootstrapTokenHash).toBeNull();
  });

  it('the first technician can manage roles (built-in Admin has all 12 permissions)', async () => {
    const created = await createdMsp();
    const response = await anonymous().post(`/db/${created.mspCustomDomain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': created.bootstrapToken } });
    const user = response.json<{ user: { id: string; roleId: string } }>().user;
    const [msp] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, created.mspCustomDomain));
    const admin = await signedInClient(t, { id: user.id, mspId: msp?.id ?? '', email: firstTechnician.email, password: firstTechnician.password, kind: 'technician', roleId: user.roleId });
    const roles = (await admin.get(`/db/${created.mspCustomDomain}/roles/all`)).json<{ roles: TRole[] }>().roles;
    expect(roles.find((role) => role.id === user.roleId)?.name).toBe('Admin');
  });

  it('expires after 30 minutes', async () => {
    const created = await createdMsp();
    t.advanceClock(31 * 60 * 1000);
    const response = await anonymous().post(`/db/${created.mspCustomDomain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': created.bootstrapToken } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: MESSAGES.bootstrapTokenInvalid });
  });

  it('frees the domain of a sign-up abandoned after step 1: a new sign-up takes it over once the token expired, not before', async () => {
    const created = await createdMsp({ file: { bytes: PNG_BYTES, type: 'image/png', name: 'logo.png' } });
    const domain = created.mspCustomDomain;
    // Still someone's sign-up in progress: taken, and its profile is there.
    expect((await signUp(signupForm({ customDomain: domain }))).statusCode).toBe(409);
    t.advanceClock(31 * 60 * 1000);
    // Nobody can ever sign in to it: no public profile, so the sign-up page's domain check says free.
    expect((await anonymous().get('/db/msp', { query: { customDomain: domain } })).statusCode).toBe(404);
    const again = await createdMsp({ customDomain: domain, mspName: 'Acme Again' });
    const [row] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, domain));
    expect(row).toMatchObject({ name: 'Acme Again', logoPath: null });
    expect((await t.deps.database.db.select().from(uploads).where(eq(uploads.mspId, row?.id ?? ''))).length).toBe(0);
    // The first token stays dead; the new one makes the first technician.
    const old = await anonymous().post(`/db/${domain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': created.bootstrapToken } });
    expect(old.statusCode).toBe(401);
    const added = await anonymous().post(`/db/${domain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': again.bootstrapToken } });
    expect(added.statusCode).toBe(201);
    expect((await anonymous().get('/db/msp', { query: { customDomain: domain } })).json<TMspProfile>()).toMatchObject({ mspName: 'Acme Again' });
    // The new MSP's activity log holds its own sign-up only, not the earlier person's (their MSP name and address).
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, row?.id ?? ''), eq(auditEvents.action, 'msp.create')));
    expect(audit.map((event) => event.details?.mspName)).toEqual(['Acme Again']);
    // A finished MSP is never taken over, however long after.
    t.advanceClock(31 * 60 * 1000);
    expect((await signUp(signupForm({ customDomain: domain }))).statusCode).toBe(409);
  });

  it('is bound to its MSP and refuses a wrong token', async () => {
    const first = await createdMsp();
    const second = await createdMsp();
    const wrongMsp = await anonymous().post(`/db/${second.mspCustomDomain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': first.bootstrapToken } });
    expect(wrongMsp.statusCode).toBe(401);
    const forged = await anonymous().post(`/db/${first.mspCustomDomain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': 'x'.repeat(43) } });
    expect(forged.statusCode).toBe(401);
    expect((await anonymous().post('/db/no-such-msp/technicianUsers/add', firstTechnician, { headers: { 'x-bootstrap-token': first.bootstrapToken } })).statusCode).toBe(404);
    // The genuine token still works afterwards.
    expect((await anonymous().post(`/db/${first.mspCustomDomain}/technicianUsers/add`, firstTechnician, { headers: { 'x-bootstrap-token': first.bootstrapToken } })).statusCode).toBe(201);
  });

  it('checks the step-2 form: empty fields, email, phone, and the validPassword list; the token survives a failed try', async () => {
    const created = await createdMsp();
    const url = `/db/${created.mspCustomDomain}/technicianUsers/add`;
    const headers = { 'x-bootstrap-token': created.bootstrapToken };
    const client = anonymous();
    expect((await client.post(url, { ...firstTechnician, lastName: '' }, { headers })).json()).toMatchObject({ status: 400, code: 'empty_fields', flags: { emptyFields: true, mspSignup: true } });
    expect((await client.post(url, { ...firstTechnician, email: 'not-an-email' }, { headers })).json()).toMatchObject({ status: 400, detail: MESSAGES.validEmailRequired, flags: { validEmail: false } });
    expect((await client.post(url, { ...firstTechnician, phoneNumber: '12' }, { headers })).json()).toMatchObject({ status: 400, detail: MESSAGES.signup.phoneNumber.invalid });
    const weak = await client.post(url, { ...firstTechnician, password: 'short' }, { headers });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      detail: MESSAGES.passwordRules.length,
      flags: { mspSignup: true, validPassword: [MESSAGES.passwordRules.length, MESSAGES.passwordRules.special, MESSAGES.passwordRules.uppercase] },
    });
    expect((await client.post(url, firstTechnician, { headers })).statusCode).toBe(201);
  });

  it('lets only one of two racing requests spend the token', async () => {
    const created = await createdMsp();
    const url = `/db/${created.mspCustomDomain}/technicianUsers/add`;
    const headers = { 'x-bootstrap-token': created.bootstrapToken };
    const results = await Promise.all([
      anonymous().post(url, { ...firstTechnician, email: 'one@acme.example' }, { headers }),
      anonymous().post(url, { ...firstTechnician, email: 'two@acme.example' }, { headers }),
    ]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([201, 401]);
  });
});

describe('A-035 POST /db/{msp}/technicianUsers/add by an admin', () => {
  const employee = { firstName: 'Lee', lastName: 'Park', phoneNumber: '7205550101', email: 'lee.park@example.com', password: 'Another!Pass1' };

  it('adds an employee with the Technician role and Tier1 by default, or the given role and tier', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp));
    const url = `/db/${msp.customDomain}/technicianUsers/add`;
    const response = await admin.post(url, employee);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { roleId: msp.roleIds.Technician, roleName: 'Technician', tierLevel: 'Tier1', email: 'lee.park@example.com' } });
    const second = await admin.post(url, { ...employee, email: 'ann@example.com', roleId: msp.roleIds.Admin, tierLevel: 'Tier3' });
    expect(second.json()).toMatchObject({ user: { roleName: 'Admin', tierLevel: 'Tier3' } });
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'technician.add')));
    expect(audits).toHaveLength(2);
  });

  it('answers the new-employee form messages in order', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp));
    const url = `/db/${msp.customDomain}/technicianUsers/add`;
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...employee, firstName: '', email: 'bad' }, MESSAGES.employee.names],
      [{ ...employee, lastName: ' ' }, MESSAGES.employee.names],
      [{ ...employee, email: 'lee@' }, MESSAGES.employee.email],
      [{ ...employee, phoneNumber: '555' }, MESSAGES.employee.phone],
      [{ ...employee, password: 'alllowercase!' }, MESSAGES.employee.password],
    ];
    for (const [body, detail] of cases) {
      const response = await admin.post(url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail });
    }
    expect((await admin.post(url, { ...employee, password: 'weak' })).json()).toMatchObject({ flags: { validPassword: expect.arrayContaining([MESSAGES.passwordRules.uppercase]) as unknown } });
  });

  it('refuses an email already used by a technician of the MSP (409), case-insensitively', async () => {
    const msp = await buildMsp(t);
    const existing = await buildUser(t, msp, { email: 'taken@example.com' });
    const admin = await signedInClient(t, existing);
    const response = await admin.post(`/db/${msp.customDomain}/technicianUsers/add`, { ...employee, email: 'TAKEN@example.com' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ detail: MESSAGES.accountExists });
  });

  // Issue #6 §2b: a technician manager added an Admin (201) and so gained roles and PSA keys through it.
  it('refuses to hand out a role with a permission the adder lacks (403), and allows one within their rights', async () => {
    const msp = await buildMsp(t);
    const [managerRole, narrowRole] = await t.deps.database.db
      .insert(roles)
      .values([
        { mspId: msp.id, name: 'Technician manager', custom: true, permissions: permissionMap(['technicianUserManagement', 'boardView']) },
        { mspId: msp.id, name: 'Board viewer', custom: true, permissions: permissionMap(['boardView']) },
      ])
      .returning({ id: roles.id });
    if (!managerRole || !narrowRole) throw new Error('roles not created');
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: managerRole.id }));
    const url = `/db/${msp.customDomain}/technicianUsers/add`;
    for (const roleId of [msp.roleIds.Admin, msp.roleIds.Technician]) {
      const refused = await manager.post(url, { ...employee, email: `grant-${roleId}@example.com`, roleId });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden', detail: MESSAGES.roleGrantTooBroad });
    }
    // Without a roleId the default Technician role is asked for, and it holds documents this manager lacks.
    expect((await manager.post(url, { ...employee, email: 'default-role@example.com' })).statusCode).toBe(403);
    const added = await manager.post(url, { ...employee, email: 'narrow@example.com', roleId: narrowRole.id });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ user: { roleName: 'Board viewer' } });
    const admins = await t.deps.database.db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.roleId, msp.roleIds.Admin)));
    expect(admins).toHaveLength(0);
  });

  it('refuses a role of another MSP (404)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp));
    const response = await admin.post(`/db/${msp.customDomain}/technicianUsers/add`, { ...employee, roleId: other.roleIds.Admin });
    expect(response.statusCode).toBe(404);
  });

  it('needs a session (401), technicianUserManagement (403), the same tenant (404) and the CSRF header', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const url = `/db/${msp.customDomain}/technicianUsers/add`;
    expect((await anonymous().post(url, employee)).statusCode).toBe(401);
    expect((await (await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }))).post(url, employee)).statusCode).toBe(403);
    expect((await (await signedInClient(t, await buildUser(t, other))).post(url, employee)).statusCode).toBe(404);
    expect((await (await signedInClient(t, await buildUser(t, msp))).post(url, employee, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
  });
});

describe('branding read and save (decisions #5)', () => {
  const brand = { primaryColour: '#1C7ED6', primaryButtonColour: '#0b2a5b', secondaryButtonColour: '#ffffff' };

  it('saves with mspBranding, is readable by any user of the MSP and in the public profile', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp));
    const saved = await admin.post(`/db/${msp.customDomain}/branding`, brand);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ ...brand, primaryColour: '#1c7ed6' });
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await client.get(`/db/${msp.customDomain}/branding`)).json()).toMatchObject({ primaryButtonColour: '#0b2a5b' });
    expect((await anonymous().get(`/db/msp?customDomain=${msp.customDomain}`)).json<TMspProfile>().brand.primaryColour).toBe('#1c7ed6');
    const audits = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'msp.branding.save')));
    expect(audits).toHaveLength(1);
  });

  it('validates hex colours and guards session, permission, tenant and CSRF', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const url = `/db/${msp.customDomain}/branding`;
    const admin = await signedInClient(t, await buildUser(t, msp));
    expect((await admin.post(url, { ...brand, primaryColour: 'red' })).statusCode).toBe(400);
    expect((await anonymous().post(url, brand)).statusCode).toBe(401);
    expect((await anonymous().get(url)).statusCode).toBe(401);
    expect((await (await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }))).post(url, brand)).statusCode).toBe(403);
    expect((await (await signedInClient(t, await buildUser(t, other))).post(url, brand)).statusCode).toBe(404);
    expect((await (await signedInClient(t, await buildUser(t, other))).get(url)).statusCode).toBe(404);
    expect((await admin.post(url, brand, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
  });
});

// Issue #6 §2: these answered 500 (the generated matrix in test/access-matrix.api.test.ts covers every route).
describe('malformed MSP input answers 400 in plain words, not 500', () => {
  it('refuses a truncated multipart sign-up body', async () => {
    const boundary = 'cutShort';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="mspName"\r\n\r\nAcme IT\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`;
    const response = await anonymous().request({ method: 'POST', url: '/db/msp', payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: MESSAGES.multipartBroken });
  });

  it('refuses a NUL byte in a sign-up field, in the profile query and in an MSP path value', async () => {
    const signup = await signUp(signupForm({ mspName: 'Acme\u0000IT' }));
    expect(signup.statusCode).toBe(400);
    expect(signup.json()).toMatchObject({ detail: MESSAGES.controlCharacters });
    const client = anonymous();
    for (const url of ['/db/msp?customDomain=a%00b', '/db/msp/a%00b/logo', '/db/a%00b/technicianUsers/forgotPassword?email=a%40example.com']) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ code: 'validation', detail: MESSAGES.controlCharacters });
    }
  });
});
