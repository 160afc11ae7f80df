import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { resetAllStores } from '../../../lib/store-reset';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { useTicketFlowStore } from '../../assistant/state/ticket-flow-store';
import { performLogout } from '../../session/api/logout';
import { sessionKeys } from '../../session/api/session-queries';
import { SAVE_PATH, renderSignedInApp, signInOnMspPage } from '../../session/test/render-signed-in-app';
import { NORTHWIND_PROFILE } from '../test/fixtures';
import { problem, stubFetch, type TStubAnswer } from '../test/fetch-stub';
import { findExactText, renderAuthRoute } from '../test/render-auth-route';

const userA = buildAdminTechnician({ firstName: 'Ada', email: 'ada@northwind-it.example' });
const userB = buildAdminTechnician({ id: '6a2e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a22', firstName: 'Ben', email: 'ben@northwind-it.example' });
const CHALLENGE = { twoFactorRequired: true, challengeId: 'ch-1', sentTo: 'b•••@northwind-it.example', methods: ['email'] };
const A_CHAT = "Ada's laptop will not join the Wi-Fi";
const A_QUEUE_KEY = ['queue', 'northwind', userA.id];

function signInStubs(user: typeof userA) {
  return {
    'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
    'POST /db/technicianUsers/signin': { status: 200, body: { mspDomains: [{ mspCustomDomain: 'northwind', mspName: 'Northwind IT', logoUrl: null }] } },
    'POST /db/northwind/technicianUsers/signin': { status: 200, body: CHALLENGE },
    'POST /db/northwind/technicianUsers/verifyCode': { status: 200, body: { user, redirectTo: `/northwind/dashboard/${user.id}/tickets` } },
  };
}

let stopWatching: (() => void) | undefined;
beforeEach(() => {
  window.localStorage.clear();
  resetAllStores();
});
afterEach(() => {
  stopWatching?.();
  stopWatching = undefined;
  vi.unstubAllGlobals();
});

