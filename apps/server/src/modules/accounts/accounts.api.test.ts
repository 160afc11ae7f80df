import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, ZAccountSignedIn, type TCreateAccountBody } from '@switchboard/contracts';
import { accounts, auditEvents, sessions } from '@switchboard/db';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser } from '../../../test/factories';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let ipCounter = 0;
/** A client from its own address, so per-IP limits of one test never leak into another. */
const freshClient = () => {
  ipCounter += 1;
  return new TestClient(t.app, `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`);
};
let emailCounter = 0;
const uniqueEmail = (prefix = 'owner') => `${prefix}.${Date.now().toString(36)}${(emailCounter++).toString(36)}@acme-it.example`;

const validForm = (): Required<TCreateAccountBody> & { companyAddress: { street: string; city: string; state: string; zipcode: string } } => ({
  companyId: 'ACME1',
  firstName: 'Dana',
  lastName: 'Reyes',
  companyName: 'Acme Services',
  email: uniqueEmail(),
  phoneNumber: '(303) 555-0142',
  companyAddress: { street: '12 Main St.', city: 'Denver', state: 'Colorado', zipcode: '80202' },
  password: 'Str0ng!Pass',
});

/** The signed-in answer, checked against its contract schema. */
const signedIn = (response: { json(): unknown }) => ZAccountSignedIn.parse(response.json());

async function auditActions(target: string) {
  const rows = await t.deps.database.db.select().from(auditEvents).where(eq(auditEvents.target, target));
  return rows.map((row) => `${row.action}:${row.outcome}`);
}

describe('A-071 POST /auth/createAccount', () => {
  it('creates the account, signs it in and lands on its dashboard', async () => {
    const client = freshClient();
    const form = validForm();
    const response = await client.post('/auth/createAccount', form);
    expect(response.statusCode).toBe(201);
    const body = signedIn(response);
    expect(body.user).toEqual({
      principal: 'account',
      id: body.user.id,
      accountKind: 'account',
      firstName: 'Dana',
      lastName: 'Reyes',
      email: form.email,
      phoneNumber: '(303) 555-0142',
      companyName: 'Acme Services',
    });
    expect(body.redirectTo).toBe(`/dashboard/${body.user.id}`);
    expect(JSON.stringify(body)).not.toMatch(/hash|argon/i);
    expect(client.sessionCookie).toBeDefined();
    const [session] = await t.deps.database.db.select().from(sessions).where(eq(sessions.accountId, body.user.id));
    expect(session).toMatchObject({ principalKind: 'account', authMethod: 'password', revokedAt: null });
    const [row] = await t.deps.database.db.select().from(accounts).where(eq(accounts.id, body.user.id));
    expect(row).toMatchObject({ kind: 'account', companyId: 'ACME1', companyAddress: form.companyAddress, provider: null });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await auditActions(form.email)).toContain('account.create:success');
  });

  // 01 §5: each field's blank check then format check, in the table's order. Every LATER field is
  // blank too, so the answer proves this field is checked before them.
  type TFieldCase = { field: string; required: string; invalid: string; set: (form: ReturnType<typeof validForm>, value: string) => void; bad: string };
  const address = (key: 'street' | 'city' | 'state' | 'zipcode') => (form: ReturnType<typeof validForm>, value: string) => {
    form.companyAddress[key] = value;
  };
  const fieldCases: TFieldCase[] = [
    { field: 'password', ...MESSAGES.signup.password, bad: 'Sh0rt!a', set: (f, v) => void (f.password = v) },
    { field: 'phoneNumber', ...MESSAGES.signup.phoneNumber, bad: '555-12', set: (f, v) => void (f.phoneNumber = v) },
    { field: 'email', ...MESSAGES.signup.email, bad: 'dana@acme', set: (f, v) => void (f.email = v) },
    { field: 'firstName', ...MESSAGES.signup.firstName, bad: 'D@na', set: (f, v) => void (f.firstName = v) },
    { field: 'lastName', ...MESSAGES.signup.lastName, bad: 'Reyes!', set: (f, v) => void (f.lastName = v) },
    { field: 'companyName', ...MESSAGES.signup.companyName, bad: 'Acme & Co', set: (f, v) => void (f.companyName = v) },
    { field: 'street', ...MESSAGES.signup.street, bad: '12 Main $t', set: address('street') },
    { field: 'city', ...MESSAGES.signup.city, bad: 'Denver 9', set: address('city') },
    { field: 'zipcode', ...MESSAGES.signup.zipcode, bad: '8', set: address('zipcode') },
    { field: 'state', ...MESSAGES.signup.state, bad: 'C0lorado', set: address('state') },
  ];

  it.each(fieldCases.map((fieldCase, index) => [fieldCase.field, index] as const))('checks %s: blank, then format, before the later fields', async (_field, index) => {
    const fieldCase = fieldCases[index];
    if (!fieldCase) throw new Error('no case');
    const client = freshClient();
    const later = fieldCases.slice(index + 1);

    const blank = validForm();
    fieldCase.set(blank, '   ');
    for (const laterCase of later) laterCase.set(blank, '');
    const blankResponse = await client.post('/auth/createAccount', blank);
    expect(blankResponse.statusCode).toBe(400);
    expect(blankResponse.json()).toMatchObject({ code: 'validation', detail: fieldCase.required });

    const invalid = validForm();
    fieldCase.set(invalid, fieldCase.bad);
    for (const laterCase of later) laterCase.set(invalid, '');
    const invalidResponse = await client.post('/auth/createAccount', invalid);
    expect(invalidResponse.statusCode).toBe(400);
    expect(invalidResponse.json()).toMatchObject({ code: 'validation', detail: fieldCase.invalid });
    expect(client.sessionCookie).toBeUndefined();
  });

  it('applies the one password rule (decisions #10) with the "Password needs…" messages', async () => {
    const client = freshClient();
    const response = await client.post('/auth/createAccount', { ...validForm(), password: 'longenough' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: MESSAGES.passwordRules.special,
      flags: { validPassword: [MESSAGES.passwordRules.special, MESSAGES.passwordRules.uppercase] },
    });
  });

  it('answers "Account exists." when the email is taken, in any letter case', async () => {
    const form = validForm();
    expect((await freshClient().post('/auth/createAccount', form)).statusCode).toBe(201);
    const again = await freshClient().post('/auth/createAccount', { ...validForm(), email: form.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'account_exists', detail: MESSAGES.accountExists });
  });

  it('rejects a request without the CSRF header', async () => {
    const response = await freshClient().post('/auth/createAccount', validForm(), { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf', detail: MESSAGES.csrfRejected });
  });
});

describe('A-070 GET /auth/signup?emailId=', () => {
  it('says a free email is available and a taken one exists', async () => {
    const form = validForm();
    const free = await freshClient().get(`/auth/signup?emailId=${encodeURIComponent(form.email)}`);
    expect(free.statusCode).toBe(200);
    expect(free.json()).toEqual({ available: true });
    await freshClient().post('/auth/createAccount', form);
    const taken = await freshClient().get(`/auth/signup?emailId=${encodeURIComponent(form.email)}`);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ detail: MESSAGES.accountExists });
  });

  it('rejects a malformed email with the sign-up message', async () => {
    const response = await freshClient().get('/auth/signup?emailId=nope');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: MESSAGES.signup.email.invalid });
  });
});

