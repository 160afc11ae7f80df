import { useState } from 'react';
import type { FormEvent } from 'react';
import { Modal, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TEmployee, TRole, TTierLevel } from '@switchboard/contracts';
import { useEditEmployee } from '../api/employees-queries';
import { EmployeeFormFooter, RoleSelect, TierSelect } from './employee-form-parts';
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
          <RoleSelect roles={roles} value={roleId} onChange={setRoleId} autoFocus />
          <TierSelect value={tierLevel} onChange={setTierLevel} />
          <EmployeeFormFooter error={editEmployee.isError ? editEmployee.error : null} failedTitle={MESSAGES.employees.updateFailed} pending={editEmployee.isPending} onCancel={onClose} submitLabel="Save changes" />
        </Stack>
      </form>
    </Modal>
  );
}
