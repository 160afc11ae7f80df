import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUILT_IN_ROLES, MESSAGES } from '@switchboard/contracts';
import type { TEmployee, TRole } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
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

afterEach(() => vi.unstubAllGlobals());

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
});
