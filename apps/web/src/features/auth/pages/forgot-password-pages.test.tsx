import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';
import { clearForgotPasswordState } from '../lib/forgot-password-state';

const PROFILE = { 'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE } };

async function typeCode(code: string) {
  const [first] = await screen.findAllByRole('textbox', { name: 'Verification code' });
  if (!first) throw new Error('no code boxes');
  await userEvent.click(first);
  await userEvent.keyboard(code);
}

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  // The steps' in-memory copy (for browsers without sessionStorage) outlives a test.
  clearForgotPasswordState('northwind');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('forgot password (R-103–R-108)', { timeout: 30_000 }, () => {
  it('walks email → code → new password with the technician calls and returns to the MSP login', async () => {
    const api = stubFetch({
      ...PROFILE,
      'GET /db/northwind/technicianUsers/forgotPassword': { status: 200, body: { sent: true } },
      'GET /db/northwind/technicianUsers/validateResetToken': ({ search }) =>
        search.get('token') === '654321' ? { status: 200, body: { valid: true } } : problem(400, 'invalid_code', MESSAGES.resetTokenInvalid),
      'POST /db/northwind/technicianUsers/changePassword': { status: 200, body: { changed: true } },
    });
    window.localStorage.setItem('lastActiveUserType', '"tech"');
    renderAuthRoute('/northwind/forgot');

    await userEvent.click(await screen.findByRole('button', { name: 'Send code' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);
    await userEvent.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'sam@northwind-it.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));

    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.verificationCodeRequired);
    await typeCode('111111');
    // A wrong code is logged but still refused: the page stays and says why.
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.resetTokenInvalid);
    expect(screen.getByRole('button', { name: 'Verify' })).toBeInTheDocument();
    await typeCode('654321');

    await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);
    await userEvent.type(screen.getByLabelText(/^New password/, { selector: 'input' }), 'Better!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);
    await userEvent.type(screen.getByLabelText(/^Verify password/, { selector: 'input' }), 'Better!Pass2');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordsDoNotMatch);
    expect(api.callsTo('POST', '/db/northwind/technicianUsers/changePassword')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText(/^Verify password/, { selector: 'input' }));
    await userEvent.type(screen.getByLabelText(/^Verify password/, { selector: 'input' }), 'Better!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.auth.passwordChanged);
    expect(api.callsTo('GET', '/db/northwind/technicianUsers/forgotPassword')[0]?.search.get('email')).toBe('sam@northwind-it.example');
    const change = api.callsTo('POST', '/db/northwind/technicianUsers/changePassword')[0];
    expect(change?.search.get('token')).toBe('654321');
    expect(change?.body).toEqual({ emailId: 'sam@northwind-it.example', password: 'Better!Pass1' });
    expect(window.sessionStorage.length).toBe(0);
  });

  it('says so when the rate limit refused a step, instead of waiting for a code that was never sent (review s29)', async () => {
    const limited = problem(429, 'rate_limited', MESSAGES.tooManyRequests);
    const api = stubFetch({
      ...PROFILE,
      'GET /db/northwind/technicianUsers/forgotPassword': limited,
      'GET /db/northwind/technicianUsers/validateResetToken': { status: 200, body: { valid: true } },
      'POST /db/northwind/technicianUsers/changePassword': limited,
    });
    window.localStorage.setItem('lastActiveUserType', '"tech"');
    renderAuthRoute('/northwind/forgot');
    await userEvent.type(await screen.findByLabelText(/^Email/, { selector: 'input' }), 'sam@northwind-it.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    // Step 1 stays, with the reason.
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.tooManyRequests);
    expect(screen.getByRole('button', { name: 'Send code' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/db/northwind/technicianUsers/forgotPassword')).toHaveLength(1);

    // Resend on step 2 and the new password on step 3 say it too.
    cleanup();
    renderAuthRoute('/northwind/forgot/verification');
    await userEvent.click(await screen.findByRole('button', { name: /resend/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.tooManyRequests);
    await typeCode('654321');
    await userEvent.type(await screen.findByLabelText(/^New password/, { selector: 'input' }), 'Better!Pass1');
    await userEvent.type(screen.getByLabelText(/^Verify password/, { selector: 'input' }), 'Better!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.tooManyRequests);
  });

  it('sends a visitor without an email step back to the first step', async () => {
    stubFetch(PROFILE);
    renderAuthRoute('/northwind/forgot/verification/createpassword');
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeInTheDocument();
  });
});
