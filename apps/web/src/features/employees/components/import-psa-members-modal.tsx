import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Checkbox, Loader, Modal, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TRole, TTierLevel } from '@switchboard/contracts';
import { useImportPsaMembers, usePsaMemberCandidates } from '../api/employees-queries';
import { MODAL_CLOSE_BUTTON_PROPS } from '../form-styles';
import { errorDetail } from '../../../lib/api-client';
import { EmployeeFormFooter, RoleSelect, shownRoleId, TierSelect } from './employee-form-parts';

type TImportPsaMembersModalProps = { mspCustomDomain: string; roles: TRole[]; onClose: () => void; onImported: (count: number) => void };

/** A-006 + A-046: PSA members not yet employees, imported with a tier (default Tier1) and role (default Technician). */
export function ImportPsaMembersModal({ mspCustomDomain, roles, onClose, onImported }: TImportPsaMembersModalProps) {
  const candidatesQuery = usePsaMemberCandidates(mspCustomDomain);
  const importMembers = useImportPsaMembers(mspCustomDomain);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [chosenRoleId, setRoleId] = useState('');
  // Derived each render (review s26 #5): what the picker shows is what is sent, also when the roles load after opening.
  const roleId = shownRoleId(roles, chosenRoleId);
  const [tierLevel, setTierLevel] = useState<TTierLevel>('Tier1');
  const [problem, setProblem] = useState<string | null>(null);
  const needle = filter.trim().toLowerCase();
  const candidates = (candidatesQuery.data ?? []).filter((member) => needle === '' || `${member.firstName} ${member.lastName} ${member.email ?? ''}`.toLowerCase().includes(needle));

  function toggle(psaMemberId: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(psaMemberId)) next.delete(psaMemberId);
      else next.add(psaMemberId);
      return next;
    });
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (selected.size === 0) {
      setProblem(MESSAGES.employees.selectMembers);
      return;
    }
    setProblem(null);
    importMembers.mutate(
      { members: [...selected].map((psaMemberId) => ({ psaMemberId })), tierLevel, ...(roleId !== '' ? { roleId } : {}) },
      { onSuccess: (added) => onImported(added.length) },
    );
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title="Import from PSA" size="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Import from PSA">
        <Stack>
          <TextInput label="Filter PSA members" value={filter} maxLength={100} onChange={(event) => setFilter(event.currentTarget.value)} data-autofocus />
          {candidatesQuery.isPending && <Loader size="sm" aria-label="Loading PSA members" />}
          {candidatesQuery.isError && (
            <Alert color="red" role="alert">
              {errorDetail(candidatesQuery.error)}
            </Alert>
          )}
          {candidatesQuery.isSuccess && candidates.length === 0 && <Text size="sm">Every PSA member is already an employee.</Text>}
          <ScrollArea.Autosize mah={300}>
            <Stack gap="xs" role="group" aria-label="PSA members">
              {candidates.map((member) => (
                <Checkbox
                  key={member.psaMemberId}
                  label={`${member.firstName} ${member.lastName}${member.email ? ` (${member.email})` : ' (no email)'}`}
                  disabled={!member.email}
                  checked={selected.has(member.psaMemberId)}
                  onChange={() => toggle(member.psaMemberId)}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <RoleSelect roles={roles} value={roleId} onChange={setRoleId} />
            <TierSelect value={tierLevel} onChange={setTierLevel} />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            Imported technicians have no password yet; they are linked to their PSA member and can join teams.
          </Text>
          {problem && (
            <Text c="red.8" size="sm" role="alert">
              {problem}
            </Text>
          )}
          <EmployeeFormFooter error={importMembers.isError ? importMembers.error : null} failedTitle={MESSAGES.employees.importFailed} pending={importMembers.isPending} onCancel={onClose} submitLabel={<>Import {selected.size > 0 ? selected.size : ''} member{selected.size === 1 ? '' : 's'}</>} />
        </Stack>
      </form>
    </Modal>
  );
}
