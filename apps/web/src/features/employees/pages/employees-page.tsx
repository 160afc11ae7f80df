import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, NativeSelect, Pagination, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { grantsNoMoreThan, MESSAGES, PAGE_SIZE } from '@switchboard/contracts';
import type { TAccountStatus, TEmployee } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useRoles } from '../../roles/api/roles-queries';
import { useSessionUser } from '../../session/api/session-queries';
import { useDeleteEmployee, useEmployees, useRemoveAuthenticatorApp, useRestoreEmployee, useSendInvitation, useSendInvitations, type TEmployeeStatus } from '../api/employees-queries';
import { TIER_LABELS } from '../../../lib/tier-labels';
import { AddEmployeeModal } from '../components/add-employee-modal';
import { EditEmployeeModal } from '../components/edit-employee-modal';
import { ImportPsaMembersModal } from '../components/import-psa-members-modal';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Decision 019: the account column's badge colours (text is the status itself, so colour is never the only cue). */
const ACCOUNT_BADGE_COLOURS: Record<TAccountStatus, string> = { Active: 'green', Invited: 'blue', 'No account': 'gray' };

function AccountBadge({ status }: { status: TAccountStatus }) {
  return (
    // The light variant's own text colour is below WCAG AA on its tint: dark text on the coloured tint passes.
    <Badge variant="light" color={ACCOUNT_BADGE_COLOURS[status]} size="sm" styles={{ label: { color: 'var(--mantine-color-dark-7)' } }}>
      {status}
    </Badge>
  );
}

/**
 * One row's Invite button with its own mutation: a page-wide one reported only the latest of two quick invitations,
 * since TanStack runs a call's own callbacks only for the latest call (review s27 #7).
 */
function InviteButton({ mspCustomDomain, employee, name }: { mspCustomDomain: string; employee: TEmployee; name: string }) {
  const sendInvitation = useSendInvitation(mspCustomDomain);
  const label = employee.accountStatus === 'Invited' ? 'Invite again' : 'Invite';
  function handleInvite() {
    sendInvitation.mutate(employee.id, {
      onSuccess: () => notifications.show({ color: 'green', title: MESSAGES.invitations.sent, message: employee.email }),
      onError: (error) => notifications.show({ color: 'red', title: MESSAGES.invitations.sendFailed, message: `${name}: ${errorDetail(error)}` }),
    });
  }
  return (
    <Button size="xs" variant="light" color="teal" aria-label={`${label} ${name}`} loading={sendInvitation.isPending} onClick={handleInvite}>
      {label}
    </Button>
  );
}

/** One row's Restore button with its own mutation, as InviteButton: a page-wide one reported only the latest of two quick restores. */
function RestoreButton({ mspCustomDomain, employee, name }: { mspCustomDomain: string; employee: TEmployee; name: string }) {
  const restoreEmployee = useRestoreEmployee(mspCustomDomain);
  function handleRestore() {
    restoreEmployee.mutate(employee.id, {
      onSuccess: () => notifications.show({ color: 'green', title: MESSAGES.employees.restored, message: name }),
      // Named, as the Invite button's: with two restores at once, the notice says whose failed.
      onError: (error) => notifications.show({ color: 'red', title: MESSAGES.employees.restoreFailed, message: `${name}: ${errorDetail(error)}` }),
    });
  }
  return (
    <Button size="xs" variant="light" aria-label={`Restore ${name}`} loading={restoreEmployee.isPending} onClick={handleRestore}>
      Restore
    </Button>
  );
}

/**
 * Decision 047: removes a colleague's lost authenticator app after a confirmation, with its own mutation as InviteButton.
 * The notice waits on mutateAsync, not on mutate's callbacks: once the list is re-read the button leaves the row, and
 * TanStack runs a call's own callbacks only while its component is mounted.
 */
