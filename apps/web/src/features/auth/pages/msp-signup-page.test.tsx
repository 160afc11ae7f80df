import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGO_MAX_BYTES, MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

async function fill(label: string, value: string) {
  const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
  await userEvent.clear(input);
  await userEvent.type(input, value);
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

function chooseLogo(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

afterEach(() => vi.unstubAllGlobals());

describe('MSP sign-up (R-087–R-094)', { timeout: 30_000 }, () => {
  it('keeps step 1 until every field is filled, checks the logo, then shows step 2 with the Admin role fixed', async () => {
    const api = stubFetch({});
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
    expect(api.calls).toHaveLength(0);
  });

  it('lists the unmet password rules live and will not create the MSP with a weak password', async () => {
    const api = stubFetch({});
    renderAuthRoute('/msp/signup');
    await screen.findByRole('button', { name: 'Next' });
    await fillStepOne();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Create MSP' });
    await fillStepTwo('weakpass');
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(rules).toHaveTextContent(`✓ ${MESSAGES.passwordRules.length}`);
    expect(rules).toHaveTextContent(`✗ ${MESSAGES.passwordRules.special}`);
    expect(rules).toHaveTextContent(`✗ ${MESSAGES.passwordRules.uppercase}`);
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordRules.special);
    expect(api.calls).toHaveLength(0);
  });

  it('creates the MSP, then its first technician with the bootstrap token, and opens the new login page', async () => {
    const api = stubFetch({
      'POST /db/msp': { status: 201, body: { mspCustomDomain: 'fabrikam-it', mspName: 'Fabrikam IT', bootstrapToken: 'boot-123', bootstrapExpiresAt: '2026-11-22T08:00:00.000Z' } },
      'POST /db/fabrikam-it/technicianUsers/add': { status: 201, body: { user: { id: 'u-1' } } },
      'GET /db/msp': { status: 200, body: { ...NORTHWIND_PROFILE, mspName: 'Fabrikam IT', customDomain: 'fabrikam-it' } },
    });
    renderAuthRoute('/msp/signup');
    await screen.findByRole('button', { name: 'Next' });
    await fillStepOne();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Create MSP' });
    await fillStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));

    // The next page is a lazily loaded chunk; allow for a busy machine.
    expect(await screen.findByRole('heading', { name: 'Sign in to Fabrikam IT' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.auth.mspSignupDone);
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

  it('shows the server detail when the custom domain is taken and stays on the form', async () => {
    stubFetch({ 'POST /db/msp': problem(409, 'conflict', MESSAGES.customDomainTaken, { mspSignup: true }) });
    renderAuthRoute('/msp/signup');
    await screen.findByRole('button', { name: 'Next' });
    await fillStepOne();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Create MSP' });
    await fillStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customDomainTaken);
  });

  it('sends the invitation code from the sign-up link, and shows the closed-sign-up message', async () => {
    const api = stubFetch({ 'POST /db/msp': problem(403, 'signup_closed', MESSAGES.mspSignupInvitationRequired, { mspSignup: true, invitationRequired: true }) });
    renderAuthRoute('/msp/signup?invitation=spring-partners-2026');
    await screen.findByRole('button', { name: 'Next' });
    await fillStepOne();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Create MSP' });
    await fillStepTwo();
    await userEvent.click(screen.getByRole('button', { name: 'Create MSP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.mspSignupInvitationRequired);
    const sent = api.callsTo('POST', '/db/msp')[0]?.body;
    if (!(sent instanceof FormData)) throw new Error('not multipart');
    expect(sent.get('invitationCode')).toBe('spring-partners-2026');
  });
});
