import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { TSessionCheckResponse } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { sessionKeys } from '../../session/api/session-queries';
import { MspDashboardPage } from '../../dashboard/pages/msp-dashboard-page';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { ProfileModal } from './profile-modal';

const admin = buildAdminTechnician({ tierLevel: 'NoTier' });

function renderDashboard() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.includes('/technicianUsers/getById')) return new Response(JSON.stringify(admin), { status: 200 });
      return new Response(JSON.stringify({ roles: [] }), { status: 200 });
    }),
  );
  const session: TSessionCheckResponse = { authenticated: true, user: admin };
  return renderWithProviders(
    // The Overview's path (with nothing saved, …/tickets opens the queue): its next steps hold the profile link.
    <MemoryRouter initialEntries={[`/northwind/dashboard/${admin.id}`]}>
      <MspDashboardPage />
    </MemoryRouter>,
    { prepareCache: (queryClient) => queryClient.setQueryData(sessionKeys.current(), session) },
  );
}

beforeEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

// Regression (review s25 #9): the dialog was mounted already open, so Mantine never saw what opened it and
// closing it left keyboard focus on the page body.
describe('closing the profile dialog gives focus back to what opened it', () => {
  it('returns to the account menu button after opening Profile from the account menu', { timeout: 20_000 }, async () => {
    renderDashboard();
    const accountButton = await screen.findByRole('button', { name: /account menu for Jane Doe/ });
    await userEvent.click(accountButton);
    // jsdom has no layout, so floating-ui may call the dropdown detached and hide it (display: none) although it is open.
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Profile', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your profile' })).not.toBeInTheDocument());
    await waitFor(() => expect(accountButton).toHaveFocus());
  });

  it('returns to the overview link after closing with Escape, and opens again with the saved values', { timeout: 20_000 }, async () => {
    renderDashboard();
    const link = await screen.findByRole('button', { name: /Check your name and phone number/ });
    await userEvent.click(link);
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    const firstName = within(dialog).getByRole('textbox', { name: /First name/ });
    await waitFor(() => expect(firstName).toHaveFocus());
    await userEvent.type(firstName, ' unsaved');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your profile' })).not.toBeInTheDocument());
    await waitFor(() => expect(link).toHaveFocus());
    await userEvent.click(link);
    expect(within(await screen.findByRole('dialog', { name: 'Your profile' })).getByRole('textbox', { name: /First name/ })).toHaveValue('Jane');
  });

  // In Chromium with reduced motion the menu is gone in the same render that opens the dialog, so the page body,
  // not the menu item, has the focus when the dialog opens (jsdom's Mantine still fades the menu out).
  it('returns to the menu button when the menu was gone before the dialog opened', async () => {
    function MenuThatClosesAtOnce() {
      const [isOpen, setOpen] = useState(false);
      const [isMenuShown, setMenuShown] = useState(true);
      return (
        <>
          <button type="button" id="account-button">
            Account
          </button>
          {isMenuShown && (
            <div role="menu" aria-labelledby="account-button">
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setMenuShown(false);
                  setOpen(true);
                }}
              >
                Profile
              </button>
            </div>
          )}
          <ProfileModal user={admin} opened={isOpen} onClose={() => setOpen(false)} />
        </>
      );
    }
    renderWithProviders(<MenuThatClosesAtOnce />);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Account' })).toHaveFocus());
  });
});
