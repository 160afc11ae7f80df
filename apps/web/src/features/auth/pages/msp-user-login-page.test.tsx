import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE, buildSessionMspUser } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { findExactText, renderAuthRoute } from '../test/render-auth-route';

const TWO_MSPS = {
  mspDomains: [
    { mspCustomDomain: 'northwind', mspName: 'Northwind IT', logoUrl: null },
    { mspCustomDomain: 'contoso-it', mspName: 'Contoso IT Services', logoUrl: null },
  ],
};
const CHALLENGE = { twoFactorRequired: true, challengeId: 'ch-1', sentTo: 'j•••@contoso.example', methods: ['email'] };

async function typeCode(code: string) {
  const boxes = await screen.findAllByRole('textbox', { name: 'Verification code' });
  const [first] = boxes;
  if (!first) throw new Error('no code boxes');
  await userEvent.click(first);
  await userEvent.keyboard(code);
}

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('client login (R-052–R-062)', () => {
  it('refuses an empty or malformed email with "A valid email is required." without calling the server', async () => {
    const api = stubFetch({});
    renderAuthRoute('/auth/login/client');
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MESSAGES.validEmailRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Email/), 'jane@');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText(MESSAGES.validEmailRequired)).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the server message for an unknown email', async () => {
    stubFetch({ 'POST /db/clientUsers/signin': problem(404, 'account_not_found', MESSAGES.accountDoesNotExist, { emailCheck: true }) });
    renderAuthRoute('/auth/login/client');
    await userEvent.type(await screen.findByLabelText(/Email/), 'nobody@contoso.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
  });

  it('lets a client with two MSPs choose one, then asks for a password and rejects wrong credentials', async () => {
    const api = stubFetch({
      'POST /db/clientUsers/signin': { status: 200, body: TWO_MSPS },
      'POST /db/contoso-it/clientUsers/signin': problem(401, 'invalid_credentials', MESSAGES.invalidCredentials, { emailCheck: true }),
    });
    renderAuthRoute('/auth/login/client');
    await userEvent.type(await screen.findByLabelText(/Email/), 'jane@contoso.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText(MESSAGES.auth.chooseMsp)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Contoso IT Services/ }));

    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByText(MESSAGES.passwordRequired)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/contoso-it/clientUsers/signin')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(/Password/), 'Wrong!pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(MESSAGES.invalidCredentials)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/contoso-it/clientUsers/signin')[0]?.body).toEqual({ emailId: 'jane@contoso.example', password: 'Wrong!pass1' });
  });

  it('asks for the code, shows wrong-code and resend messages, then lands on the tickets page remembering the user without a password', async () => {
    const user = buildSessionMspUser();
    let verifyAttempts = 0;
    const api = stubFetch({
      'POST /db/clientUsers/signin': { status: 200, body: { mspDomains: [TWO_MSPS.mspDomains[0]] } },
      'POST /db/northwind/clientUsers/signin': { status: 200, body: CHALLENGE },
      'POST /db/northwind/clientUsers/resendCode': { status: 200, body: { message: MESSAGES.verificationCodeResent } },
      'POST /db/northwind/clientUsers/verifyCode': () => {
        verifyAttempts += 1;
        return verifyAttempts === 1
          ? problem(400, 'invalid_code', MESSAGES.invalidVerificationCode, { login2FA: true })
          : { status: 200, body: { user, redirectTo: `/northwind/dashboard/${user.id}/tickets` } };
      },
    });
    renderAuthRoute('/auth/login/client');
    await userEvent.type(await screen.findByLabelText(/Email/), 'jane@contoso.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText(/Password/), 'Secret!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText(/j•••@contoso\.example/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText(MESSAGES.verificationCodeRequired)).toBeInTheDocument();

    await typeCode('111111');
    expect(await screen.findByText(MESSAGES.invalidVerificationCode)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText(MESSAGES.verificationCodeResent)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/northwind/clientUsers/resendCode')[0]?.body).toEqual({ challengeId: 'ch-1' });

    await typeCode('482913');
    expect(await screen.findByTestId('landed', {}, { timeout: 5_000 })).toHaveTextContent(`/northwind/dashboard/${user.id}/tickets`);
    expect(api.callsTo('POST', '/db/northwind/clientUsers/verifyCode')[1]?.body).toEqual({ challengeId: 'ch-1', code: '482913' });
    const stored = window.localStorage.getItem('lastActiveUser') ?? '';
    expect(JSON.parse(stored)).toMatchObject({ id: user.id, email: user.email });
    expect(stored).not.toMatch(/password/i);
    expect(window.localStorage.getItem('lastActiveUserType')).toBe('"client"');
  });
});

describe('six-digit code (issue #6 §6)', () => {
  it('sends a code pasted after a rejected one as soon as all six digits are in (regression: nothing happened)', async () => {
    const user = buildSessionMspUser();
    let verifyAttempts = 0;
    const api = stubFetch({
      'POST /db/clientUsers/signin': { status: 200, body: { mspDomains: [TWO_MSPS.mspDomains[0]] } },
      'POST /db/northwind/clientUsers/signin': { status: 200, body: CHALLENGE },
      'POST /db/northwind/clientUsers/verifyCode': () => {
        verifyAttempts += 1;
        return verifyAttempts === 1
          ? problem(400, 'invalid_code', MESSAGES.invalidVerificationCode, { login2FA: true })
          : { status: 200, body: { user, redirectTo: `/northwind/dashboard/${user.id}/tickets` } };
      },
    });
    renderAuthRoute('/auth/login/client');
    await userEvent.type(await screen.findByLabelText(/Email/), 'jane@contoso.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText(/Password/), 'Secret!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await typeCode('111111');
    expect(await screen.findByText(MESSAGES.invalidVerificationCode)).toBeInTheDocument();
    const [first] = screen.getAllByRole('textbox', { name: 'Verification code' });
    if (!first) throw new Error('no code boxes');
    await userEvent.click(first);
    await userEvent.paste('482913');
    expect(await screen.findByTestId('landed', {}, { timeout: 5_000 })).toHaveTextContent(`/northwind/dashboard/${user.id}/tickets`);
    expect(api.callsTo('POST', '/db/northwind/clientUsers/verifyCode').map((call) => call.body)).toEqual([
      { challengeId: 'ch-1', code: '111111' },
      { challengeId: 'ch-1', code: '482913' },
    ]);
  });
});

describe('MSP login page /{msp}', () => {
  it('shows the MSP by name and refuses an email that belongs only to another MSP', async () => {
    stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/clientUsers/signin': { status: 200, body: { mspDomains: [TWO_MSPS.mspDomains[1]] } },
    });
    renderAuthRoute('/northwind');
    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Email/), 'jane@contoso.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
  });

  // Issue #8 Branding: the MSP's own sign-in page shows its logo before anyone signs in.
  it('shows the MSP\'s logo above the sign-in form', async () => {
    stubFetch({ 'GET /db/msp': { status: 200, body: { ...NORTHWIND_PROFILE, logoUrl: '/db/msp/northwind/logo' } } });
    renderAuthRoute('/northwind');
    expect(await screen.findByRole('img', { name: 'Northwind IT logo' })).toHaveAttribute('src', '/db/msp/northwind/logo');
  });

  it('uses the technician calls when the toggle says Technician', async () => {
    const api = stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/technicianUsers/signin': { status: 200, body: { mspDomains: [TWO_MSPS.mspDomains[0]] } },
    });
    renderAuthRoute('/northwind');
    await userEvent.click(await screen.findByText('Technician'));
    await userEvent.type(screen.getByLabelText(/Email/), 'sam@northwind-it.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText(/Password/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/technicianUsers/signin')).toHaveLength(1);
    expect(window.localStorage.getItem('lastActiveUserType')).toBe('"tech"');
  });

  it('answers an unknown MSP with a not-found page', async () => {
    stubFetch({ 'GET /db/msp': problem(404, 'not_found', MESSAGES.notFound) });
    renderAuthRoute('/no-such-msp');
    expect(await screen.findByRole('heading', { name: 'Service provider not found' })).toBeInTheDocument();
  });
});

