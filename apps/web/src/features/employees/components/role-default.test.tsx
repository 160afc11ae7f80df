import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState, type ReactElement } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUILT_IN_ROLES } from '@switchboard/contracts';
import type { TRole } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { AddEmployeeModal } from './add-employee-modal';
import { ImportPsaMembersModal } from './import-psa-members-modal';

const MSP = 'northwind';
// Listed as the server lists them: Admin first, so a select with no chosen value shows Admin.
const ROLES: TRole[] = [
  { id: '00000000-0000-4000-8000-000000000001', name: 'Admin', custom: false, permissions: BUILT_IN_ROLES.Admin, mspCustomDomain: MSP },
  { id: '00000000-0000-4000-8000-000000000002', name: 'Technician', custom: false, permissions: BUILT_IN_ROLES.Technician, mspCustomDomain: MSP },
];

/** Records each request's JSON body; answers what the modals ask for. */
function stubApi(answers: Record<string, unknown>) {
  const bodies: Array<{ url: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (typeof init.body === 'string') bodies.push({ url, body: JSON.parse(init.body) as Record<string, unknown> });
      const path = url.split('?')[0] ?? url;
      const answer = answers[`${init.method ?? 'GET'} ${path}`];
      if (answer === undefined) return new Response(JSON.stringify({ status: 404, title: 'Not Found', detail: 'Not found.', code: 'not_found', requestId: 'r' }), { status: 404 });
      return new Response(JSON.stringify(answer), { status: 200 });
    }),
  );
  return bodies;
}

afterEach(() => vi.unstubAllGlobals());

/** Renders `modal` with no roles, as a dialog opened before the roles query answered; `loadRoles` then gives it ROLES. */
function renderBeforeRolesLoad(modal: (roles: TRole[]) => ReactElement) {
  let setRoles: (roles: TRole[]) => void = () => undefined;
  function Harness() {
    const [roles, setState] = useState<TRole[]>([]);
    setRoles = setState;
    return modal(roles);
  }
  renderWithProviders(<Harness />);
  return { loadRoles: () => act(() => setRoles(ROLES)) };
}

const roleSelect = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Role' });
const shownRole = () => {
  const select = roleSelect();
  return { id: select.value, name: select.selectedOptions[0]?.textContent ?? '' };
};

// Regression (review s26 #5): opened before the roles loaded, the dialog kept roleId '' for good: the picker showed the
// first role (Admin) while the request left the role out, and the server gave the employee Technician.
describe('the role the picker shows is the role that is sent', { timeout: 30_000 }, () => {
  it('Add employee, opened before the roles loaded', async () => {
    const bodies = stubApi({ [`POST /db/${MSP}/technicianUsers/add`]: { user: buildAdminTechnician({ roleName: 'Technician' }) } });
    const { loadRoles } = renderBeforeRolesLoad((roles) => <AddEmployeeModal mspCustomDomain={MSP} roles={roles} onClose={() => undefined} onAdded={() => undefined} />);
    loadRoles();
    await userEvent.type(screen.getByLabelText('First name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Phone number'), '3035550123');
    await userEvent.type(screen.getByLabelText('Password'), 'Passw0rd!');
    const shown = shownRole();
    await userEvent.click(screen.getByRole('button', { name: 'Add employee' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]?.body.roleId).toBe(shown.id);
    // The default, as on a dialog opened after the roles loaded: the built-in Technician role.
    expect(shown.name).toBe('Technician');
  });

  it('Import from PSA, opened before the roles loaded', async () => {
    const bodies = stubApi({
      [`GET /db/${MSP}/psaMembers`]: { members: [{ psaMemberId: '17', identifier: 'alovelace', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
      [`POST /psa/${MSP}/addPSAMembers`]: { added: [] },
    });
    const { loadRoles } = renderBeforeRolesLoad((roles) => <ImportPsaMembersModal mspCustomDomain={MSP} roles={roles} onClose={() => undefined} onImported={() => undefined} />);
    loadRoles();
    await userEvent.click(await screen.findByRole('checkbox', { name: /Ada Lovelace/ }));
    const shown = shownRole();
    await userEvent.click(screen.getByRole('button', { name: /Import 1 member/ }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]?.body.roleId).toBe(shown.id);
    // The default, as on a dialog opened after the roles loaded: the built-in Technician role.
    expect(shown.name).toBe('Technician');
  });
});
