import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { BUILT_IN_ROLES, MESSAGES } from '@switchboard/contracts';
import type { TEmployee, TRole, TSessionCheckResponse, TSessionMspUser } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { sessionKeys } from '../../session/api/session-queries';
import { useTechnicianInformation } from '../../session/api/technician-information';
import { EmployeesPage } from './employees-page';

const MSP = 'northwind';
const ADMIN_ROLE: TRole = { id: '00000000-0000-4000-8000-000000000001', name: 'Admin', custom: false, permissions: BUILT_IN_ROLES.Admin, mspCustomDomain: MSP };
const TECH_ROLE: TRole = { id: '00000000-0000-4000-8000-000000000002', name: 'Technician', custom: false, permissions: BUILT_IN_ROLES.Technician, mspCustomDomain: MSP };

function employee(index: number): TEmployee {
  return {
    id: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
    firstName: `Tech${index}`,
    lastName: 'Person',
    email: `tech${index}@example.com`,
    phoneNumber: '3035550100',
    roleId: TECH_ROLE.id,
    roleName: 'Technician',
    tierLevel: 'Tier1',
    psaMemberId: null,
    isActive: true,
    accountStatus: index === 0 ? 'No account' : index === 1 ? 'Invited' : 'Active',
    hasAuthenticatorApp: false,
  };
}

function stubApi(total: number) {
  const calls: Array<{ url: string; method: string }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET' });
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url === `/db/${MSP}/technicianUsers/sendInvitation`) return json(200, { employee: { ...employee(0), accountStatus: 'Invited' } });
      if (url === `/db/${MSP}/roles/all`) return json(200, { roles: [ADMIN_ROLE, TECH_ROLE] });
      if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) {
        const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');
        const start = (page - 1) * 30;
        const employees = Array.from({ length: Math.max(0, Math.min(30, total - start)) }, (_, index) => employee(start + index));
        return json(200, { employees, total, page, pageSize: 30 });
      }
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What the dashboard shell does for its menus: it keeps the signed-in user's information. */
function SignedInUserInformation({ user }: { user: TSessionMspUser }) {
  useTechnicianInformation(user);
  return null;
}