async function insertProviderAccount(email: string) {
  const [row] = await t.deps.database.db
    .insert(accounts)
    .values({ kind: 'account', email, firstName: 'Pat', lastName: 'Lee', provider: 'microsoft', providerSubject: `sub-${email}`, passwordHash: null })
    .returning();
  if (!row) throw new Error('not inserted');
  return row;
}

describe('A-068 GET /auth/getUserByEmail', () => {
  it('describes a password account and a provider account', async () => {
    const form = validForm();
    await freshClient().post('/auth/createAccount', form);
    const withPassword = await freshClient().get(`/auth/getUserByEmail?email=${encodeURIComponent(form.email)}`);
    expect(withPassword.statusCode).toBe(200);
    expect(withPassword.json()).toEqual({ exists: true, hasPassword: true, provider: null });

    const providerEmail = uniqueEmail('provider');
    await insertProviderAccount(providerEmail);
    const viaProvider = await freshClient().get(`/auth/getUserByEmail?email=${encodeURIComponent(providerEmail)}`);
    expect(viaProvider.json()).toEqual({ exists: true, hasPassword: false, provider: 'microsoft' });
  });

  it('answers "Account does not exists.  Please sign up." for an unknown email', async () => {
    const response = await freshClient().get(`/auth/getUserByEmail?email=${encodeURIComponent(uniqueEmail('nobody'))}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: MESSAGES.accountDoesNotExist });
  });

  it('tells a technician or client which MSP page to use instead of "Please sign up" (issue #6 §6)', async () => {
    const northwind = await buildMsp(t, { name: 'Northwind Test IT' });
    const contoso = await buildMsp(t, { name: 'Contoso Test IT' });
    const email = uniqueEmail('tech');
    await buildUser(t, northwind, { kind: 'technician', email });
    await buildUser(t, contoso, { kind: 'client', email: email.toUpperCase() });
    const response = await freshClient().get(`/auth/getUserByEmail?email=${encodeURIComponent(email)}`);
    expect(response.statusCode).toBe(404);
    const body = response.json<{ detail: string; flags: { mspPages: unknown } }>();
    expect(body.detail).toBe(MESSAGES.auth.useMspPage);
    expect(body.detail).not.toContain('sign up');
    expect(body.flags.mspPages).toEqual(
      [
        { mspCustomDomain: contoso.customDomain, mspName: 'Contoso Test IT', userKind: 'client' },
        { mspCustomDomain: northwind.customDomain, mspName: 'Northwind Test IT', userKind: 'technician' },
      ],
    );
  });
});

describe('A-069 POST /auth/signin', () => {
  it('answers a too-long or missing field in plain words, never in the validator\'s (issue #6 §6)', async () => {
    const tooLong = await freshClient().post('/auth/signin', { emailId: `${'a'.repeat(250)}@acme-it.example`, password: 'x' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({
      code: 'validation',
      detail: 'Email is too long (at most 254 characters).',
      invalidParams: [{ name: 'emailId', reason: 'Email is too long (at most 254 characters).' }],
    });
    const missing = await freshClient().post('/auth/signin', { emailId: 'dana@acme-it.example' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ detail: string }>().detail).toBe(MESSAGES.passwordRequired);
    const notJson = await freshClient().post('/auth/signin', 'plain', { headers: { 'content-type': 'text/plain' } });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);
    for (const response of [tooLong, missing]) expect(response.body).not.toMatch(/Too big|expected string|Invalid input/);
  });

  it('signs a general account in with its password', async () => {
    const form = validForm();
    const created = signedIn(await freshClient().post('/auth/createAccount', form));
    const client = freshClient();
    const response = await client.post('/auth/signin', { emailId: form.email.toUpperCase(), password: form.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: created.user, redirectTo: `/dashboard/${created.user.id}` });
    expect(client.sessionCookie).toBeDefined();
    expect(await auditActions(form.email)).toContain('account.sign_in:success');
  });

  it('revokes the session the browser already held when another account signs in', async () => {
    const client = freshClient();
    const first = signedIn(await client.post('/auth/createAccount', validForm()));
    const secondForm = validForm();
    await freshClient().post('/auth/createAccount', secondForm);
    const response = await client.post('/auth/signin', { emailId: secondForm.email, password: secondForm.password });
    expect(response.statusCode).toBe(200);
    const firstSessions = await t.deps.database.db.select().from(sessions).where(eq(sessions.accountId, first.user.id));
    expect(firstSessions.map((session) => session.revokedAt !== null)).toEqual([true]);
  });

  it('answers "Invalid username or password." with emailCheck for a wrong password or unknown email', async () => {
    const form = validForm();
    await freshClient().post('/auth/createAccount', form);
    const wrong = await freshClient().post('/auth/signin', { emailId: form.email, password: 'Wr0ng!Pass' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_credentials', detail: MESSAGES.invalidCredentials, flags: { emailCheck: true } });
    const unknownEmail = uniqueEmail('ghost');
    const unknown = await freshClient().post('/auth/signin', { emailId: unknownEmail, password: 'Wr0ng!Pass' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ detail: MESSAGES.invalidCredentials });
    expect(await auditActions(form.email)).toContain('account.sign_in:failure');
    expect(await auditActions(unknownEmail)).toContain('account.sign_in:failure');
  });

  it('tells a provider account to use its provider', async () => {
    const email = uniqueEmail('provider');
    await insertProviderAccount(email);
    const response = await freshClient().post('/auth/signin', { emailId: email, password: 'Any!Passw0rd' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'provider_account', detail: MESSAGES.providerAccount });
  });

  it('requires a valid email and a password', async () => {
    const client = freshClient();
    expect((await client.post('/auth/signin', { emailId: 'nope', password: 'x' })).json()).toMatchObject({ detail: MESSAGES.validEmailRequired, flags: { validEmail: false } });
    expect((await client.post('/auth/signin', { emailId: uniqueEmail(), password: '' })).json()).toMatchObject({ detail: MESSAGES.passwordRequired });
  });

  it('limits one address to 5 attempts in 20 seconds', async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await client.post('/auth/signin', { emailId: uniqueEmail('burst'), password: 'Wr0ng!Pass' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('locks one account after 10 failures, whatever the address', async () => {
    const form = validForm();
    await freshClient().post('/auth/createAccount', form);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await freshClient().post('/auth/signin', { emailId: form.email, password: 'Wr0ng!Pass' })).statusCode).toBe(401);
    }
    const locked = await freshClient().post('/auth/signin', { emailId: form.email, password: form.password });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({ code: 'locked', detail: MESSAGES.accountLocked });
  });

  // Security review (throttle check-then-act): 25 attempts sent together from 25 addresses, 24 wrong and the right
  // one, answered { 401: 24, 200: 1 }: the lock was read before the password check and counted after it.
  it('checks at most 10 passwords of a burst sent all at once; the rest, and then the right password, are refused as locked', async () => {
    const form = validForm();
    await freshClient().post('/auth/createAccount', form);
    const burst = await Promise.all(Array.from({ length: 25 }, (_, i) => freshClient().post('/auth/signin', { emailId: form.email, password: `Wr0ng!Pass${i}` })));
    const counts = burst.reduce<Record<number, number>>((all, response) => ({ ...all, [response.statusCode]: (all[response.statusCode] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 401: 10, 423: 15 });
    expect(burst.find((response) => response.statusCode === 423)?.json()).toMatchObject({ code: 'locked', detail: MESSAGES.accountLocked });
    const locked = await freshClient().post('/auth/signin', { emailId: form.email, password: form.password });
    expect(locked.statusCode).toBe(423);
  });

  it('rejects a request without the CSRF header', async () => {
    const response = await freshClient().post('/auth/signin', { emailId: uniqueEmail(), password: 'x' }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf' });
  });
});

describe('A-081 POST /db/public/user/signup', () => {
  const publicForm = () => ({ firstName: 'Sam', lastName: 'Hill', phoneNumber: '3035550199', emailId: uniqueEmail('public'), password: 'Publ1c!Pass' });

  it('creates the public user, signs it in and lands on the public dashboard', async () => {
    const client = freshClient();
    const form = publicForm();
    const response = await client.post('/db/public/user/signup', form);
    expect(response.statusCode).toBe(201);
    const body = signedIn(response);
    expect(body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toEqual({
      user: { principal: 'account', id: body.user.id, accountKind: 'public', firstName: 'Sam', lastName: 'Hill', email: form.emailId, phoneNumber: '3035550199', companyName: null },
      redirectTo: '/public/dashboard',
    });
    expect(client.sessionCookie).toBeDefined();
    expect(await auditActions(form.emailId)).toContain('public_user.create:success');

    const signIn = await freshClient().post('/auth/signin', { emailId: form.emailId, password: form.password });
    expect(signIn.json()).toMatchObject({ redirectTo: '/public/dashboard', user: { accountKind: 'public' } });
  });

  it.each(['firstName', 'lastName', 'phoneNumber', 'emailId', 'password'] as const)('requires %s', async (field) => {
    const response = await freshClient().post('/db/public/user/signup', { ...publicForm(), [field]: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'empty_fields', detail: MESSAGES.emptyFields, flags: { publicSignup: true, emptyFields: true } });
  });

  it('requires a valid email and a strong password', async () => {
    const client = freshClient();
    const badEmail = await client.post('/db/public/user/signup', { ...publicForm(), emailId: 'sam@' });
    expect(badEmail.json()).toMatchObject({ detail: MESSAGES.validEmailRequired, flags: { publicSignup: true, validEmail: false } });
    const weak = await client.post('/db/public/user/signup', { ...publicForm(), password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      detail: MESSAGES.passwordRules.length,
      flags: { publicSignup: true, validPassword: [MESSAGES.passwordRules.length, MESSAGES.passwordRules.special, MESSAGES.passwordRules.uppercase] },
    });
  });

  it('answers "Account exists." for a taken email', async () => {
    const form = publicForm();
    await freshClient().post('/db/public/user/signup', form);
    const again = await freshClient().post('/db/public/user/signup', form);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: MESSAGES.accountExists, flags: { publicSignup: true } });
  });
});

describe('A-073 GET /auth/oauth2/logout', () => {
  it('ends the session and sends a general account to /auth/login', async () => {
    const client = freshClient();
    const created = signedIn(await client.post('/auth/createAccount', validForm()));
    const response = await client.get('/auth/oauth2/logout');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, redirectUrl: '/auth/login' });
    expect(client.sessionCookie).toBeUndefined();
    const rows = await t.deps.database.db.select().from(sessions).where(and(eq(sessions.accountId, created.user.id)));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('sends a public user to /public and works without a session', async () => {
    const client = freshClient();
    await client.post('/db/public/user/signup', { firstName: 'Sam', lastName: 'Hill', phoneNumber: '3035550199', emailId: uniqueEmail('public'), password: 'Publ1c!Pass' });
    expect((await client.get('/auth/oauth2/logout')).json()).toEqual({ success: true, redirectUrl: '/public' });
    expect((await freshClient().get('/auth/oauth2/logout')).json()).toEqual({ success: true, redirectUrl: '/auth/login' });
  });

  it('is a state-changing GET that needs the CSRF header', async () => {
    const response = await freshClient().get('/auth/oauth2/logout', { csrf: false });
    expect(response.statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the account routes', async () => {
    const response = await freshClient().get('/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/auth/signin', '/auth/createAccount', '/db/public/user/signup', '/auth/validateUser', '/auth/oidc/{provider}/start']));
  });
});
