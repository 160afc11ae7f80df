import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TTeam, TTeamMember, TTeamTier } from '@switchboard/contracts';
import { TEAM_TIER_OPTIONS } from '../../../lib/tier-labels';
import { useUpdateTeam } from '../api/teams-queries';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

type TEditMemberModalProps = { mspCustomDomain: string; team: TTeam; member: TTeamMember; onClose: () => void; onSaved: () => void };

const isTeamTier = (value: string | null): value is TTeamTier => value === 'Tier1' || value === 'Tier2' || value === 'Tier3';

/** The edit-member dialog (02 §2): the member's tier on this team, saved with A-063 (01 §5, §8 messages). */
export function EditMemberModal({ mspCustomDomain, team, member, onClose, onSaved }: TEditMemberModalProps) {
  const updateTeam = useUpdateTeam(mspCustomDomain);
  const [tierLevel, setTierLevel] = useState<string | null>(member.tierLevel);
  const [problem, setProblem] = useState<string | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isTeamTier(tierLevel)) {
      setProblem(MESSAGES.teams.tierRequired);
      return;
    }
    setProblem(null);
    updateTeam.mutate({ teamId: team.id, body: { members: [{ email: member.email, tierLevel }] } }, { onSuccess: onSaved });
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Edit ${member.firstName} ${member.lastName}`}>
      <form onSubmit={handleSubmit} noValidate aria-label="Edit member">
        <Stack>
          <Text size="sm" c="dimmed">
            {member.email} on {team.teamName}
          </Text>
          <NativeSelect label="Tier" data={[{ value: '', label: 'Choose a tier' }, ...TEAM_TIER_OPTIONS]} value={tierLevel ?? ''} onChange={(event) => setTierLevel(event.currentTarget.value)} data-autofocus />
          {problem && (
            <Text c="red.8" size="sm" role="alert">
              {problem}
            </Text>
          )}
          {updateTeam.isError && (
            <Alert color="red" role="alert">
              {MESSAGES.teams.tierSaveFailed}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={updateTeam.isPending}>
              Save tier
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
