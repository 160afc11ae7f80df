import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

const VALID = {
  'First name': 'Pat',
  'Last name': 'Lee',
  'Business name': 'Fabrikam',
  Email: 'pat@fabrikam.example',
  'Phone number': '(206) 555-0100',
  Street: '1 Main St',
  City: 'Seattle',
  State: 'WA',
  'Zip code': '98101',
  Password: 'Longenough!1',
} as const;
type TFieldLabel = keyof typeof VALID;

async function fillForm(values: Partial<Record<TFieldLabel, string>>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
    await userEvent.clear(input);
    // Pasted, not typed: one input event instead of a re-render of the form per character.
    if (value !== '') await userEvent.paste(value);
  }
}

async function submitAndReadError(): Promise<string> {
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
  return (await screen.findByRole('alert')).textContent ?? '';
}

afterEach(() => vi.unstubAllGlobals());

// Typing a whole form through user-event is slow on a shared two-core machine.
describe('account sign-up (01 §5 validator order, R-069–R-086)', { timeout: 30_000 }, () => {
  it('shows only the first failing message, field by field in the spec order, without calling the server', async () => {
    const api = stubFetch({ 'GET /auth/oidc/pending': problem(404, 'not_found', MESSAGES.notFound) });
    renderAuthRoute('/auth/signup');
    await screen.findByRole('heading', { name: 'Create your account' });

    expect(await submitAndReadError()).toBe(MESSAGES.signup.password.required);
    await fillForm({ Password: 'short' });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.password.invalid);
    await fillForm({ Password: 'longenough' });
    expect(await submitAndReadError()).toBe(MESSAGES.passwordRules.special);
    await fillForm({ Password: VALID.Password });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.phoneNumber.required);
    await fillForm({ 'Phone number': '12345' });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.phoneNumber.invalid);
    await fillForm({ 'Phone number': VALID['Phone number'], Email: 'pat@fabrikam' });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.email.invalid);
    await fillForm({ Email: VALID.Email });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.firstName.required);
    await fillForm({ 'First name': 'P@t' });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.firstName.invalid);
    await fillForm({ 'First name': VALID['First name'], 'Last name': VALID['Last name'] });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.companyName.required);
    await fillForm({ 'Business name': VALID['Business name'] });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.street.required);
    // Zip code is checked before state (01 §5), so a bad zip wins over a missing state.
    await fillForm({ Street: VALID.Street, City: VALID.City, 'Zip code': '!' });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.zipcode.invalid);
    await fillForm({ 'Zip code': VALID['Zip code'] });
    expect(await submitAndReadError()).toBe(MESSAGES.signup.state.required);

    expect(api.calls.filter((call) => call.path !== '/auth/oidc/pending')).toHaveLength(0);
  });

  it('stops at "Account exists." when the email check answers 409', async () => {
    const api = stubFetch({ 'GET /auth/signup': problem(409, 'account_exists', MESSAGES.accountExists) });
    renderAuthRoute('/auth/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    await fillForm(VALID);
    expect(await submitAndReadError()).toBe(MESSAGES.accountExists);
    expect(api.callsTo('GET', '/auth/signup')[0]?.search.get('emailId')).toBe(VALID.Email);
    expect(api.callsTo('POST', '/auth/createAccount')).toHaveLength(0);
  });

  it('shows "Error occurred during sign up." when creating the account fails on the server', async () => {
    stubFetch({
      'GET /auth/signup': { status: 200, body: { available: true } },
      'POST /auth/createAccount': { status: 502, body: 'Bad gateway' },
    });
    renderAuthRoute('/auth/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    await fillForm(VALID);
    expect(await submitAndReadError()).toBe(MESSAGES.signupError);
  });

  it('sends the nested address and lands on the new account dashboard', async () => {
    const account = { principal: 'account', id: 'acc-9', accountKind: 'account', firstName: 'Pat', lastName: 'Lee', email: VALID.Email, phoneNumber: '2065550100', companyName: 'Fabrikam' };
    const api = stubFetch({
      'GET /auth/signup': { status: 200, body: { available: true } },
      'POST /auth/createAccount': { status: 201, body: { user: account, redirectTo: '/dashboard/acc-9' } },
    });
    renderAuthRoute('/auth/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    await fillForm(VALID);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('landed', {}, { timeout: 5_000 })).toHaveTextContent('/dashboard/acc-9');
    expect(api.callsTo('POST', '/auth/createAccount')[0]?.body).toEqual({
      firstName: 'Pat',
      lastName: 'Lee',
      companyName: 'Fabrikam',
      email: VALID.Email,
      phoneNumber: VALID['Phone number'],
      companyAddress: { street: '1 Main St', city: 'Seattle', state: 'WA', zipcode: '98101' },
      password: VALID.Password,
    });
  });

  it('completes a provider account without a password field', async () => {
    const api = stubFetch({
      'GET /auth/oidc/pending': { status: 200, body: { provider: 'microsoft', email: 'pat@fabrikam.example', firstName: 'Pat', lastName: 'Lee' } },
      'POST /auth/validateUser': { status: 200, body: { user: { principal: 'account', id: 'acc-3', accountKind: 'account', firstName: 'Pat', lastName: 'Lee', email: 'pat@fabrikam.example', phoneNumber: '2065550100', companyName: 'Fabrikam' }, redirectTo: '/dashboard/acc-3' } },
    });
    renderAuthRoute('/auth/signup?provider=microsoft&pending=1');
    expect(await screen.findByText('Email: pat@fabrikam.example')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/, { selector: 'input' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Pat');
    await fillForm({ 'Phone number': '2065550100', 'Business name': 'Fabrikam', Street: '1 Main St', City: 'Seattle', 'Zip code': '98101' });
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.signup.state.required);
    expect(api.callsTo('POST', '/auth/validateUser')).toHaveLength(0);
    await fillForm({ State: 'WA' });
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByTestId('landed', {}, { timeout: 5_000 })).toHaveTextContent('/dashboard/acc-3');
    const call = api.callsTo('POST', '/auth/validateUser')[0];
    expect(call?.search.get('token')).toBe('microsoft');
    expect(call?.body).toMatchObject({ businessName: 'Fabrikam', businessPhone: '2065550100', address: { zipcode: '98101' } });
  });
});

describe('provider sign-up without a pending identity', () => {
  it('says the provider sign-in expired and links back to the login', async () => {
    stubFetch({ 'GET /auth/oidc/pending': problem(404, 'not_found', MESSAGES.notFound) });
    renderAuthRoute('/auth/signup?provider=google&pending=1');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.auth.providerSignupExpired);
    expect(screen.getByRole('link', { name: 'Sign in with your provider again' })).toHaveAttribute('href', '/auth/login');
  });
});
