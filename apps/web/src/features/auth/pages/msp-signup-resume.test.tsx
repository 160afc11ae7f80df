import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();
const created = (bootstrapExpiresAt: string) => ({ mspCustomDomain: 'fabrikam-it', mspName: 'Fabrikam IT', bootstrapToken: 'boot-123', bootstrapExpiresAt });
const DETAILS = { customDomain: 'fabrikam-it', mspName: 'Fabrikam IT', webSiteUrl: 'https://fabrikam-it.example', companyPhoneNumber: '2065550100' };

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' }), { target: { value } });
}

function fillStepTwo() {
  fill('First name', 'Ada');
  fill('Last name', 'Admin');
  fill('Phone number', '2065550101');
  fill('Email', 'ada@fabrikam-it.example');
  fill('Password', 'Admin!2345');
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('MSP sign-up left after step 1 (review s29)', { timeout: 30_000 }, () => {
  it('a reload goes on at step 2 with the MSP already created: no second MSP, no "already in use", the same token', async () => {
    const api = stubFetch({
      'POST /db/msp': { status: 201, body: created(inAnHour()) },
      'POST /db/fabrikam-it/technicianUsers/add': { status: 201, body: { user: { id: 'u-1' } } },
      'GET /db/msp': { status: 200, body: { ...NORTHWIND_PROFILE, mspName: 'Fabrikam IT', customDomain: 'fabrikam-it' } },
    });
    // What the page kept when the MSP was created and the tab then reloaded before step 2 finished.
    window.sessionStorage.setItem('mspSignup', JSON.stringify({ createdMsp: created(inAnHour()), mspInfo: DETAILS }));
    renderAuthRoute('/msp/signup');
    expect(await screen.findByRole('button', { name: 'Create MSP' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText(MESSAGES.mspSignupDetailsSaved)).toBeInTheDocument();
    expect(screen.getByLabelText(/^MSP name/, { selector: 'input' })).toHaveValue('Fabrikam IT');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    fillStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Fabrikam IT' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/msp')).toHaveLength(0);
    const [add] = api.callsTo('POST', '/db/fabrikam-it/technicianUsers/add');
    expect(add?.headers.get('x-bootstrap-token')).toBe('boot-123');
    expect(window.sessionStorage.getItem('mspSignup')).toBeNull();
  });

  it('keeps the created MSP in this tab while step 2 has not succeeded', async () => {
    stubFetch({
      'GET /db/msp': problem(404, 'not_found', MESSAGES.notFound),
      'POST /db/msp': { status: 201, body: created(inAnHour()) },
      'POST /db/fabrikam-it/technicianUsers/add': problem(400, 'validation', MESSAGES.validEmailRequired, { validEmail: false }),
    });
    renderAuthRoute('/msp/signup');
    await screen.findByRole('button', { name: 'Next' });
    for (const [label, value] of [['Custom domain', 'fabrikam-it'], ['MSP name', 'Fabrikam IT'], ['Website URL', 'https://fabrikam-it.example'], ['Company phone number', '2065550100']] as const) fill(label, value);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Create MSP' });
    fillStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);
    expect(JSON.parse(window.sessionStorage.getItem('mspSignup') ?? 'null')).toEqual({ createdMsp: created(expect.any(String) as unknown as string), mspInfo: DETAILS });
  });

  it('a kept sign-up whose token expired opens an empty step 1 and is dropped', async () => {
    stubFetch({ 'GET /db/msp': problem(404, 'not_found', MESSAGES.notFound) });
    window.sessionStorage.setItem('mspSignup', JSON.stringify({ createdMsp: created(new Date(Date.now() - 1000).toISOString()), mspInfo: DETAILS }));
    renderAuthRoute('/msp/signup');
    expect(await screen.findByRole('button', { name: 'Next' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^MSP name/, { selector: 'input' })).toHaveValue('');
    expect(window.sessionStorage.getItem('mspSignup')).toBeNull();
  });
});
