import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Loader, NativeSelect, Pagination, Paper, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGES, PAGE_SIZE, WIZARD_MESSAGES, type TTeamTier } from '@switchboard/contracts';
import { psaErrorMessage } from '../psa-error-message';
import { TEAM_TIER_OPTIONS, TIER_LABELS } from '../../../lib/tier-labels';
import { useCreateTeam, useTeamCandidates, useTeams } from '../../teams/api/teams-queries';
import { READABLE_ERROR_STYLES } from '../../employees/form-styles';

type TWizardTeamsStepProps = { mspCustomDomain: string; board: { id: number; name: string } | null; onComplete: () => void; isCompleting: boolean };

const isTeamTier = (value: string): value is TTeamTier => value === 'Tier1' || value === 'Tier2' || value === 'Tier3';

/**
 * Step 3: teams on the wizard's board; a member starts at Tier3 and every member needs a tier.
 * The technicians come 30 a page from the server, so they are searched and paged as on the Team screen's
 * add-members dialog; a choice is kept by e-mail while the admin searches and pages.
 */
export function WizardTeamsStep({ mspCustomDomain, board, onComplete, isCompleting }: TWizardTeamsStepProps) {
  const teams = useTeams(mspCustomDomain);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const candidates = useTeamCandidates(mspCustomDomain, debouncedSearch, page);
  const createTeam = useCreateTeam(mspCustomDomain);
  const [teamName, setTeamName] = useState('');
  const [members, setMembers] = useState<Record<string, TTeamTier | ''>>({});
  const chosenCount = Object.keys(members).length;
  const pageCount = candidates.data ? Math.max(1, Math.ceil(candidates.data.total / PAGE_SIZE)) : 1;
  const listed = candidates.data?.employees ?? [];
  // No technician at all (rather than none matching a search): they are imported in step 2.
  const hasNoTechnician = candidates.isSuccess && candidates.data.total === 0 && debouncedSearch === '' && search.trim() === '';
  const [problem, setProblem] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const boardTeams = (teams.data ?? []).filter((team) => board === null || team.boardId === board.id);

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (teamName.trim() === '') return setNameError(MESSAGES.teams.nameRequired);
    setNameError(null);
    const chosen = Object.entries(members);
    // every member needs a tier.
    if (chosen.some(([, tier]) => tier === '')) return setProblem(MESSAGES.teams.tierRequired);
    if (!board) return setProblem(MESSAGES.teams.boardRequired);
    setProblem(null);
    try {
      await createTeam.mutateAsync({ teamName: teamName.trim(), boardId: board.id, boardName: board.name, members: chosen.map(([email, tier]) => ({ email, tierLevel: tier === '' ? null : tier })) });
      setTeamName('');
      setMembers({});
    } catch (error) {
      setProblem(psaErrorMessage(error, 'wizard'));
    }
  }

  function handleContinue() {
    if (boardTeams.length === 0) return setProblem(WIZARD_MESSAGES.teamRequired);
    onComplete();
  }

  return (
    <Stack gap="md">
      <Text size="sm">
        Teams work the board <strong>{board?.name ?? '—'}</strong>. Choose the technicians of each team and the tier they work at on it.
      </Text>
      {boardTeams.length > 0 && (
        <Stack gap={6} aria-label="Teams on this board">
          {boardTeams.map((team) => (
            <Paper key={team.id} withBorder p="xs">
              <Group gap="xs">
                <Text fw={600}>{team.teamName}</Text>
                {team.members.map((member) => (
                  <Badge key={member.email} variant="light" color="gray" styles={{ label: { color: 'var(--mantine-color-dark-7)', textTransform: 'none' } }}>
                    {member.firstName} {member.lastName} · {TIER_LABELS[member.tierLevel]}
                  </Badge>
                ))}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <Paper withBorder p="md">
        <form onSubmit={(event) => void handleCreate(event)} noValidate aria-label="New team">
          <Stack gap="sm">
            <TextInput label="Team name" maw={320} maxLength={30} value={teamName} error={nameError} styles={READABLE_ERROR_STYLES} onChange={(event) => setTeamName(event.currentTarget.value)} />
            {candidates.isPending ? (
              <Loader aria-label="Loading technicians" />
            ) : candidates.isError ? (
              <Alert color="red" role="alert">
                {psaErrorMessage(candidates.error, 'wizard')}
              </Alert>
            ) : hasNoTechnician ? (
              <Text c="dimmed">No technician linked to a PSA member yet; import technicians in step 2.</Text>
            ) : (
              <Stack gap="xs">
                <TextInput
                  label="Search technicians"
                  placeholder="Name or e-mail"
                  maw={320}
                  maxLength={100}
                  value={search}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    setPage(1);
                  }}
                />
                {listed.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    No technician matches that search.
                  </Text>
                ) : (
                  <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars="present">
                    <Table withTableBorder aria-label="Team members">
                      <Table.Tbody>
                        {listed.map((employee) => {
                          const name = `${employee.firstName} ${employee.lastName}`;
                          const tier = members[employee.email];
                          return (
                            <Table.Tr key={employee.id}>
                              <Table.Td w={40}>
                                <Checkbox
                                  aria-label={`Add ${name} to the team`}
                                  checked={tier !== undefined}
                                  onChange={() =>
                                    setMembers((current) => {
                                      const next = { ...current };
                                      // Decisions #8: a member first selected in the wizard starts at Tier3.
                                      if (employee.email in next) delete next[employee.email];
                                      else next[employee.email] = 'Tier3';
                                      return next;
                                    })
                                  }
                                />
                              </Table.Td>
                              <Table.Td>{name}</Table.Td>
                              <Table.Td w={160}>
                                <NativeSelect
                                  // 'Choose a tier' stays readable on a phone.
                                  miw={140}
                                  aria-label={`Team tier of ${name}`}
                                  disabled={tier === undefined}
                                  value={tier ?? ''}
                                  data={[{ value: '', label: 'Choose a tier' }, ...TEAM_TIER_OPTIONS]}
                                  onChange={(event) => {
                                    const value = event.currentTarget.value;
                                    setMembers((current) => ({ ...current, [employee.email]: isTeamTier(value) ? value : '' }));
                                  }}
                                />
                              </Table.Td>
                            </Table.Tr>
                          );
                        })}
                      </Table.Tbody>
                    </Table>
                  </ScrollArea.Autosize>
                )}
                <Group justify="space-between" gap="xs">
                  {pageCount > 1 ? <Pagination size="sm" total={pageCount} value={page} onChange={setPage} aria-label="Technician pages" /> : <span />}
                  <Text size="sm" c="dimmed" role="status">
                    {chosenCount === 1 ? '1 technician chosen for this team.' : `${chosenCount} technicians chosen for this team.`}
                  </Text>
                </Group>
              </Stack>
            )}
            <div>
              <Button type="submit" variant="light" loading={createTeam.isPending}>
                Create team
              </Button>
            </div>
          </Stack>
        </form>
      </Paper>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={handleContinue} loading={isCompleting}>
          Continue to clients
        </Button>
      </Group>
    </Stack>
  );
}
