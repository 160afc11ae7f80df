import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionAccount } from '@switchboard/contracts';
import { apiFetch } from '../../lib/api-client';
import { resetAllStores } from '../../lib/store-reset';
import { buildAdminTechnician } from '../../test/build-session-user';
import { useTicketFlowStore } from '../assistant/state/ticket-flow-store';
import { NORTHWIND_PROFILE } from '../auth/test/fixtures';
import { problem, stubFetch, type TStubAnswer } from '../auth/test/fetch-stub';
import { findExactText } from '../auth/test/render-auth-route';
import { SAVE_PATH, renderSignedInApp, signInOnMspPage } from './test/render-signed-in-app';

const technician = buildAdminTechnician();
const account: TSessionAccount = {
  principal: 'account',
  id: '9a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11',
  accountKind: 'account',
  firstName: 'Pat',
  lastName: 'Lee',
  email: 'pat@fabrikam.example',
  phoneNumber: '2065550100',
  companyName: 'Fabrikam',
};
const DRAFT_TEXT = 'The printer on floor 2 jams on every page';
const CHALLENGE = { twoFactorRequired: true, challengeId: 'ch-1', sentTo: 'j•••@northwind-it.example', methods: ['email'] };

const signedOut: TStubAnswer = { status: 200, body: { authenticated: false } };
const sessionEndedAnswer = problem(401, 'unauthenticated', MESSAGES.sessionRequired);

let stopWatching: (() => void) | undefined;
beforeEach(() => {
  window.localStorage.clear();
  resetAllStores();
});
afterEach(() => {
  stopWatching?.();
  vi.unstubAllGlobals();
});

describe('a session that ends mid-work (regression: every action said "Please sign in." and no screen offered to)', () => {
  it("sends a technician to their MSP's sign-in page with one notice, and back to the page they were on with the Jarvis chat kept", { timeout: 20_000 }, async () => {
    const api = stubFetch({
      [`POST ${SAVE_PATH}`]: sessionEndedAnswer,
      'GET /auth/api/auth/microsoft-user': signedOut,
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/technicianUsers/signin': { status: 200, body: { mspDomains: [{ mspCustomDomain: 'northwind', mspName: 'Northwind IT', logoUrl: null }] } },
      'POST /db/northwind/technicianUsers/signin': { status: 200, body: CHALLENGE },
      'POST /db/northwind/technicianUsers/verifyCode': { status: 200, body: { user: technician, redirectTo: `/northwind/dashboard/${technician.id}/tickets` } },
    });
    useTicketFlowStore.getState().addLine({ key: 'you-1', messageId: null, role: 'user', text: DRAFT_TEXT });
    const view = renderSignedInApp(technician, `/northwind/dashboard/${technician.id}`);
    stopWatching = view.stop;
    expect(await screen.findByText(DRAFT_TEXT)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.auth.sessionEnded);
    expect(screen.queryByText(MESSAGES.sessionRequired)).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Technician' })).toBeChecked();
    expect(screen.getByLabelText(/Email/)).toHaveValue(technician.email);
    expect(view.router.state.location.pathname).toBe('/northwind');
    expect(new URLSearchParams(view.router.state.location.search).get('returnTo')).toBe(`/northwind/dashboard/${technician.id}`);
    expect(api.callsTo('GET', '/auth/api/auth/microsoft-user')).toHaveLength(1);
    expect(view.reload).not.toHaveBeenCalled();

    await signInOnMspPage(technician.email);

    // Back where they were (not the server's tickets landing), with the chat of before.
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(new RegExp(`^/northwind/dashboard/${technician.id}$`)), { timeout: 5_000 });
    expect(screen.getByText(DRAFT_TEXT)).toBeInTheDocument();
  });

  it('sends a general account to /auth/login with the notice and back to its dashboard page', { timeout: 20_000 }, async () => {
    stubFetch({
      [`POST ${SAVE_PATH}`]: sessionEndedAnswer,
      'GET /auth/api/auth/microsoft-user': signedOut,
      'GET /auth/oidc/providers': { status: 200, body: { microsoft: false, google: false } },
      'GET /auth/getUserByEmail': { status: 200, body: { exists: true, hasPassword: true, provider: null } },
      'POST /auth/signin': { status: 200, body: { user: account, redirectTo: `/dashboard/${account.id}` } },
    });
    const view = renderSignedInApp(account, `/dashboard/${account.id}?view=history`);
    stopWatching = view.stop;
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(await findExactText(MESSAGES.auth.sessionEnded)).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/auth/login');

    await userEvent.type(screen.getByLabelText(/Email/), account.email);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await userEvent.type(await screen.findByLabelText(/Password/), 'Secret!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(`/dashboard/${account.id}?view=history`));
  });

  it('stays put when the session is still there (the refusal was about something else) and ignores a wrong password', async () => {
    const api = stubFetch({
      [`POST ${SAVE_PATH}`]: sessionEndedAnswer,
      'GET /auth/api/auth/microsoft-user': { status: 200, body: { authenticated: true, user: technician } },
      'POST /db/northwind/technicianUsers/signin': problem(401, 'invalid_credentials', MESSAGES.invalidCredentials),
    });
    const view = renderSignedInApp(technician, `/northwind/dashboard/${technician.id}`);
    stopWatching = view.stop;
    await apiFetch('/db/northwind/technicianUsers/signin', { method: 'POST', body: {} }).catch(() => undefined);
    expect(api.callsTo('GET', '/auth/api/auth/microsoft-user')).toHaveLength(0);

    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.sessionRequired);
    await waitFor(() => expect(api.callsTo('GET', '/auth/api/auth/microsoft-user')).toHaveLength(1));
    expect(view.router.state.location.pathname).toBe(`/northwind/dashboard/${technician.id}`);
  });

  it('loads the home of another user who signed in meanwhile (another tab), keeping nothing of the first', async () => {
    const other = buildAdminTechnician({ id: '6a2e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a22', firstName: 'Sam' });
    stubFetch({
      [`POST ${SAVE_PATH}`]: sessionEndedAnswer,
      'GET /auth/api/auth/microsoft-user': { status: 200, body: { authenticated: true, user: other } },
    });
    const view = renderSignedInApp(technician, `/northwind/dashboard/${technician.id}`);
    stopWatching = view.stop;
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.reload).toHaveBeenCalledWith(`/northwind/dashboard/${other.id}/tickets`));
  });
});
