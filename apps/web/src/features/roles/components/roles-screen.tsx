import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { MESSAGES, PERMISSIONS, cloneRoleName, grantsNoMoreThan } from '@switchboard/contracts';
import type { TRole } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useDeleteRole, useRoles, useSaveRole } from '../api/roles-queries';
import { RoleFormModal } from './role-form-modal';
import type { TRoleFormMode, TRoleFormValues } from './role-form-modal';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSessionUser } from '../../session/api/session-queries';

type TRoleDialog = { mode: TRoleFormMode; role: TRole | null } | null;

function notifySuccess(message: string): void {
  notifications.show({ color: 'green', title: message, message: '' });
}

function notifyFailure(title: string, error: unknown): void {
  notifications.show({ color: 'red', title, message: errorDetail(error) });
}

function grantedCount(role: TRole): number {
  return PERMISSIONS.filter((permission) => role.permissions[permission]).length;
}

/** 02 §4 Roles: list, create, edit, clone and delete, each with its own success or error notification. */
export function RolesScreen({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Roles');
  const rolesQuery = useRoles(mspCustomDomain);
  const saveRole = useSaveRole(mspCustomDomain);
  const deleteRole = useDeleteRole(mspCustomDomain);
  const [dialog, setDialog] = useState<TRoleDialog>(null);
  const roles = rolesQuery.data ?? [];
  // Decision 044: the server refuses to save a role with a permission the signed-in person lacks, and to edit or delete
  // one that holds such a permission; so neither is offered. Until the session is known, everything shows and the server decides.
  const sessionUser = useSessionUser();
  const ownPermissions = sessionUser?.principal === 'user' ? sessionUser.permissions : null;
  const isBeyondReach = (role: TRole) => ownPermissions !== null && !grantsNoMoreThan(role.permissions, ownPermissions);

  function handleSubmit(values: TRoleFormValues) {
    if (dialog === null) return;
    const isEdit = dialog.mode === 'edit' && dialog.role !== null;
    saveRole.mutate(
      { ...(isEdit && dialog.role ? { id: dialog.role.id } : {}), name: values.name, permissions: values.permissions, custom: true, mspCustomDomain },
      {
        onSuccess: () => {
          notifySuccess(isEdit ? MESSAGES.roles.updated : MESSAGES.roles.created);
          setDialog(null);
        },
        onError: (error) => notifyFailure(isEdit ? MESSAGES.roles.updateFailed : MESSAGES.roles.createFailed, error),
      },
    );
  }

  function handleClone(role: TRole) {
    const name = cloneRoleName(role.name, roles.map((existing) => existing.name));
    saveRole.mutate(
      { name, permissions: role.permissions, custom: true, mspCustomDomain },
      {
        onSuccess: (created) => notifySuccess(`${MESSAGES.roles.cloned} ${created.name}`),
        onError: (error) => notifyFailure(MESSAGES.roles.cloneFailed, error),
      },
    );
  }

  function handleDelete(role: TRole) {
    modals.openConfirmModal({
      title: `Delete role "${role.name}"?`,
      children: <Text size="sm">{MESSAGES.roles.deleteConfirm}</Text>,
      labels: { confirm: 'Delete role', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deleteRole.mutate(role.id, {
          onSuccess: () => notifySuccess(MESSAGES.roles.deleted),
          onError: (error) => notifyFailure(MESSAGES.roles.deleteFailed, error),
        }),
    });
  }

  return (
    <Stack component="section" aria-labelledby="roles-title">
      <Group justify="space-between">
        <Title order={1} size="h2" id="roles-title">
          Roles
        </Title>
        <Button onClick={() => setDialog({ mode: 'create', role: null })}>Create role</Button>
      </Group>
      {rolesQuery.isPending && <Loader aria-label="Loading roles" />}
      {rolesQuery.isError && (
        <Alert color="red" role="alert">
          {errorDetail(rolesQuery.error)}
        </Alert>
      )}
      {rolesQuery.isSuccess && (
        // At phone width the Type column goes (Edit or View already says it) and the actions wrap, so they stay in view.
        <Table.ScrollContainer minWidth={320}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Type
                </Table.Th>
                <Table.Th scope="col">Permissions</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {roles.map((role) => (
                <Table.Tr key={role.id}>
                  <Table.Th scope="row" fw={500}>
                    {role.name}
                  </Table.Th>
                  <Table.Td visibleFrom="sm">
                    <Badge variant="light" color={role.custom ? 'blue' : 'gray'}>
                      {role.custom ? 'Custom' : 'Built-in'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {grantedCount(role)} of {PERMISSIONS.length}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      {role.custom && !isBeyondReach(role) ? (
                        <Button size="xs" variant="light" aria-label={`Edit ${role.name}`} onClick={() => setDialog({ mode: 'edit', role })}>
                          Edit
                        </Button>
                      ) : (
                        <Button size="xs" variant="light" aria-label={`View ${role.name}`} onClick={() => setDialog({ mode: 'view', role })}>
                          View
                        </Button>
                      )}
                      {isBeyondReach(role) ? (
                        <Text size="xs" c="dimmed">
                          Has permissions you lack
                        </Text>
                      ) : (
                        <Button size="xs" variant="light" aria-label={`Clone ${role.name}`} disabled={saveRole.isPending} onClick={() => handleClone(role)}>
                          Clone
                        </Button>
                      )}
                      {role.custom && !isBeyondReach(role) && (
                        <Button size="xs" variant="light" color="red" aria-label={`Delete ${role.name}`} onClick={() => handleDelete(role)}>
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog !== null && (
        <RoleFormModal
          key={`${dialog.mode}-${dialog.role?.id ?? 'new'}`}
          mode={dialog.mode}
          role={dialog.role}
          ownPermissions={ownPermissions}
          isSaving={saveRole.isPending}
          onClose={() => setDialog(null)}
          onSubmit={handleSubmit}
        />
      )}
    </Stack>
  );
}