describe('general login /auth/login (R-064–R-067)', () => {
  // Regression: an account whose session ended came here with ?returnTo=, but a provider sign-in dropped it and went home.
  it('sends the page a session ended on to the provider sign-in, so it comes back there', async () => {
    stubFetch({ 'GET /auth/oidc/providers': { status: 200, body: { microsoft: true, google: true } } });
    renderAuthRoute(`/auth/login?returnTo=${encodeURIComponent('/dashboard/a1?tab=agents')}`);
    expect(await screen.findByRole('link', { name: 'Sign in with Microsoft' })).toHaveAttribute('href', `/auth/oidc/microsoft/start?returnTo=${encodeURIComponent('/dashboard/a1?tab=agents')}`);
    expect(screen.getByRole('link', { name: 'Sign in with Google' })).toHaveAttribute('href', `/auth/oidc/google/start?returnTo=${encodeURIComponent('/dashboard/a1?tab=agents')}`);
  });

  it('tells a provider account to use its provider and shows the Microsoft error from the callback', async () => {
    stubFetch({
      'GET /auth/oidc/providers': { status: 200, body: { microsoft: true, google: false } },
      'GET /auth/getUserByEmail': { status: 200, body: { exists: true, hasPassword: false, provider: 'microsoft' } },
    });
    renderAuthRoute('/auth/login?error=microsoft');
    expect(await screen.findByText(MESSAGES.microsoftLoginError)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign in with Microsoft' })).toHaveAttribute('href', '/auth/oidc/microsoft/start');
    expect(screen.queryByRole('link', { name: 'Sign in with Google' })).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Email/), 'pat@fabrikam.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await findExactText(MESSAGES.providerAccount)).toBeInTheDocument();
  });

  it('tells a technician which MSP page to use and opens it on the technician side (regression: "Please sign up")', async () => {
    stubFetch({
      'GET /auth/oidc/providers': { status: 200, body: { microsoft: false, google: false } },
      'GET /auth/getUserByEmail': problem(404, 'account_not_found', MESSAGES.auth.useMspPage, {
        mspPages: [{ mspCustomDomain: 'northwind', mspName: 'Northwind IT', userKind: 'technician' }],
      }),
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
    });
    renderAuthRoute('/auth/login');
    await userEvent.type(await screen.findByLabelText(/Email/), 'sam@northwind-it.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MESSAGES.auth.useMspPage)).toBeInTheDocument();
    expect(screen.getByRole('alert')).not.toHaveTextContent(/sign up/i);
    await userEvent.click(screen.getByRole('link', { name: /Northwind IT — technician sign-in/ }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Technician' })).toBeChecked();
  });

  it('signs a password account in and goes to its dashboard', async () => {
    const account = { principal: 'account', id: 'acc-1', accountKind: 'account', firstName: 'Pat', lastName: 'Lee', email: 'pat@fabrikam.example', phoneNumber: '2065550100', companyName: 'Fabrikam' };
    stubFetch({
      'GET /auth/oidc/providers': { status: 200, body: { microsoft: false, google: false } },
      'GET /auth/getUserByEmail': { status: 200, body: { exists: true, hasPassword: true, provider: null } },
      'POST /auth/signin': { status: 200, body: { user: account, redirectTo: '/dashboard/acc-1' } },
    });
    renderAuthRoute('/auth/login');
    await userEvent.type(await screen.findByLabelText(/Email/), 'pat@fabrikam.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText(/Password/), 'Secret!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent('/dashboard/acc-1'));
  });
});
