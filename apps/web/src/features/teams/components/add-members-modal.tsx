import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, NativeSelect, Pagination, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGES, PAGE_SIZE } from '@switchboard/contracts';
import type { TTeam, TTeamTier } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { TEAM_TIER_OPTIONS } from '../../../lib/tier-labels';
import { useAddTeamMembers, useTeamCandidates } from '../api/teams-queries';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

type TAddMembersModalProps = { mspCustomDomain: string; team: TTeam; onClose: () => void; onAdded: () => void };

const isTeamTier = (value: string | null): value is TTeamTier => value === 'Tier1' || value === 'Tier2' || value === 'Tier3';

/** choose technicians linked to a PSA member; they join at Tier1 unless another tier is chosen (02 §4). */
export function AddMembersModal({ mspCustomDomain, team, onClose, onAdded }: TAddMembersModalProps) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [tierLevel, setTierLevel] = useState<TTeamTier>('Tier1');
  const [problem, setProblem] = useState<string | null>(null);
  const candidatesQuery = useTeamCandidates(mspCustomDomain, debouncedSearch, page);
  const addMembers = useAddTeamMembers(mspCustomDomain);
  const onTeam = new Set(team.members.map((member) => member.email.toLowerCase()));
  const candidates = (candidatesQuery.data?.employees ?? []).filter((employee) => !onTeam.has(employee.email.toLowerCase()));
  const pageCount = candidatesQuery.data ? Math.max(1, Math.ceil(candidatesQuery.data.total / PAGE_SIZE)) : 1;

  function toggle(id: string, email: string) {
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(id)) next.delete(id);
      else next.set(id, email);
      return next;
    });
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (selected.size === 0) {
      setProblem(MESSAGES.teams.selectMembers);
      return;
    }
    setProblem(null);
    addMembers.mutate({ teamId: team.id, members: [...selected.values()].map((email) => ({ email, tierLevel })) }, { onSuccess: onAdded });
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Add members to ${team.teamName}`} size="lg">
      <form onSubmit={handleSubmit} noValidate aria-label="Add members">
        <Stack>
          <TextInput
            label="Search technicians"
            value={search}
            maxLength={100}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            data-autofocus
          />
          {candidatesQuery.isPending && <Loader size="sm" aria-label="Loading technicians" />}
          {candidatesQuery.isSuccess && candidates.length === 0 && <Text size="sm">No technician linked to a PSA member is left to add.</Text>}
          <ScrollArea.Autosize mah={320}>
            <Stack gap="xs" role="group" aria-label="Technicians">
              {candidates.map((employee) => (
                <Checkbox
                  key={employee.id}
                  label={`${employee.firstName} ${employee.lastName} (${employee.email})`}
                  checked={selected.has(employee.id)}
                  onChange={() => toggle(employee.id, employee.email)}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
          {pageCount > 1 && <Pagination size="sm" total={pageCount} value={page} onChange={setPage} aria-label="Technician pages" />}
          <NativeSelect
            label="Tier for the added members"
            data={TEAM_TIER_OPTIONS}
            value={tierLevel}
            onChange={(event) => {
              const { value } = event.currentTarget;
              if (isTeamTier(value)) setTierLevel(value);
            }}
          />
          {problem && (
            <Text c="red.8" size="sm" role="alert">
              {problem}
            </Text>
          )}
          {addMembers.isError && (
            <Alert color="red" role="alert" title={MESSAGES.teams.addFailed}>
              {errorDetail(addMembers.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={addMembers.isPending}>
              Add {selected.size > 0 ? selected.size : ''} member{selected.size === 1 ? '' : 's'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