describe('signing in again in the same tab', () => {
  /** A signed in and worked with Jarvis; then their session ended and a refused call sent them to the MSP login page. */
  async function renderAfterAsSessionEnded(stubs: Record<string, TStubAnswer>) {
    stubFetch({ ...stubs, [`POST ${SAVE_PATH}`]: problem(401, 'unauthenticated', MESSAGES.sessionRequired), 'GET /auth/api/auth/microsoft-user': { status: 200, body: { authenticated: false } } });
    const view = renderSignedInApp(userA, `/northwind/dashboard/${userA.id}/tickets`);
    stopWatching = view.stop;
    useTicketFlowStore.getState().addLine({ key: 'you-1', messageId: null, role: 'user', text: A_CHAT });
    view.queryClient.setQueryData(A_QUEUE_KEY, { tickets: ['T-1'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    return view;
  }

  it("shows B none of A's Jarvis chat or cached answers (regression: A's chat and draft were shown to B)", { timeout: 20_000 }, async () => {
    const view = await renderAfterAsSessionEnded(signInStubs(userB));
    await signInOnMspPage(userB.email);
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(`/northwind/dashboard/${userB.id}/tickets`), { timeout: 5_000 });
    expect(screen.queryByText(A_CHAT)).not.toBeInTheDocument();
    expect(view.queryClient.getQueryData(A_QUEUE_KEY)).toBeUndefined();
  });

  it("clears A's chat when B signs in on the technician sign-in page while A is still signed in", { timeout: 20_000 }, async () => {
    stubFetch(signInStubs(userB));
    const view = renderSignedInApp(userA, '/auth/login/tech');
    stopWatching = view.stop;
    useTicketFlowStore.getState().addLine({ key: 'you-1', messageId: null, role: 'user', text: A_CHAT });
    await signInOnMspPage(userB.email);
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(`/northwind/dashboard/${userB.id}/tickets`), { timeout: 5_000 });
    expect(screen.queryByText(A_CHAT)).not.toBeInTheDocument();
  });

  it('keeps the chat for A signing back in', { timeout: 20_000 }, async () => {
    await renderAfterAsSessionEnded(signInStubs(userA));
    await signInOnMspPage(userA.email);
    await waitFor(() => expect(screen.getByTestId('landed')).toHaveTextContent(`/northwind/dashboard/${userA.id}/tickets`), { timeout: 5_000 });
    expect(screen.getByText(A_CHAT)).toBeInTheDocument();
  });

  it("sends a signed-in user who opens their MSP's login page to their dashboard", async () => {
    stubFetch({ 'GET /auth/api/auth/microsoft-user': { status: 200, body: { authenticated: true, user: userA } }, 'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE } });
    renderAuthRoute('/northwind');
    expect(await screen.findByTestId('landed')).toHaveTextContent(`/northwind/dashboard/${userA.id}/tickets`);
  });

  it("still shows another MSP's login page to them", async () => {
    stubFetch({
      'GET /auth/api/auth/microsoft-user': { status: 200, body: { authenticated: true, user: { ...userA, mspCustomDomain: 'contoso-it' } } },
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
    });
    const { router } = renderAuthRoute('/northwind');
    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/northwind');
  });
});

describe('logout of a technician (regression: the login page opened on Client and refused their email)', () => {
  it("opens their MSP's login page on Technician", async () => {
    const queryClient = new QueryClient();
    const session: TSessionCheckResponse = { authenticated: true, user: userA };
    queryClient.setQueryData(sessionKeys.current(), session);
    window.localStorage.setItem('lastActiveUserType', '"tech"');
    stubFetch({ 'POST /auth/api/auth/logout': { status: 200, body: { success: true, skipMicrosoftLogout: true, redirectUrl: '/northwind', microsoftLogoutUrl: null } } });
    const redirect = vi.fn();
    await performLogout({ queryClient, pathname: `/northwind/dashboard/${userA.id}/tickets`, redirect });
    // Logout clears the stored last user type (02 §4); the page is told the side in its address instead.
    expect(window.localStorage.getItem('lastActiveUserType')).toBeNull();
    const [target] = redirect.mock.calls[0] as [string];

    stubFetch({ 'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE } });
    renderAuthRoute(target);
    expect(await screen.findByRole('heading', { name: 'Sign in to Northwind IT' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Technician' })).toBeChecked();
  });
});

// First-run review: the page opens on Client, so a technician who typed their e-mail got only
// "Account does not exists.  Please sign up." and no way forward.
describe('an e-mail that belongs to the other kind of account', () => {
  const NORTHWIND_DOMAIN = { mspCustomDomain: 'northwind', mspName: 'Northwind IT', logoUrl: null };
  const notFound = problem(404, 'account_not_found', MESSAGES.accountDoesNotExist, { emailCheck: true });

  async function submitEmail(email: string) {
    await userEvent.type(await screen.findByLabelText(/Email/), email);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  }

  it('tells a technician on the Client side to choose Technician, and switching keeps the e-mail', { timeout: 20_000 }, async () => {
    const api = stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/clientUsers/signin': notFound,
      'POST /db/technicianUsers/signin': { status: 200, body: { mspDomains: [NORTHWIND_DOMAIN] } },
    });
    renderAuthRoute('/northwind');
    expect(await screen.findByRole('radio', { name: 'Client' })).toBeChecked();
    await submitEmail('ada@northwind-it.example');

    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.auth.otherKindFound.tech)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.auth.switchToKind.tech }));

    expect(screen.getByRole('radio', { name: 'Technician' })).toBeChecked();
    expect(screen.getByLabelText(/Email/)).toHaveValue('ada@northwind-it.example');
    expect(screen.getByLabelText(/Email/)).toHaveFocus();
    expect(screen.queryByText(MESSAGES.auth.otherKindFound.tech)).not.toBeInTheDocument();
    expect(window.localStorage.getItem('lastActiveUserType')).toBe('"tech"');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText(/Password/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/db/technicianUsers/signin').map((call) => call.body)).toEqual([{ emailId: 'ada@northwind-it.example' }, { emailId: 'ada@northwind-it.example' }]);
  });

  it('tells a client on the Technician side to choose Client', { timeout: 20_000 }, async () => {
    window.localStorage.setItem('lastActiveUserType', '"tech"');
    stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/technicianUsers/signin': notFound,
      'POST /db/clientUsers/signin': { status: 200, body: { mspDomains: [NORTHWIND_DOMAIN] } },
    });
    renderAuthRoute('/northwind');
    await submitEmail('jane@contoso.example');
    expect(await screen.findByText(MESSAGES.auth.otherKindFound.client)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MESSAGES.auth.switchToKind.client }));
    expect(screen.getByRole('radio', { name: 'Client' })).toBeChecked();
    expect(screen.getByLabelText(/Email/)).toHaveValue('jane@contoso.example');
  });

  it('gives no hint when the other kind is unknown too, or belongs only to another MSP', { timeout: 20_000 }, async () => {
    const api = stubFetch({
      'GET /db/msp': { status: 200, body: NORTHWIND_PROFILE },
      'POST /db/clientUsers/signin': notFound,
      'POST /db/technicianUsers/signin': (call) =>
        (call.body as { emailId: string }).emailId === 'elsewhere@contoso.example'
          ? { status: 200, body: { mspDomains: [{ mspCustomDomain: 'contoso-it', mspName: 'Contoso IT Services', logoUrl: null }] } }
          : notFound,
    });
    renderAuthRoute('/northwind');
    await submitEmail('nobody@contoso.example');
    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST', '/db/technicianUsers/signin')).toHaveLength(1));

    await userEvent.clear(screen.getByLabelText(/Email/));
    await submitEmail('elsewhere@contoso.example');
    await waitFor(() => expect(api.callsTo('POST', '/db/technicianUsers/signin')).toHaveLength(2));
    expect(await findExactText(MESSAGES.accountDoesNotExist)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.auth.otherKindFound.tech)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MESSAGES.auth.switchToKind.tech })).not.toBeInTheDocument();
  });
});
