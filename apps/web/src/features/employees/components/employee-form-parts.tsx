import { Alert, Button, Group, NativeSelect } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TRole, TTierLevel } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { EMPLOYEE_TIER_OPTIONS, isTierLevel } from '../../../lib/tier-labels';

// The parts the add, edit and import-members forms share: the role and tier choices, and the
// refusal shown above Cancel and the submit button.

/**
 * The role a new employee's picker shows, and so sends: the one chosen while it is still listed, else the built-in
 * Technician role (01 §6's default), else the first role; '' only while no roles are loaded.
 */
export function shownRoleId(roles: TRole[], chosenRoleId: string): string {
  if (roles.some((role) => role.id === chosenRoleId)) return chosenRoleId;
  return (roles.find((role) => role.name === 'Technician') ?? roles[0])?.id ?? '';
}

export function RoleSelect({ roles, value, onChange, autoFocus = false }: { roles: TRole[]; value: string; onChange: (roleId: string) => void; autoFocus?: boolean }) {
  return (
    <NativeSelect
      label="Role"
      data={roles.map((role) => ({ value: role.id, label: role.name }))}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...(autoFocus ? { 'data-autofocus': true } : {})}
    />
  );
}

export function TierSelect({ value, onChange }: { value: TTierLevel; onChange: (tierLevel: TTierLevel) => void }) {
  return (
    <NativeSelect
      label="Tier"
      data={EMPLOYEE_TIER_OPTIONS}
      value={value}
      onChange={(event) => {
        const { value: chosen } = event.currentTarget;
        if (isTierLevel(chosen)) onChange(chosen);
      }}
    />
  );
}

/** The server's refusal under `failedTitle` (when `error` is set), then Cancel and the submit button. */
export function EmployeeFormFooter({ error, failedTitle, pending, onCancel, submitLabel }: { error: unknown; failedTitle: string; pending: boolean; onCancel: () => void; submitLabel: ReactNode }) {
  return (
    <>
      {error !== null && error !== undefined && (
        <Alert color="red" role="alert" title={failedTitle}>
          {errorDetail(error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
