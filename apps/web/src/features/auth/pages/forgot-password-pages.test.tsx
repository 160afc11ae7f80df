import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

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

  it('sends a visitor without an email step back to the first step', async () => {
    stubFetch(PROFILE);
    renderAuthRoute('/northwind/forgot/verification/createpassword');
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeInTheDocument();
  });
});
