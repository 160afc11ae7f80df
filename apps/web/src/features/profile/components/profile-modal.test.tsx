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

  it('sends first name, last name, email and phone and updates the signed-in user', async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as Record<string, string>;
      return new Response(
        JSON.stringify({ user: { ...client, ...body, hasTotp: false, isActive: true } }),
        { status: 200 },
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    const { queryClient } = renderWithProviders(<ProfileModal user={client} onClose={onClose} />);
    const session: TSessionCheckResponse = { authenticated: true, user: client };
    queryClient.setQueryData(sessionKeys.current(), session);

    const firstName = await screen.findByRole('textbox', { name: /First name/ });
    await userEvent.clear(firstName);
    await userEvent.type(firstName, 'Janet');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/db/northwind/clientUsers/edit');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body as string)).toEqual({ email: client.email, firstName: 'Janet', lastName: 'Doe', phoneNumber: '5551234567' });
    const cached = queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current());
    expect(cached?.authenticated === true && cached.user.firstName).toBe('Janet');
  });

  it("shows the server's message when the save is refused", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid phone number format.', code: 'validation', requestId: 'r' }), { status: 400 }),
      ),
    );
    renderWithProviders(<ProfileModal user={client} onClose={vi.fn()} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Invalid phone number format.');
  });
});
