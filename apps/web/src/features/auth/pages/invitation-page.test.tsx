import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { stubFetch } from '../test/fetch-stub';
import { findExactText, renderAuthRoute } from '../test/render-auth-route';

const TOKEN = '00000000-0000-4000-8000-000000000001.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const INVITATION = { email: 'ivy@northwind-it.example', firstName: 'Ivy', lastName: 'Imported', mspName: 'Northwind IT' };

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('invitation page (decision 019)', { timeout: 30_000 }, () => {
  // Review s27 #6: the page reused the reset flow's R-106 wording ("A valid email is required.") for a blank password.
  it('asks for a password (R-058) when a password field is blank, and sends nothing', async () => {
    const api = stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'GET /db/northwind/technicianUsers/invitation': { status: 200, body: INVITATION },
    });
    renderAuthRoute(`/northwind/invitation?token=${encodeURIComponent(TOKEN)}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Set password' }));
    expect(await findExactText(MESSAGES.passwordRequired)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.validEmailRequired)).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/^New password/, { selector: 'input' }), 'Invited#Pass2026');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await findExactText(MESSAGES.passwordRequired)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/northwind/technicianUsers/acceptInvitation')).toEqual([]);
  });

  it('still checks that the passwords match before sending', async () => {
    const api = stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'GET /db/northwind/technicianUsers/invitation': { status: 200, body: INVITATION },
    });
    renderAuthRoute(`/northwind/invitation?token=${encodeURIComponent(TOKEN)}`);
    await userEvent.type(await screen.findByLabelText(/^New password/, { selector: 'input' }), 'Invited#Pass2026');
    await userEvent.type(screen.getByLabelText(/^Verify password/, { selector: 'input' }), 'Invited#Pass2027');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await findExactText(MESSAGES.passwordsDoNotMatch)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/northwind/technicianUsers/acceptInvitation')).toEqual([]);
  });
});
