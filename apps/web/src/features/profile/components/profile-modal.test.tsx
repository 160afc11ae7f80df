import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionCheckResponse, TSessionMspUser } from '@switchboard/contracts';
import { ApiError } from '../../../lib/api-client';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { sessionKeys } from '../../session/api/session-queries';
import { profileEditPath, profileSaveErrorMessage } from '../api/profile-queries';
import { ProfileModal } from './profile-modal';
import { buildAdminTechnician } from '../../../test/build-session-user';

const client: TSessionMspUser = buildAdminTechnician({ userKind: 'client', email: 'jane@contoso.example', phoneNumber: '5551234567', roleName: 'Client', tierLevel: null, psaCompanyId: '19', psaContactId: '7' });

afterEach(() => vi.unstubAllGlobals());

/** The dialog also asks for the authenticator-app status (decisions #16): answered "off" here, every other call goes to `server`. */
function answeringTotpStatus(server: (url: string, init: RequestInit) => Promise<Response>) {
  return vi.fn(async (url: string, init: RequestInit) => (url.endsWith('/totp') ? new Response(JSON.stringify({ totpEnabled: false }), { status: 200 }) : server(url, init)));
}

describe('profile save (R-112, R-113)', () => {
  it('uses the edit endpoint of the user type', () => {
    expect(profileEditPath(client)).toBe('/db/northwind/clientUsers/edit');
    expect(profileEditPath({ ...client, userKind: 'technician' })).toBe('/db/northwind/technicianUsers/edit');
  });

  it("shows the server's message, else the spec's failure text, and the exception text for a failed call", () => {
    expect(profileSaveErrorMessage(new ApiError({ status: 400, code: 'validation', detail: 'Invalid phone number format.' }))).toBe('Invalid phone number format.');
    expect(profileSaveErrorMessage(new ApiError({ status: 500, code: 'internal', detail: '' }))).toBe(MESSAGES.profileSaveFailed);
    expect(profileSaveErrorMessage(new ApiError({ status: 0, code: 'network', detail: MESSAGES.networkError }))).toBe(MESSAGES.profileSaveException);
    expect(profileSaveErrorMessage(new TypeError('boom'))).toBe(MESSAGES.profileSaveException);
  });

  it('sends the email and the changed first name, and updates the signed-in user', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as Record<string, string>;
      return new Response(
        JSON.stringify({ user: { ...client, ...body, hasTotp: false, isActive: true } }),
        { status: 200 },
      );
    });
    vi.stubGlobal('fetch', answeringTotpStatus(fetchMock));
    const onClose = vi.fn();
    const { queryClient } = renderWithProviders(<ProfileModal user={client} opened onClose={onClose} />);
    const session: TSessionCheckResponse = { authenticated: true, user: client };
    queryClient.setQueryData(sessionKeys.current(), session);

    const firstName = await screen.findByRole('textbox', { name: /First name/ });
    // Bug (axe sweep s28): the Profile dialog's X had no accessible name.
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await userEvent.clear(firstName);
    await userEvent.type(firstName, 'Janet');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/db/northwind/clientUsers/edit');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body as string)).toEqual({ email: client.email, firstName: 'Janet' });
    const cached = queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current());
    expect(cached?.authenticated === true && cached.user.firstName).toBe('Janet');
  });

  it("shows the server's message when the save is refused", async () => {
    vi.stubGlobal(
      'fetch',
      answeringTotpStatus(
        vi.fn(async () =>
          new Response(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid phone number format.', code: 'validation', requestId: 'r' }), { status: 400 }),
        ),
      ),
    );
    renderWithProviders(<ProfileModal user={client} opened onClose={vi.fn()} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Phone number/ }), '9');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Invalid phone number format.');
  });

  // Regression (review s25 #2): every field went to the server, so a user whose PSA record has an accented name
  // or no phone got "First and last name are required." / "Phone number is invalid." and could never save.
  describe("saves for Seán O'Brien and for a user without a phone", () => {
    const sean = buildAdminTechnician({ userKind: 'client', firstName: 'Seán', lastName: "O'Brien", phoneNumber: '', roleName: 'Client', tierLevel: null });

    function echoServer() {
      const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(init.body as string) as Record<string, string>;
        return new Response(JSON.stringify({ user: { ...sean, ...body, hasTotp: false, isActive: true } }), { status: 200 });
      });
      vi.stubGlobal('fetch', answeringTotpStatus(fetchMock));
      return fetchMock;
    }
    const sentBody = (fetchMock: ReturnType<typeof echoServer>) => JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string) as unknown;

    it('sends only the phone when only the phone was added', async () => {
      const fetchMock = echoServer();
      const onClose = vi.fn();
      renderWithProviders(<ProfileModal user={sean} opened onClose={onClose} />);
      await userEvent.type(await screen.findByRole('textbox', { name: /Phone number/ }), '303 555 0123');
      await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect(sentBody(fetchMock)).toEqual({ email: sean.email, phoneNumber: '303 555 0123' });
    });

    it('sends a changed name with letters of any language, without the empty phone', async () => {
      const fetchMock = echoServer();
      const onClose = vi.fn();
      renderWithProviders(<ProfileModal user={sean} opened onClose={onClose} />);
      const lastName = await screen.findByRole('textbox', { name: /Last name/ });
      await userEvent.clear(lastName);
      await userEvent.type(lastName, 'Ó Briain-Nguyễn');
      await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect(sentBody(fetchMock)).toEqual({ email: sean.email, lastName: 'Ó Briain-Nguyễn' });
    });

    it('sends an empty phone to clear it', async () => {
      const fetchMock = echoServer();
      const onClose = vi.fn();
      renderWithProviders(<ProfileModal user={client} opened onClose={onClose} />);
      await userEvent.clear(await screen.findByRole('textbox', { name: /Phone number/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect(sentBody(fetchMock)).toEqual({ email: client.email, phoneNumber: '' });
    });

    it('closes without a call when nothing changed, and names a changed name it cannot take before sending', async () => {
      const fetchMock = echoServer();
      const onClose = vi.fn();
      renderWithProviders(<ProfileModal user={sean} opened onClose={onClose} />);
      await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      const firstName = screen.getByRole('textbox', { name: /First name/ });
      await userEvent.type(firstName, '<b>');
      await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
      expect(await screen.findByText(MESSAGES.profileNameInvalid)).toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});
