import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUILT_IN_ROLES, permissionMap } from '@switchboard/contracts';
import type { TRole, TSessionCheckResponse } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { sessionKeys } from '../../session/api/session-queries';
import { RolesScreen } from './roles-screen';

const MSP = 'northwind';

function role(id: number, name: string, custom: boolean, permissions = BUILT_IN_ROLES.Technician): TRole {
  return { id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, name, custom, permissions, mspCustomDomain: MSP };
}

type TRecordedCall = { url: string; method: string; body: unknown };

/** A fake API for the three role calls; `failCreate` answers A-061 with the server's problem+json. */
function stubRolesApi(roles: TRole[], options: { failCreate?: boolean } = {}) {
  const calls: TRecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ url, method, body });
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url === `/db/${MSP}/roles/all`) return json(200, { roles });
      if (url === `/db/${MSP}/roles/create` && options.failCreate) {
        return json(409, { type: 'about:blank', title: 'Conflict', status: 409, detail: 'A role with that name already exists.', code: 'conflict', requestId: 'r1' });
      }
      if (url === `/db/${MSP}/roles/create`) {
        const saved = { ...(body as Omit<TRole, 'id'>), id: '00000000-0000-4000-8000-000000000999', custom: true };
        return json(200, { role: saved });
      }
      if (url.startsWith(`/db/${MSP}/roles/delete?id=`)) return json(200, { deleted: true });
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r2' });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('RolesScreen', () => {
  it('clones a role as "{base} - Clone {n}" with n = existing clones + 1 and says so', async () => {
    const calls = stubRolesApi([
      role(1, 'Admin', false, BUILT_IN_ROLES.Admin),
      role(2, 'Technician', false),
      role(3, 'Client', false, BUILT_IN_ROLES.Client),
      role(4, 'Technician - Clone 1', true),
    ]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Clone Technician' }));

    await waitFor(() => expect(calls.some((call) => call.url === `/db/${MSP}/roles/create`)).toBe(true));
    const create = calls.find((call) => call.url === `/db/${MSP}/roles/create`);
    expect(create?.method).toBe('POST');
    expect(create?.body).toEqual({ name: 'Technician - Clone 2', permissions: BUILT_IN_ROLES.Technician, custom: true, mspCustomDomain: MSP });
    expect(await screen.findByText('Role cloned. Technician - Clone 2')).toBeInTheDocument();
  });

  it('shows the clone error notification with the server message when the clone fails', async () => {
    stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin)], { failCreate: true });
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Clone Admin' }));
    expect(await screen.findByText('The role could not be cloned.')).toBeInTheDocument();
    expect(screen.getByText('A role with that name already exists.')).toBeInTheDocument();
  });

  it('keeps built-in roles read-only: no edit or delete, and the view has disabled checkboxes', async () => {
    stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin)]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await screen.findByRole('button', { name: 'View Admin' });
    expect(screen.queryByRole('button', { name: 'Edit Admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Admin' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'View Admin' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('checkbox', { name: 'Role management' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
  });

  it('shows a role\'s granted permissions as ticked boxes (regression: Admin showed twelve empty boxes)', async () => {
    stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin), role(2, 'Technician', false)]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'View Admin' }));
    const adminDialog = await screen.findByRole('dialog');
    const adminBoxes = within(adminDialog).getAllByRole('checkbox');
    expect(adminBoxes).toHaveLength(12);
    for (const box of adminBoxes) expect(box).toBeChecked();
    // The footer's Close (the dialog's X is named "Close" too).
    await userEvent.click(within(adminDialog).getByText('Close', { selector: 'button span' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'View Technician' }));
    const technicianDialog = await screen.findByRole('dialog');
    const ticked = within(technicianDialog).getAllByRole('checkbox').filter((box) => (box as HTMLInputElement).checked);
    expect(ticked.map((box) => box.getAttribute('aria-label') ?? (box as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['Client documents', 'MSP documents', 'Board view']);
  });

  it('ticks and unticks a box the person clicks (regression: the click changed a hidden value only)', async () => {
    stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin), role(5, 'Dispatcher', true, permissionMap(['boardView']))]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Dispatcher' }));
    const dialog = await screen.findByRole('dialog');
    const boardView = within(dialog).getByRole('checkbox', { name: 'Board view' });
    const roleManagement = within(dialog).getByRole('checkbox', { name: 'Role management' });
    expect(boardView).toBeChecked();
    expect(roleManagement).not.toBeChecked();
    await userEvent.click(roleManagement);
    expect(roleManagement).toBeChecked();
    await userEvent.click(boardView);
    expect(boardView).not.toBeChecked();
  });

  it('creates a role with the chosen permissions', async () => {
    const calls = stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin)]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create role' }));
    const dialog = await screen.findByRole('dialog');
    // Bug (axe sweep s28): the Create role dialog's X had no accessible name.
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Role name/ }), 'Dispatcher');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Board view' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(await screen.findByText('Role created.')).toBeInTheDocument();
    const create = calls.find((call) => call.url === `/db/${MSP}/roles/create`);
    expect(create?.body).toEqual({ name: 'Dispatcher', permissions: permissionMap(['boardView']), custom: true, mspCustomDomain: MSP });
  });

  it('edits a custom role by sending its id, and says so', async () => {
    const dispatcher = role(5, 'Dispatcher', true, permissionMap(['boardView']));
    const calls = stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin), dispatcher]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Dispatcher' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Role management' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Role updated.')).toBeInTheDocument();
    const save = calls.find((call) => call.url === `/db/${MSP}/roles/create`);
    expect(save?.body).toEqual({ id: dispatcher.id, name: 'Dispatcher', permissions: permissionMap(['boardView', 'roleManagement']), custom: true, mspCustomDomain: MSP });
  });

  // Regression (review s29 #1): a role manager could tick any permission (their own role's included) and the server took it.
  it('offers no permission the signed-in person lacks, and no change of a role richer than theirs, saying why', async () => {
    const mine = permissionMap(['roleManagement', 'boardView']);
    const session: TSessionCheckResponse = { authenticated: true, user: buildAdminTechnician({ roleName: 'Role clerks', permissions: mine }) };
    stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin), role(5, 'Dispatcher', true, permissionMap(['boardView'])), role(6, 'Managers', true, permissionMap(['boardView', 'technicianUserManagement']))]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />, { prepareCache: (cache) => cache.setQueryData(sessionKeys.current(), session) });

    await screen.findByRole('button', { name: 'Edit Dispatcher' });
    for (const hidden of ['Clone Admin', 'Edit Managers', 'Delete Managers', 'Clone Managers']) expect(screen.queryByRole('button', { name: hidden })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Managers' })).toBeInTheDocument();
    expect(screen.getAllByText('Has permissions you lack')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Dispatcher' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('checkbox', { name: 'Board view' })).toBeEnabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Role management' })).toBeEnabled();
    const lacking = within(dialog).getByRole('checkbox', { name: 'Technician user management' });
    expect(lacking).toBeDisabled();
    expect(lacking).toHaveAccessibleDescription('You do not have this permission yourself.');
  });

  it('deletes a custom role only after confirmation', async () => {
    const calls = stubRolesApi([role(1, 'Admin', false, BUILT_IN_ROLES.Admin), role(5, 'Dispatcher', true)]);
    renderWithProviders(<RolesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Dispatcher' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((call) => call.url.includes('/roles/delete'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await screen.findByText('Role deleted.')).toBeInTheDocument();
    expect(calls.find((call) => call.url.includes('/roles/delete'))?.url).toBe(`/db/${MSP}/roles/delete?id=${role(5, 'Dispatcher', true).id}`);
  });
});
