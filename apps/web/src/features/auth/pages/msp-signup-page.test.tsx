import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGO_MAX_BYTES, MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

/** Empties the field and pastes the value: one input event, not one re-render of the form per character typed. */
async function fill(label: string, value: string) {
  const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
  await userEvent.clear(input);
  await userEvent.paste(value);
}

async function fillStepOne() {
  await fill('Custom domain', 'fabrikam-it');
  await fill('MSP name', 'Fabrikam IT');
  await fill('Website URL', 'https://fabrikam-it.example');
  await fill('Company phone number', '2065550100');
}

async function fillStepTwo(password = 'Admin!2345') {
  await fill('First name', 'Ada');
  await fill('Last name', 'Admin');
  await fill('Phone number', '2065550101');
  await fill('Email', 'ada@fabrikam-it.example');
  await fill('Password', password);
}

/** Opens the sign-up, fills step 1, goes on and fills step 2 (with this password), ready for "Create MSP". */
async function reachFilledStepTwo(path = '/msp/signup', password?: string) {
  renderAuthRoute(path);
  await screen.findByRole('button', { name: 'Next' });
  await fillStepOne();
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('button', { name: 'Create MSP' });
  await fillStepTwo(password);
}

function chooseLogo(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

/** A-020 as step 1 asks it: no MSP has the domain yet. */
const DOMAIN_FREE = { 'GET /db/msp': problem(404, 'not_found', MESSAGES.notFound) };

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('MSP sign-up (R-087–R-094)', { timeout: 30_000 }, () => {
  it('keeps step 1 until every field is filled, checks the logo, then shows step 2 with the Admin role fixed', async () => {
    const api = stubFetch(DOMAIN_FREE);
    renderAuthRoute('/msp/signup');
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.emptyFields);

    await fill('Custom domain', 'fabrikam-it');
    await fill('MSP name', 'Fabrikam IT');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.emptyFields);

    await fillStepOne();
    await fill('Custom domain', 'auth');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.customDomainReserved);
    await fill('Custom domain', 'fabrikam-it');

    chooseLogo(new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'logo.png', { type: 'image/png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.fileSize);
    chooseLogo(new File([], 'empty.png', { type: 'image/png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.fileMissing);
    chooseLogo(new File(['%PDF'], 'logo.pdf', { type: 'application/pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.fileType);
    chooseLogo(new File(['png'], 'logo.png', { type: 'image/png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByLabelText(/^Role/, { selector: 'input' })).toHaveValue('Admin');
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.emptyFields);
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /db/msp']);
  });

  it('checks the website, the phone, the name length and whether the domain is free on step 1 (regression: only after step 2)', async () => {
    let isTaken = true;
    const api = stubFetch({
      'GET /db/msp': (call) =>
        isTaken && call.search.get('customDomain') === 'fabrikam-it' ? { status: 200, body: { ...NORTHWIND_PROFILE, customDomain: 'fabrikam-it' } } : problem(404, 'not_found', MESSAGES.notFound),
    });
    renderAuthRoute('/msp/signup');
    await screen.findByRole('button', { name: 'Next' });
    await fillStepOne();
    const next = () => userEvent.click(screen.getByRole('button', { name: 'Next' }));

    await fill('Website URL', 'not a url');
    await next();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.mspSignup.websiteInvalid);
    await fill('Website URL', 'fabrikam-it.example');

    await fill('Company phone number', '12');
    await next();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.mspSignup.phoneInvalid);
    await fill('Company phone number', '206 555 0100');

    const nameInput = screen.getByLabelText(/^MSP name/, { selector: 'input' });
    fireEvent.change(nameInput, { target: { value: 'N'.repeat(500) } });
    await next();
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.mspSignup.nameTooLong);
    await fill('MSP name', 'Fabrikam IT');
    expect(api.calls).toHaveLength(0);

    await next();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customDomainTaken);
    expect(screen.queryByRole('button', { name: 'Create MSP' })).not.toBeInTheDocument();

    isTaken = false;
    await next();
    expect(await screen.findByRole('button', { name: 'Create MSP' })).toBeInTheDocument();
  });

  it('lists the unmet password rules live and will not create the MSP with a weak password', async () => {
    const api = stubFetch(DOMAIN_FREE);
    await reachFilledStepTwo('/msp/signup', 'weakpass');
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(rules).toHaveTextContent(`✓ ${MESSAGES.passwordRules.length}`);
    expect(rules).toHaveTextContent(`✗ ${MESSAGES.passwordRules.special}`);
    expect(rules).toHaveTextContent(`✗ ${MESSAGES.passwordRules.uppercase}`);
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordRules.special);
    expect(api.callsTo('POST', '/db/msp')).toHaveLength(0);
  });

  it('creates the MSP, then its first technician with the bootstrap token, and opens the new login page on the technician side (R-092)', async () => {
    let isCreated = false;
    const api = stubFetch({
      'POST /db/msp': () => {
        isCreated = true;
        return { status: 201, body: { mspCustomDomain: 'fabrikam-it', mspName: 'Fabrikam IT', bootstrapToken: 'boot-123', bootstrapExpiresAt: '2026-11-22T08:00:00.000Z' } };
      },
      'POST /db/fabrikam-it/technicianUsers/add': { status: 201, body: { user: { id: 'u-1' } } },
      'GET /db/msp': () => (isCreated ? { status: 200, body: { ...NORTHWIND_PROFILE, mspName: 'Fabrikam IT', customDomain: 'fabrikam-it' } } : DOMAIN_FREE['GET /db/msp']),
    });
    await reachFilledStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));

    // The next page is a lazily loaded chunk; allow for a busy machine.
    expect(await screen.findByRole('heading', { name: 'Sign in to Fabrikam IT' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.auth.mspSignupDone);
    // The new admin is a technician: the page must not open on the client side (regression).
    expect(screen.getByRole('radio', { name: 'Technician' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Client' })).not.toBeChecked();
    // They just typed their email: the login page has it (it asked for it again).
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@fabrikam-it.example');
    const created = api.callsTo('POST', '/db/msp')[0]?.body;
    expect(created).toBeInstanceOf(FormData);
    if (!(created instanceof FormData)) throw new Error('not multipart');
    expect(Object.fromEntries([...created.entries()])).toEqual({
      customDomain: 'fabrikam-it',
      mspName: 'Fabrikam IT',
      webSiteUrl: 'https://fabrikam-it.example',
      companyPhoneNumber: '2065550100',
    });
    const added = api.callsTo('POST', '/db/fabrikam-it/technicianUsers/add')[0];
    expect(added?.headers.get('x-bootstrap-token')).toBe('boot-123');
    expect(added?.headers.get('x-switchboard-csrf')).toBe('1');
    expect(added?.body).toEqual({ firstName: 'Ada', lastName: 'Admin', phoneNumber: '2065550101', email: 'ada@fabrikam-it.example', password: 'Admin!2345' });
  });

  it('shows the server detail when the custom domain is taken meanwhile and stays on the form', async () => {
    stubFetch({ ...DOMAIN_FREE, 'POST /db/msp': problem(409, 'conflict', MESSAGES.customDomainTaken, { mspSignup: true }) });
    await reachFilledStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customDomainTaken);
  });

  it('sends the invitation code from the sign-up link, and shows the closed-sign-up message', async () => {
    const api = stubFetch({ ...DOMAIN_FREE, 'POST /db/msp': problem(403, 'signup_closed', MESSAGES.mspSignupInvitationRequired, { mspSignup: true, invitationRequired: true }) });
    await reachFilledStepTwo('/msp/signup?invitation=spring-partners-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.mspSignupInvitationRequired);
    const sent = api.callsTo('POST', '/db/msp')[0]?.body;
    if (!(sent instanceof FormData)) throw new Error('not multipart');
    expect(sent.get('invitationCode')).toBe('spring-partners-2026');
  });

  // Regression (review s25 #5): step 2 did not check the phone, so the server created the MSP and then refused the
  // technician; Back and Next then asked whether the domain was free, found the MSP just made, and the sign-up was
  // stuck on "That custom domain is already in use."
  it("checks step 2's phone before anything is created", async () => {
    const api = stubFetch(DOMAIN_FREE);
    await reachFilledStepTwo();
    await fill('Phone number', '55501');
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.signup.phoneNumber.invalid);
    expect(api.callsTo('POST', '/db/msp')).toHaveLength(0);
  });

  it('after the MSP was created and step 2 failed, Back and Next keep the created MSP: no domain check, no second MSP, step 1 says it is saved', async () => {
    let isCreated = false;
    let isTechnicianRefused = true;
    const api = stubFetch({
      'POST /db/msp': () => {
        isCreated = true;
        return { status: 201, body: { mspCustomDomain: 'fabrikam-it', mspName: 'Fabrikam IT', bootstrapToken: 'boot-123', bootstrapExpiresAt: '2026-11-22T08:00:00.000Z' } };
      },
      'POST /db/fabrikam-it/technicianUsers/add': () => (isTechnicianRefused ? problem(400, 'validation', MESSAGES.validEmailRequired, { validEmail: false }) : { status: 201, body: { user: { id: 'u-1' } } }),
      'GET /db/msp': () => (isCreated ? { status: 200, body: { ...NORTHWIND_PROFILE, mspName: 'Fabrikam IT', customDomain: 'fabrikam-it' } } : DOMAIN_FREE['GET /db/msp']),
    });
    await reachFilledStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByText(MESSAGES.mspSignupDetailsSaved)).toBeInTheDocument();
    expect(screen.getByLabelText(/^MSP name/, { selector: 'input' })).toHaveAttribute('readonly');
    const domainChecks = api.callsTo('GET', '/db/msp').length;
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: 'Create MSP' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.customDomainTaken)).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/db/msp')).toHaveLength(domainChecks);

    isTechnicianRefused = false;
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Fabrikam IT' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/msp')).toHaveLength(1);
    expect(api.callsTo('POST', '/db/fabrikam-it/technicianUsers/add')).toHaveLength(2);
  });

  it('an expired sign-up token opens step 1 again, so a new MSP can be started', async () => {
    stubFetch({
      ...DOMAIN_FREE,
      'POST /db/msp': { status: 201, body: { mspCustomDomain: 'fabrikam-it', mspName: 'Fabrikam IT', bootstrapToken: 'boot-123', bootstrapExpiresAt: '2026-11-22T08:00:00.000Z' } },
      'POST /db/fabrikam-it/technicianUsers/add': problem(401, 'unauthenticated', MESSAGES.bootstrapTokenInvalid, { mspSignup: true }),
    });
    await reachFilledStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.bootstrapTokenInvalid);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText(/^Custom domain/, { selector: 'input' })).not.toHaveAttribute('readonly');
    expect(screen.queryByText(MESSAGES.mspSignupDetailsSaved)).not.toBeInTheDocument();
  });
});
