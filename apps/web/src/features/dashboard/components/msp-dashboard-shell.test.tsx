import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ALL_PERMISSIONS, BUILT_IN_ROLES } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { STORAGE_KEYS } from '../../../lib/local-storage';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MspDashboardShell } from './msp-dashboard-shell';

const admin: TSessionMspUser = {
  principal: 'user',
  id: '5f1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11',
  userKind: 'technician',
  mspCustomDomain: 'northwind',
  mspName: 'Northwind IT',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@northwind-it.example',
  phoneNumber: '',
  roleId: '0c2f6f8e-1d3c-4a4e-8f55-5c2b6a1d9e00',
  roleName: 'Admin',
  permissions: ALL_PERMISSIONS,
  tierLevel: 'NoTier',
  psaMemberId: null,
  psaCompanyId: null,
  psaContactId: null,
  clientsAutopilotDbid: null,
};

function renderDashboard(user: TSessionMspUser, path = `/northwind/dashboard/${admin.id}/tickets`) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ roles: [] }), { status: 200 })));
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <MspDashboardShell user={user} />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('MspDashboardShell', () => {
  it("shows the signed-in user's overview on the iTAgent tab", async () => {
    renderDashboard(admin);
    expect(await screen.findByRole('heading', { name: 'Welcome, Jane' })).toBeInTheDocument();
    expect(screen.getByText('No Dispatching')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'iTAgent' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens Roles from the nav panel, switching to the admin tab and remembering it', async () => {
    renderDashboard(admin);
    await userEvent.click(await screen.findByRole('button', { name: 'Roles' }));
    expect(screen.getByRole('tab', { name: 'Admin' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.lastUiState) ?? '{}')).toMatchObject({ activeTab: 'admin', currentOption: 'roles' });
  });

  it('shows no admin tab or roles option to a user without roleManagement', async () => {
    renderDashboard({ ...admin, roleName: 'Technician', permissions: BUILT_IN_ROLES.Technician });
    await screen.findByRole('heading', { name: 'Welcome, Jane' });
    expect(screen.queryByRole('tab', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Roles' })).not.toBeInTheDocument();
  });

  it('starts with panels closed at 1023 px and open above it (decisions #13)', async () => {
    window.innerWidth = 1023;
    const narrow = renderDashboard(admin);
    expect(await screen.findByRole('button', { name: 'Open navigation panel' })).toBeInTheDocument();
    narrow.unmount();
    window.innerWidth = 1280;
    renderDashboard(admin);
    expect(await screen.findByRole('button', { name: 'Close navigation panel' })).toBeInTheDocument();
  });
});
