import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TEmployee, TRole, TTierLevel } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useEditEmployee } from '../api/employees-queries';
import { EMPLOYEE_TIER_OPTIONS, isTierLevel } from '../tier-labels';
import { MODAL_CLOSE_BUTTON_PROPS } from '../form-styles';

type TEditEmployeeModalProps = { mspCustomDomain: string; employee: TEmployee; roles: TRole[]; onClose: () => void; onSaved: () => void };

/** Role and tier of one employee; a refused change says why (e.g. the last role manager). */
export function EditEmployeeModal({ mspCustomDomain, employee, roles, onClose, onSaved }: TEditEmployeeModalProps) {
  const editEmployee = useEditEmployee(mspCustomDomain);
  const [roleId, setRoleId] = useState(employee.roleId);
  const [tierLevel, setTierLevel] = useState<TTierLevel>(employee.tierLevel ?? 'Tier1');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    editEmployee.mutate({ email: employee.email, roleId, tierLevel }, { onSuccess: onSaved });
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Edit ${employee.firstName} ${employee.lastName}`}>
      <form onSubmit={handleSubmit} noValidate aria-label="Edit employee">
        <Stack>
          <Text size="sm" c="dimmed">
            {employee.email}
          </Text>
          <NativeSelect label="Role" data={roles.map((role) => ({ value: role.id, label: role.name }))} value={roleId} onChange={(event) => setRoleId(event.currentTarget.value)} data-autofocus />
          <NativeSelect
            label="Tier"
            data={EMPLOYEE_TIER_OPTIONS}
            value={tierLevel}
            onChange={(event) => {
              const { value } = event.currentTarget;
              if (isTierLevel(value)) setTierLevel(value);
            }}
          />
          {editEmployee.isError && (
            <Alert color="red" role="alert" title={MESSAGES.employees.updateFailed}>
              {isApiError(editEmployee.error) ? editEmployee.error.detail : MESSAGES.unexpectedError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={editEmployee.isPending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
