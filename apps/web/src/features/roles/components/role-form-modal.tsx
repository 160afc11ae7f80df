import { Button, Checkbox, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PERMISSIONS, ROLE_NAME_MAX, permissionMap } from '@switchboard/contracts';
import type { TPermission, TPermissionMap, TRole } from '@switchboard/contracts';
import { PERMISSION_LABELS } from '../permission-labels';

export type TRoleFormMode = 'create' | 'edit' | 'view';

export type TRoleFormValues = { name: string; permissions: TPermissionMap };

type TRoleFormModalProps = {
  mode: TRoleFormMode;
  role: TRole | null;
  /** The signed-in person's permissions (null until known): a role cannot be given one they lack (decision 044). */
  ownPermissions: TPermissionMap | null;
  isSaving: boolean;
  onClose: () => void;
  onSubmit: (values: TRoleFormValues) => void;
};

const TITLES: Record<TRoleFormMode, string> = { create: 'Create role', edit: 'Edit role', view: 'Role' };

/**
 * Name and the 12 permission checkboxes; built-in roles, and roles with a permission the signed-in person lacks, open
 * read-only ("view"). A box of a permission they lack is disabled and says why: the server refuses it (decision 044).
 */
export function RoleFormModal({ mode, role, ownPermissions, isSaving, onClose, onSubmit }: TRoleFormModalProps) {
  const isReadOnly = mode === 'view';
  const isLacking = (permission: TPermission) => ownPermissions !== null && !ownPermissions[permission];
  const readOnlyReason = role?.custom ? 'This role has permissions you do not have, so you cannot change it.' : 'Built-in roles cannot be changed.';
  const form = useForm<TRoleFormValues>({
    initialValues: { name: role?.name ?? '', permissions: role?.permissions ?? permissionMap([]) },
    // The rule of ZRoleName (1–60 characters once trimmed), checked without loading zod for one field.
    validate: { name: (value) => (value.trim().length >= 1 && value.trim().length <= ROLE_NAME_MAX ? null : `Enter a role name of 1–${ROLE_NAME_MAX} characters.`) },
  });
  const granted = PERMISSIONS.filter((permission) => form.values.permissions[permission]);

  return (
    <Modal opened onClose={onClose} title={role && mode !== 'create' ? `${mode === 'view' && !role.custom ? 'Built-in role' : TITLES[mode]}: ${role.name}` : TITLES[mode]} size="lg">
      <form onSubmit={form.onSubmit((values) => onSubmit({ ...values, name: values.name.trim() }))} noValidate>
        <Stack>
          <TextInput label="Role name" required readOnly={isReadOnly} maxLength={ROLE_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
          {/* A Checkbox inside Checkbox.Group takes its ticked state from the group's value, so the group owns it. */}
          <Checkbox.Group
            label="Permissions"
            description={isReadOnly ? readOnlyReason : `${granted.length} of ${PERMISSIONS.length} granted`}
            value={granted}
            onChange={(values) => form.setFieldValue('permissions', permissionMap(PERMISSIONS.filter((p) => values.includes(p))))}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
              {PERMISSIONS.map((permission) => (
                <Checkbox
                  key={permission}
                  value={permission}
                  label={PERMISSION_LABELS[permission]}
                  disabled={isReadOnly || isLacking(permission)}
                  description={!isReadOnly && isLacking(permission) ? 'You do not have this permission yourself.' : undefined}
                />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {isReadOnly ? 'Close' : 'Cancel'}
            </Button>
            {!isReadOnly && (
              <Button type="submit" loading={isSaving}>
                {mode === 'create' ? 'Create role' : 'Save changes'}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