function RemoveAuthenticatorAppButton({ mspCustomDomain, employee, name }: { mspCustomDomain: string; employee: TEmployee; name: string }) {
  const removeApp = useRemoveAuthenticatorApp(mspCustomDomain);
  const texts = MESSAGES.authenticatorAppRemoval;
  function handleRemove() {
    modals.openConfirmModal({
      title: texts.confirmTitle(name),
      children: <Text size="sm">{texts.confirmText}</Text>,
      labels: { confirm: texts.confirm, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void removeApp.mutateAsync(employee.id).then(
          (removed) => notifications.show({ color: removed.isPersonNotified ? 'green' : 'yellow', title: texts.removed, message: removed.isPersonNotified ? texts.removedFor(name) : texts.notMailed(name) }),
          (error: unknown) => notifications.show({ color: 'red', title: texts.failed, message: `${name}: ${errorDetail(error)}` }),
        ),
    });
  }
  return (
    <Button size="xs" variant="light" color="red" aria-label={`${texts.action} of ${name}`} loading={removeApp.isPending} onClick={handleRemove}>
      {texts.action}
    </Button>
  );
}

/** 01 §2 Employees: Active/Inactive lists, search, role filter, 30 a page, add, edit, delete. */
export function EmployeesPage({ mspCustomDomain, currentUserId }: { mspCustomDomain: string; currentUserId: string }) {
  useDocumentTitle('Employees');
  const [status, setStatus] = useState<TEmployeeStatus>('active');
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [roleId, setRoleId] = useState('all');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'import' } | { kind: 'edit'; employee: TEmployee } | null>(null);
  const rolesQuery = useRoles(mspCustomDomain);
  const roles = rolesQuery.data ?? [];
  const employeesQuery = useEmployees(mspCustomDomain, status, { search: debouncedSearch, roleId, page });
  const deleteEmployee = useDeleteEmployee(mspCustomDomain);
  const sendInvitations = useSendInvitations(mspCustomDomain);
  const sessionUser = useSessionUser();
  const data = employeesQuery.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  function handleDelete(employee: TEmployee) {
    modals.openConfirmModal({
      title: `Delete ${employee.firstName} ${employee.lastName}?`,
      children: <Text size="sm">{MESSAGES.employees.deleteConfirm}</Text>,
      labels: { confirm: 'Delete employee', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deleteEmployee.mutate(employee.id, {
          onSuccess: () => notifications.show({ color: 'green', title: MESSAGES.employees.deleted, message: '' }),
          onError: (error) => notifications.show({ color: 'red', title: MESSAGES.employees.deleteFailed, message: errorDetail(error) }),
        }),
    });
  }

  function handleInviteAll() {
    sendInvitations.mutate(undefined, {
      onSuccess: (invited) => notifications.show({ color: invited === 0 ? 'gray' : 'green', title: invited === 0 ? MESSAGES.invitations.noneToSend : MESSAGES.invitations.sentAll(invited), message: '' }),
      onError: (error) => notifications.show({ color: 'red', title: MESSAGES.invitations.sendFailed, message: errorDetail(error) }),
    });
  }

  const resetPage = () => setPage(1);
  // Phones get one card per employee: a six-column table would hide the actions off-screen.
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  // Decision 044: the server refuses (403) any change of a colleague whose role holds a permission the signed-in person
  // lacks, so their row offers none. Until the roles and the session are known, the actions show and the server decides.
  const ownPermissions = sessionUser?.principal === 'user' ? sessionUser.permissions : null;
  const isBeyondReach = (employee: TEmployee): boolean => {
    const rolePermissions = roles.find((role) => role.id === employee.roleId)?.permissions;
    return employee.id !== currentUserId && ownPermissions !== null && rolePermissions !== undefined && !grantsNoMoreThan(rolePermissions, ownPermissions);
  };
  const actionsOf = (employee: TEmployee, name: string) =>
    isBeyondReach(employee) ? (
      <Text size="xs" c="dimmed">
        Their role has permissions you lack
      </Text>
    ) : !employee.isActive ? (
      <RestoreButton mspCustomDomain={mspCustomDomain} employee={employee} name={name} />
    ) : (
    // A phone's card wraps its actions: with "Remove authenticator app" beside Edit and Delete the row was ~320 px.
    <Group gap="xs" wrap={isNarrow ? 'wrap' : 'nowrap'}>
      {employee.accountStatus !== 'Active' && <InviteButton mspCustomDomain={mspCustomDomain} employee={employee} name={name} />}
      <Button size="xs" variant="light" aria-label={`Edit ${name}`} onClick={() => setDialog({ kind: 'edit', employee })}>
        Edit
      </Button>
      {employee.id !== currentUserId && (
        <Button size="xs" variant="light" color="red" aria-label={`Delete ${name}`} onClick={() => handleDelete(employee)}>
          Delete
        </Button>
      )}
      {/* One's own app changes only with a code from it, in the profile (decision 046). */}
      {employee.hasAuthenticatorApp && employee.id !== currentUserId && <RemoveAuthenticatorAppButton mspCustomDomain={mspCustomDomain} employee={employee} name={name} />}
    </Group>
    );

  return (
    <Stack component="section" aria-labelledby="employees-title">
      <Group justify="space-between">
        <Title order={1} size="h2" id="employees-title">
          Employees
        </Title>
        <Group gap="xs">
          <Button variant="default" loading={sendInvitations.isPending} onClick={handleInviteAll}>
            Invite all without an account
          </Button>
          <Button variant="light" onClick={() => setDialog({ kind: 'import' })}>
            Import from PSA
          </Button>
          <Button onClick={() => setDialog({ kind: 'add' })}>Add employee</Button>
        </Group>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Which employees"
          value={status}
          onChange={(value) => {
            setStatus(value === 'inactive' ? 'inactive' : 'active');
            resetPage();
          }}
          data={[
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
        <TextInput
          label="Search"
          placeholder="Name or email"
          value={search}
          maxLength={100}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            resetPage();
          }}
          style={{ flex: '1 1 14rem' }}
        />
        <NativeSelect
          label="Role"
          data={[{ value: 'all', label: 'All roles' }, ...roles.map((role) => ({ value: role.id, label: role.name }))]}
          value={roleId}
          onChange={(event) => {
            setRoleId(event.currentTarget.value);
            resetPage();
          }}
          style={{ flex: '0 1 12rem' }}
        />
      </Group>
      {employeesQuery.isPending && <Loader aria-label="Loading employees" />}
      {employeesQuery.isError && (
        <Alert color="red" role="alert">
          {errorDetail(employeesQuery.error)}
        </Alert>
      )}
      {data && (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {data.total === 0 ? `No ${status} employees match.` : `${data.total} ${status} employee${data.total === 1 ? '' : 's'}`}
          </Text>
          {data.employees.length > 0 && !isNarrow && (
            <Table.ScrollContainer minWidth={820}>
              <Table striped highlightOnHover aria-label={`${status === 'active' ? 'Active' : 'Inactive'} employees`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Name</Table.Th>
                    <Table.Th scope="col">Email</Table.Th>
                    <Table.Th scope="col">Phone</Table.Th>
                    <Table.Th scope="col">Role</Table.Th>
                    <Table.Th scope="col">Tier</Table.Th>
                    <Table.Th scope="col">Account</Table.Th>
                    <Table.Th scope="col">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.employees.map((employee) => {
                    const name = `${employee.firstName} ${employee.lastName}`;
                    return (
                      <Table.Tr key={employee.id}>
                        <Table.Th scope="row" fw={500}>
                          {name}
                          {employee.psaMemberId !== null && (
                            <Badge ml="xs" size="xs" variant="light" color="gray">
                              PSA
                            </Badge>
                          )}
                        </Table.Th>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{employee.email}</Table.Td>
                        <Table.Td>{employee.phoneNumber}</Table.Td>
                        <Table.Td>{employee.roleName}</Table.Td>
                        <Table.Td>{employee.tierLevel ? TIER_LABELS[employee.tierLevel] : '—'}</Table.Td>
                        <Table.Td>
                          <AccountBadge status={employee.accountStatus} />
                        </Table.Td>
                        <Table.Td>{actionsOf(employee, name)}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data.employees.length > 0 && isNarrow && (
            <Stack gap="xs" component="ul" aria-label={`${status === 'active' ? 'Active' : 'Inactive'} employees`} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {data.employees.map((employee) => {
                const name = `${employee.firstName} ${employee.lastName}`;
                return (
                  <Paper key={employee.id} component="li" withBorder p="sm">
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <Text fw={600}>{name}</Text>
                      <AccountBadge status={employee.accountStatus} />
                    </Group>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {employee.email}
                    </Text>
                    <Text size="sm">{employee.phoneNumber}</Text>
                    <Text size="sm" mb="xs">
                      {employee.roleName} · {employee.tierLevel ? TIER_LABELS[employee.tierLevel] : 'No tier'}
                      {employee.psaMemberId !== null ? ' · PSA' : ''}
                    </Text>
                    {actionsOf(employee, name)}
                  </Paper>
                );
              })}
            </Stack>
          )}
          {pageCount > 1 && <Pagination total={pageCount} value={page} onChange={setPage} aria-label="Employee pages" />}
        </>
      )}
      {dialog?.kind === 'add' && (
        <AddEmployeeModal
          mspCustomDomain={mspCustomDomain}
          roles={roles}
          onClose={() => setDialog(null)}
          onAdded={(name) => {
            notifications.show({ color: 'green', title: MESSAGES.employees.added, message: name });
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'import' && (
        <ImportPsaMembersModal
          mspCustomDomain={mspCustomDomain}
          roles={roles}
          onClose={() => setDialog(null)}
          onImported={(count) => {
            notifications.show({ color: 'green', title: MESSAGES.employees.imported, message: `${count} imported` });
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditEmployeeModal
          key={dialog.employee.id}
          mspCustomDomain={mspCustomDomain}
          employee={dialog.employee}
          roles={roles}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifications.show({ color: 'green', title: MESSAGES.employees.updated, message: '' });
            setDialog(null);
          }}
        />
      )}
    </Stack>
  );
}
