import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { findExactText, renderAuthRoute } from '../test/render-auth-route';

const PROFILE = { 'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE } };
const CONTACTS = {
  records: [
    { psaContactAutopilotDbId: 'c-1', psaContactId: '230', psaCompanyId: '19', psaCompanyName: 'Brightwater Family Dental', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example' },
    { psaContactAutopilotDbId: 'c-2', psaContactId: '231', psaCompanyId: '27', psaCompanyName: 'Lakewood Vets', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example' },
  ],
};

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('account activation (R-098–R-102)', { timeout: 30_000 }, () => {
  it('shows the server message when no PSA record has that email', async () => {
    stubFetch({ ...PROFILE, 'GET /db/northwind/technicianUsers/signup': problem(404, 'not_found', MESSAGES.accountDoesNotExist, { techEmailCheck: true }) });
    renderAuthRoute('/northwind/activate');
    await userEvent.click(await screen.findByText('Technician'));
    await userEvent.type(screen.getByLabelText(/^Email/, { selector: 'input' }), 'nobody@northwind-it.example');
    await userEvent.click(screen.getByRole('button', { name: 'Find my account' }));
    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
  });

  it('lets a client pick one of several contact records, requires a strong password and activates it under its company', async () => {
    const api = stubFetch({
      ...PROFILE,
      'GET /db/northwind/clientUsers/signup': { status: 200, body: CONTACTS },
      'POST /db/northwind/clientUsers/createAccount': { status: 201, body: { id: 'u-9' } },
    });
    renderAuthRoute('/northwind/activate');
    await userEvent.type(await screen.findByLabelText(/^Email/, { selector: 'input' }), 'helen@brightwater.example');
    await userEvent.click(screen.getByRole('button', { name: 'Find my account' }));

    await userEvent.click(await screen.findByRole('button', { name: 'Activate account' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.auth.chooseActivationRecord);
    await userEvent.click(screen.getByRole('radio', { name: /Lakewood Vets/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordRequired);
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'nouppercase!');
    await userEvent.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordRules.uppercase);
    expect(api.callsTo('POST', '/db/northwind/clientUsers/createAccount')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText(/^Password/, { selector: 'input' }));
    await userEvent.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'Helen!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Activate account' }));

    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.auth.activationDone);
    const call = api.callsTo('POST', '/db/northwind/clientUsers/createAccount')[0];
    expect(call?.search.get('psaCompanyId')).toBe('27');
    expect(call?.body).toEqual({ email: 'helen@brightwater.example', password: 'Helen!Pass1', psaContactAutopilotDbId: 'c-2' });
  });
});
