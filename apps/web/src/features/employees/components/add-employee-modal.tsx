import { useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES, newEmployeeProblems } from '@switchboard/contracts';
import type { TNewEmployeeProblems, TRole, TTierLevel } from '@switchboard/contracts';
import { useAddEmployee } from '../api/employees-queries';
import { EmployeeFormFooter, RoleSelect, shownRoleId, TierSelect } from './employee-form-parts';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../form-styles';
import '../../auth/components/password-input-styles';

type TAddEmployeeModalProps = { mspCustomDomain: string; roles: TRole[]; onClose: () => void; onAdded: (name: string) => void };

const EMPTY = { firstName: '', lastName: '', email: '', phoneNumber: '', password: '' };

/** The add-employee form: the spec's four messages, and no call while any shows. */
export function AddEmployeeModal({ mspCustomDomain, roles, onClose, onAdded }: TAddEmployeeModalProps) {
  const addEmployee = useAddEmployee(mspCustomDomain);
  const [values, setValues] = useState(EMPTY);
  const [chosenRoleId, setRoleId] = useState('');
  // Derived each render, not set once at mount (review s26 #5): a dialog opened before the roles loaded showed one role
  // and sent none; so what the picker shows is what is sent.
  const roleId = shownRoleId(roles, chosenRoleId);
  const [tierLevel, setTierLevel] = useState<TTierLevel>('Tier1');
  const [problems, setProblems] = useState<TNewEmployeeProblems>({});
  const field = (name: keyof typeof EMPTY) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = newEmployeeProblems(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    addEmployee.mutate(
      { ...values, ...(roleId !== '' ? { roleId } : {}), tierLevel },
      { onSuccess: (user) => onAdded(`${user.firstName} ${user.lastName}`) },
    );
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title="Add employee" size="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Add employee">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" autoComplete="off" data-autofocus maxLength={100} styles={READABLE_ERROR_STYLES} error={problems.names !== undefined} {...field('firstName')} />
            <TextInput label="Last name" autoComplete="off" maxLength={100} styles={READABLE_ERROR_STYLES} error={problems.names !== undefined} {...field('lastName')} />
          </SimpleGrid>
          {problems.names && (
            <Text c="red.8" size="sm" role="alert">
              {problems.names}
            </Text>
          )}
          <TextInput label="Email" type="email" autoComplete="off" maxLength={254} styles={READABLE_ERROR_STYLES} error={problems.email} {...field('email')} />
          <TextInput label="Phone number" type="tel" autoComplete="off" maxLength={40} styles={READABLE_ERROR_STYLES} error={problems.phoneNumber} {...field('phoneNumber')} />
          <PasswordInput label="Password" autoComplete="new-password" maxLength={200} styles={READABLE_ERROR_STYLES} error={problems.password} {...field('password')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <RoleSelect roles={roles} value={roleId} onChange={setRoleId} />
            <TierSelect value={tierLevel} onChange={setTierLevel} />
          </SimpleGrid>
          <EmployeeFormFooter error={addEmployee.isError ? addEmployee.error : null} failedTitle={MESSAGES.employees.addFailed} pending={addEmployee.isPending} onCancel={onClose} submitLabel="Add employee" />
        </Stack>
      </form>
    </Modal>
  );
}