describe('EmployeesPage', () => {
  it('shows each account as a badge and invites a technician without one (decision 019)', { timeout: 20_000 }, async () => {
    const calls = stubApi(3);
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);
    const table = await screen.findByRole('table', { name: 'Active employees' });
    expect(within(table).getByRole('columnheader', { name: 'Account' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[4]?.textContent)).toEqual(['No account', 'Invited', 'Active']);
    expect(screen.getByRole('button', { name: 'Invite again Tech1 Person' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite Tech2 Person' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Invite Tech0 Person' }));
    expect(await screen.findByText(MESSAGES.invitations.sent)).toBeInTheDocument();
    expect(calls).toContainEqual({ url: `/db/${MSP}/technicianUsers/sendInvitation`, method: 'POST' });
  });

  // Review s27 #7: both rows shared one mutation, and TanStack runs a call's own callbacks only for the latest call.
  it('reports each of two invitations sent quickly one after the other', { timeout: 20_000 }, async () => {
    const calls = stubApi(3);
    const stubbed = vi.mocked(fetch);
    const answerFirst: Array<() => void> = [];
    const base = stubbed.getMockImplementation();
    stubbed.mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url !== `/db/${MSP}/technicianUsers/sendInvitation`) return (base as typeof fetch)(input, init);
      calls.push({ url, method: init?.method ?? 'GET' });
      const { id } = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as { id: string };
      const index = id === employee(0).id ? 0 : 1;
      const answer = new Response(JSON.stringify({ employee: { ...employee(index), accountStatus: 'Invited' } }), { status: 200 });
      // The first invitation's answer arrives only after the second was sent.
      if (index === 0) return new Promise<Response>((resolve) => answerFirst.push(() => resolve(answer)));
      return answer;
    });
    // Notifications close by themselves after a few seconds: what was shown is read from the calls, not the page.
    const shown = vi.spyOn(notifications, 'show');
    const sentTo = () => shown.mock.calls.filter(([notice]) => notice.title === MESSAGES.invitations.sent).map(([notice]) => notice.message);
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Invite Tech0 Person' }));
    await userEvent.click(screen.getByRole('button', { name: 'Invite again Tech1 Person' }));
    await waitFor(() => expect(sentTo()).toEqual([employee(1).email]));
    await waitFor(() => expect(answerFirst).toHaveLength(1));
    answerFirst.forEach((answer) => answer());
    await waitFor(() => expect(sentTo()).toEqual([employee(1).email, employee(0).email]));
    expect(calls.filter((call) => call.url.endsWith('/sendInvitation'))).toHaveLength(2);
  });

  /**
   * Two inactive employees (Tech0, Tech1). Each restore is answered when the test says so, with `outcome(index)`: a
   * restored employee leaves the inactive list, as on the server.
   */
  function stubRestores(outcome: (index: number) => 'restored' | 'refused') {
    const inactive = new Set([0, 1]);
    const pending: Array<{ index: number; answer: () => void }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
        if (url === `/db/${MSP}/roles/all`) return json(200, { roles: [ADMIN_ROLE, TECH_ROLE] });
        if (url.startsWith(`/db/${MSP}/technicianUsers/inactiveTechnicians`)) {
          const employees = [...inactive].map((index) => ({ ...employee(index), isActive: false }));
          return json(200, { employees, total: employees.length, page: 1, pageSize: 30 });
        }
        if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) return json(200, { employees: [], total: 0, page: 1, pageSize: 30 });
        if (url.startsWith(`/db/${MSP}/technicianUsers/restore`)) {
          const id = new URL(url, 'http://x').searchParams.get('id');
          const index = id === employee(0).id ? 0 : 1;
          return new Promise<Response>((resolve) =>
            pending.push({
              index,
              answer: () => {
                if (outcome(index) === 'refused') return resolve(json(403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: MESSAGES.roleTargetTooBroad, code: 'forbidden', requestId: 'r' }));
                inactive.delete(index);
                resolve(json(200, { employee: { ...employee(index), isActive: true } }));
              },
            }),
          );
        }
        return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' });
      }),
    );
    const answer = async (index: number) => {
      await waitFor(() => expect(pending.some((call) => call.index === index)).toBe(true));
      pending.find((call) => call.index === index)?.answer();
    };
    return { answer };
  }

  async function restoreBothQuickly() {
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);
    await userEvent.click(await screen.findByRole('radio', { name: 'Inactive' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restore Tech0 Person' }));
    await userEvent.click(screen.getByRole('button', { name: 'Restore Tech1 Person' }));
  }

  // Review s27: the Restore buttons shared one mutation, and TanStack runs a call's own callbacks only for the latest call.
  it('reports the failure of the first of two restores made quickly, when the second succeeds', { timeout: 20_000 }, async () => {
    const { answer } = stubRestores((index) => (index === 0 ? 'refused' : 'restored'));
    // Notifications close by themselves after a few seconds: what was shown is read from the calls, not the page.
    const shown = vi.spyOn(notifications, 'show');
    const titles = () => shown.mock.calls.map(([notice]) => [notice.title, notice.message]);
    await restoreBothQuickly();
    // Each row shows its own restore running.
    expect(screen.getByRole('button', { name: 'Restore Tech0 Person' })).toHaveAttribute('data-loading', 'true');
    expect(screen.getByRole('button', { name: 'Restore Tech1 Person' })).toHaveAttribute('data-loading', 'true');
    await answer(1);
    await waitFor(() => expect(titles()).toEqual([[MESSAGES.employees.restored, 'Tech1 Person']]));
    await answer(0);
    await waitFor(() => expect(titles()).toEqual([[MESSAGES.employees.restored, 'Tech1 Person'], [MESSAGES.employees.restoreFailed, `Tech0 Person: ${MESSAGES.roleTargetTooBroad}`]]));
  });

  it('reports the first of two quick restores once it succeeds, though its row has left the Inactive list by then', { timeout: 20_000 }, async () => {
    const { answer } = stubRestores(() => 'restored');
    const shown = vi.spyOn(notifications, 'show');
    const titles = () => shown.mock.calls.map(([notice]) => [notice.title, notice.message]);
    await restoreBothQuickly();
    await answer(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Restore Tech1 Person' })).not.toBeInTheDocument());
    await answer(0);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Restore Tech0 Person' })).not.toBeInTheDocument());
    await waitFor(() => expect(titles()).toEqual([[MESSAGES.employees.restored, 'Tech1 Person'], [MESSAGES.employees.restored, 'Tech0 Person']]));
  });

  it('starts on Active employees, 30 a page, and asks the server for the next page', { timeout: 20_000 }, async () => {
    const calls = stubApi(45);
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);
    expect(await screen.findByText('45 active employees')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Active employees' })).getAllByRole('row')).toHaveLength(31);
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Tech44 Person')).toBeInTheDocument();
    expect(calls.some((call) => call.url.includes('page=2'))).toBe(true);
  });

  it('shows each of the four form messages and makes no add call while any shows (R-140–R-144)', { timeout: 20_000 }, async () => {
    const calls = stubApi(1);
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add employee' }));
    const form = await screen.findByRole('form', { name: 'Add employee' });
    await userEvent.type(within(form).getByLabelText('Email'), 'not-an-email');
    await userEvent.type(within(form).getByLabelText('Phone number'), '12');
    await userEvent.type(within(form).getByLabelText('Password'), 'weak');
    await userEvent.click(within(form).getByRole('button', { name: 'Add employee' }));
    for (const message of [MESSAGES.employee.names, MESSAGES.employee.email, MESSAGES.employee.phone, MESSAGES.employee.password]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
    await waitFor(() => expect(calls.filter((call) => call.url.includes('/technicianUsers/add'))).toHaveLength(0));
  });

  it('says so, with the server\'s reason, when an add, a role or tier change or a delete is refused (R-148)', { timeout: 30_000 }, async () => {
    const refused = (detail: string) => new Response(JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail, code: 'conflict', requestId: 'r' }), { status: 409 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === `/db/${MSP}/roles/all`) return new Response(JSON.stringify({ roles: [ADMIN_ROLE, TECH_ROLE] }), { status: 200 });
        if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) return new Response(JSON.stringify({ employees: [employee(2)], total: 1, page: 1, pageSize: 30 }), { status: 200 });
        if (url === `/db/${MSP}/technicianUsers/add`) return refused('A technician with this email already exists.');
        if (url === `/db/${MSP}/technicianUsers/edit`) return refused(MESSAGES.employees.lastRoleManager);
        if (url.startsWith(`/db/${MSP}/technicianUsers/delete`)) return refused(MESSAGES.employees.lastRoleManager);
        return new Response('{}', { status: 404 });
      }),
    );
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId="me" />);

    await userEvent.click(await screen.findByRole('button', { name: 'Add employee' }));
    const form = await screen.findByRole('form', { name: 'Add employee' });
    await userEvent.type(within(form).getByLabelText('First name'), 'Ada');
    await userEvent.type(within(form).getByLabelText('Last name'), 'Byron');
    await userEvent.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(within(form).getByLabelText('Phone number'), '3035550100');
    await userEvent.type(within(form).getByLabelText('Password'), 'Str0ng!pass');
    await userEvent.click(within(form).getByRole('button', { name: 'Add employee' }));
    expect(await within(form).findByText(MESSAGES.employees.addFailed)).toBeInTheDocument();
    expect(within(form).getByText('A technician with this email already exists.')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Edit Tech2 Person' }));
    const edit = await screen.findByRole('form', { name: 'Edit employee' });
    await userEvent.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await within(edit).findByText(MESSAGES.employees.updateFailed)).toBeInTheDocument();
    expect(within(edit).getByText(MESSAGES.employees.lastRoleManager)).toBeInTheDocument();
    await userEvent.click(within(edit).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete Tech2 Person' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete employee' }));
    expect(await screen.findByText(MESSAGES.employees.deleteFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.employees.lastRoleManager)).toBeInTheDocument();
  });

  // Decision 044: the server refuses (403) every change of a colleague whose role holds a permission the signed-in person
  // lacks, so their row offers no Edit, Delete, Invite or Restore that would only be refused; a refusal the screen could
  // not foresee is shown in the server's words.
  it('offers no change of a colleague whose role holds more than the signed-in person\'s, and words a refusal', { timeout: 30_000 }, async () => {
    const managerRole: TRole = { id: '00000000-0000-4000-8000-000000000003', name: 'People managers', custom: true, permissions: { ...BUILT_IN_ROLES.Technician, technicianUserManagement: true }, mspCustomDomain: MSP };
    const me = buildAdminTechnician({ id: employee(3).id, email: employee(3).email, roleId: managerRole.id, roleName: managerRole.name, permissions: managerRole.permissions });
    // With an authenticator app: its removal is a change of them too (decision 047).
    const richer = { ...employee(0), roleId: ADMIN_ROLE.id, roleName: 'Admin', hasAuthenticatorApp: true };
    const lesser = employee(1);
    const myself = { ...employee(3), roleId: managerRole.id, roleName: managerRole.name };
    const forbidden = new Response(JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: MESSAGES.roleTargetTooBroad, code: 'forbidden', requestId: 'r' }), { status: 403 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200 });
        if (url === `/db/${MSP}/roles/all`) return json({ roles: [ADMIN_ROLE, TECH_ROLE, managerRole] });
        if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) return json({ employees: [richer, lesser, myself], total: 3, page: 1, pageSize: 30 });
        if (url.startsWith(`/db/${MSP}/technicianUsers/inactiveTechnicians`)) return json({ employees: [{ ...richer, isActive: false }, { ...lesser, isActive: false }], total: 2, page: 1, pageSize: 30 });
        if (url === `/db/${MSP}/technicianUsers/edit`) return forbidden;
        return new Response('{}', { status: 404 });
      }),
    );
    const session: TSessionCheckResponse = { authenticated: true, user: me };
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId={me.id} />, { prepareCache: (cache) => cache.setQueryData(sessionKeys.current(), session) });

    const table = await screen.findByRole('table', { name: 'Active employees' });
    const rowOf = (name: string) => within(table).getByRole('rowheader', { name: new RegExp(name) }).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(rowOf('Tech0 Person')).queryAllByRole('button')).toEqual([]));
    expect(within(rowOf('Tech0 Person')).getByText('Their role has permissions you lack')).toBeInTheDocument();
    expect(within(rowOf('Tech1 Person')).getByRole('button', { name: 'Edit Tech1 Person' })).toBeInTheDocument();
    expect(within(rowOf('Tech1 Person')).getByRole('button', { name: 'Delete Tech1 Person' })).toBeInTheDocument();
    expect(within(rowOf('Tech1 Person')).getByRole('button', { name: 'Invite again Tech1 Person' })).toBeInTheDocument();
    expect(within(rowOf('Tech3 Person')).getByRole('button', { name: 'Edit Tech3 Person' })).toBeInTheDocument();

    // A change the screen could not foresee (the colleague's role changed meanwhile) says why it was refused.
    await userEvent.click(within(rowOf('Tech1 Person')).getByRole('button', { name: 'Edit Tech1 Person' }));
    const edit = await screen.findByRole('form', { name: 'Edit employee' });
    await userEvent.click(within(edit).getByRole('button', { name: 'Save changes' }));
    expect(await within(edit).findByText(MESSAGES.roleTargetTooBroad)).toBeInTheDocument();
    await userEvent.click(within(edit).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('radio', { name: 'Inactive' }));
    expect(await screen.findByRole('button', { name: 'Restore Tech1 Person' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore Tech0 Person' })).not.toBeInTheDocument();
  });

  // Decision 047: a colleague who lost the phone with their authenticator app gets it removed here, after a confirmation.
  it('offers to remove an enrolled authenticator app only, never one\'s own, and confirms before removing it', { timeout: 30_000 }, async () => {
    const enrolled = new Set([2, 3]);
    const removals: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200 });
        if (url === `/db/${MSP}/roles/all`) return json({ roles: [ADMIN_ROLE, TECH_ROLE] });
        if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) {
          return json({ employees: [1, 2, 3].map((index) => ({ ...employee(index), hasAuthenticatorApp: enrolled.has(index) })), total: 3, page: 1, pageSize: 30 });
        }
        if (url === `/db/${MSP}/technicianUsers/totp/remove` && init.method === 'POST') {
          const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { id: string };
          removals.push(body);
          enrolled.delete(2);
          return json({ id: body.id, hasAuthenticatorApp: false, isPersonNotified: true });
        }
        return new Response('{}', { status: 404 });
      }),
    );
    const shown = vi.spyOn(notifications, 'show');
    renderWithProviders(<EmployeesPage mspCustomDomain={MSP} currentUserId={employee(3).id} />);
    const table = await screen.findByRole('table', { name: 'Active employees' });
    const rowOf = (name: string) => within(table).getByRole('rowheader', { name: new RegExp(name) }).closest('tr') as HTMLElement;
    const removeButton = (name: string) => within(rowOf(name)).queryByRole('button', { name: `${MESSAGES.authenticatorAppRemoval.action} of ${name}` });
    await waitFor(() => expect(removeButton('Tech2 Person')).toBeInTheDocument());
    expect(removeButton('Tech1 Person')).not.toBeInTheDocument();
    // One's own app changes only with a code from it, in the profile (decision 046).
    expect(removeButton('Tech3 Person')).not.toBeInTheDocument();

    await userEvent.click(removeButton('Tech2 Person') as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.authenticatorAppRemoval.confirmTitle('Tech2 Person') });
    expect(within(dialog).getByText(MESSAGES.authenticatorAppRemoval.confirmText)).toBeInTheDocument();
    expect(removals).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: MESSAGES.authenticatorAppRemoval.confirm }));
    await waitFor(() => expect(removeButton('Tech2 Person')).not.toBeInTheDocument());
    expect(removals).toEqual([{ id: employee(2).id }]);
    await waitFor(() =>
      expect(shown.mock.calls.map(([notice]) => [notice.title, notice.message])).toContainEqual([MESSAGES.authenticatorAppRemoval.removed, MESSAGES.authenticatorAppRemoval.removedFor('Tech2 Person')]),
    );
  });

  // Bug: after an admin changed their own role, only the employee lists were re-read, so their menus kept
  // the old role's options until they signed in again.
  it('re-reads the signed-in user\'s information when they change their own role, and only then', { timeout: 30_000 }, async () => {
    const me = buildAdminTechnician({ id: employee(2).id, firstName: 'Tech2', lastName: 'Person', email: employee(2).email, roleId: ADMIN_ROLE.id, roleName: 'Admin' });
    let myRole = { roleId: ADMIN_ROLE.id, roleName: 'Admin', permissions: BUILT_IN_ROLES.Admin };
    const userInfoReads: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200 });
        if (url === `/db/${MSP}/roles/all`) return json({ roles: [ADMIN_ROLE, TECH_ROLE] });
        if (url.startsWith(`/db/${MSP}/technicianUsers/activeTechnicians`)) return json({ employees: [{ ...employee(2), roleId: myRole.roleId, roleName: myRole.roleName }, employee(3)], total: 2, page: 1, pageSize: 30 });
        if (url.startsWith(`/db/${MSP}/technicianUsers/getById`)) {
          userInfoReads.push(url);
          return json({ ...me, ...myRole });
        }
        if (url === `/db/${MSP}/technicianUsers/edit`) {
          const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { email: string; roleId: string };
          if (body.email === me.email) myRole = { roleId: TECH_ROLE.id, roleName: 'Technician', permissions: BUILT_IN_ROLES.Technician };
          const edited = body.email === me.email ? { ...me, ...myRole } : buildAdminTechnician({ id: employee(3).id, email: employee(3).email, roleId: body.roleId, roleName: 'Technician', permissions: BUILT_IN_ROLES.Technician });
          return json({ user: edited });
        }
        return new Response('{}', { status: 404 });
      }),
    );
    const session: TSessionCheckResponse = { authenticated: true, user: me };
    const { queryClient } = renderWithProviders(
      <>
        <SignedInUserInformation user={me} />
        <EmployeesPage mspCustomDomain={MSP} currentUserId={me.id} />
      </>,
      { prepareCache: (cache) => cache.setQueryData(sessionKeys.current(), session) },
    );
    await waitFor(() => expect(userInfoReads).toHaveLength(1));

    // Someone else's role: the signed-in user's information is not read again.
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Tech3 Person' }));
    const other = await screen.findByRole('form', { name: 'Edit employee' });
    await userEvent.selectOptions(within(other).getByLabelText('Role'), TECH_ROLE.id);
    await userEvent.click(within(other).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit employee' })).not.toBeInTheDocument());
    expect(userInfoReads).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Tech2 Person' }));
    const mine = await screen.findByRole('form', { name: 'Edit employee' });
    await userEvent.selectOptions(within(mine).getByLabelText('Role'), TECH_ROLE.id);
    await userEvent.click(within(mine).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(userInfoReads).toHaveLength(2));
    // The menus read the session's permissions: they are the Technician's now.
    await waitFor(() => expect(queryClient.getQueryData<TSessionCheckResponse>(sessionKeys.current())).toMatchObject({ user: { roleName: 'Technician', permissions: BUILT_IN_ROLES.Technician } }));
  });
});
