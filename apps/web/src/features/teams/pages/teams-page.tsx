import { useState } from 'react';
import { Alert, Button, Group, Loader, NativeSelect, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { MESSAGES, PAGE_SIZE } from '@switchboard/contracts';
import type { TTeam, TTeamMember } from '@switchboard/contracts';
import { ReadableBadge } from '../../../components/readable-badge';
import { errorDetail } from '../../../lib/api-client';
import { TIER_LABELS } from '../../../lib/tier-labels';
import { useRemoveTeamMember, useTeams } from '../api/teams-queries';
import { AddMembersModal } from '../components/add-members-modal';
import { CreateTeamModal } from '../components/create-team-modal';
import { EditMemberModal } from '../components/edit-member-modal';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Members shown per page of the member table (02 §2 "pagination"): technicians, so 01 §9's technician page size. */
const MEMBERS_PER_PAGE = PAGE_SIZE;

type TDialog = { kind: 'create' } | { kind: 'add'; team: TTeam } | { kind: 'edit'; team: TTeam; member: TTeamMember } | null;

/** A deactivated technician stays on the team until removed (review s26 #4): said in their row, not hidden. */
function InactiveBadge({ member }: { member: TTeamMember }) {
  if (member.isActive) return null;
  return (
    <ReadableBadge color="gray" size="sm" title="Deactivated: cannot sign in until restored on the Employees screen">
      Inactive
    </ReadableBadge>
  );
}

/** 02 §2 Team screen: teams, their member table, create, add, edit tier, remove. */
export function TeamsPage({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Teams');
  const teamsQuery = useTeams(mspCustomDomain);
  const removeMember = useRemoveTeamMember(mspCustomDomain);
  const [chosenTeamId, setChosenTeamId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<TDialog>(null);
  const teams = teamsQuery.data ?? [];
  const team = teams.find((candidate) => candidate.id === chosenTeamId) ?? teams[0] ?? null;
  const pageCount = team ? Math.max(1, Math.ceil(team.members.length / MEMBERS_PER_PAGE)) : 1;
  const shownPage = Math.min(page, pageCount);
  // Phones get one card per member: the table would hide the actions off-screen.
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  const members = team ? team.members.slice((shownPage - 1) * MEMBERS_PER_PAGE, shownPage * MEMBERS_PER_PAGE) : [];

  function handleRemove(current: TTeam, member: TTeamMember) {
    modals.openConfirmModal({
      title: `Remove ${member.firstName} ${member.lastName}?`,
      children: <Text size="sm">{MESSAGES.teams.removeConfirm}</Text>,
      labels: { confirm: 'Remove member', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        removeMember.mutate(
          { teamId: current.id, email: member.email },
          {
            onSuccess: () => notifications.show({ color: 'green', title: MESSAGES.teams.removed, message: '' }),
            onError: (error) => notifications.show({ color: 'red', title: MESSAGES.teams.removeFailed, message: errorDetail(error) }),
          },
        ),
    });
  }

  return (
    <Stack component="section" aria-labelledby="teams-title">
      <Group justify="space-between">
        <Title order={1} size="h2" id="teams-title">
          Teams
        </Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>Create team</Button>
      </Group>
      {teamsQuery.isPending && <Loader aria-label="Loading teams" />}
      {teamsQuery.isError && (
        <Alert color="red" role="alert">
          {errorDetail(teamsQuery.error)}
        </Alert>
      )}
      {teamsQuery.isSuccess && teams.length === 0 && <Text>No teams yet. Create one on a board of your PSA.</Text>}
      {team && (
        <>
          <Group align="flex-end" wrap="wrap">
            <NativeSelect
              label="Team"
              data={teams.map((candidate) => ({ value: candidate.id, label: `${candidate.teamName} (${candidate.boardName})` }))}
              value={team.id}
              onChange={(event) => {
                setChosenTeamId(event.currentTarget.value);
                setPage(1);
              }}
              style={{ flex: '1 1 16rem', maxWidth: '32rem' }}
            />
            <Button variant="light" onClick={() => setDialog({ kind: 'add', team })}>
              Add members
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Board: {team.boardName} · {team.members.length} member{team.members.length === 1 ? '' : 's'}
            {team.psaTeamId === null ? ' · kept in Switchboard (your PSA has no board teams)' : ''}
          </Text>
          {team.members.length === 0 && <Text>This team has no members yet.</Text>}
          {team.members.length > 0 && isNarrow && (
            <Stack gap="xs" component="ul" aria-label={`Members of ${team.teamName}`} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {members.map((member) => {
                const name = `${member.firstName} ${member.lastName}`;
                return (
                  <Paper key={member.id} component="li" withBorder p="sm">
                    <Text fw={600}>
                      {name} <InactiveBadge member={member} />
                    </Text>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {member.email}
                    </Text>
                    <Text size="sm" mb="xs">
                      {TIER_LABELS[member.tierLevel]}
                    </Text>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={`Edit ${name}`} onClick={() => setDialog({ kind: 'edit', team, member })}>
                        Edit
                      </Button>
                      <Button size="xs" variant="light" color="red" aria-label={`Remove ${name}`} onClick={() => handleRemove(team, member)}>
                        Remove
                      </Button>
                    </Group>
                  </Paper>
                );
              })}
            </Stack>
          )}
          {team.members.length > 0 && !isNarrow && (
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover aria-label={`Members of ${team.teamName}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Name</Table.Th>
                    <Table.Th scope="col">Email</Table.Th>
                    <Table.Th scope="col">Tier</Table.Th>
                    <Table.Th scope="col">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {members.map((member) => {
                    const name = `${member.firstName} ${member.lastName}`;
                    return (
                      <Table.Tr key={member.id}>
                        <Table.Th scope="row" fw={500}>
                          {name} <InactiveBadge member={member} />
                        </Table.Th>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{member.email}</Table.Td>
                        <Table.Td>{TIER_LABELS[member.tierLevel]}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Button size="xs" variant="light" aria-label={`Edit ${name}`} onClick={() => setDialog({ kind: 'edit', team, member })}>
                              Edit
                            </Button>
                            <Button size="xs" variant="light" color="red" aria-label={`Remove ${name}`} onClick={() => handleRemove(team, member)}>
                              Remove
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pageCount > 1 && <Pagination total={pageCount} value={shownPage} onChange={setPage} aria-label="Member pages" />}
        </>
      )}
      {dialog?.kind === 'create' && (
        <CreateTeamModal
          mspCustomDomain={mspCustomDomain}
          onClose={() => setDialog(null)}
          onCreated={(teamId) => {
            notifications.show({ color: 'green', title: MESSAGES.teams.created, message: '' });
            setChosenTeamId(teamId);
            setPage(1);
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'add' && (
        <AddMembersModal
          mspCustomDomain={mspCustomDomain}
          team={dialog.team}
          onClose={() => setDialog(null)}
          onAdded={() => {
            notifications.show({ color: 'green', title: MESSAGES.teams.membersAdded, message: '' });
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditMemberModal
          key={dialog.member.id}
          mspCustomDomain={mspCustomDomain}
          team={dialog.team}
          member={dialog.member}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifications.show({ color: 'green', title: MESSAGES.teams.tiersSaved, message: '' });
            setDialog(null);
          }}
        />
      )}
    </Stack>
  );
}
