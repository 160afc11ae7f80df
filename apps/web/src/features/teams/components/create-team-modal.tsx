import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Button, Group, Loader, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useBoards, useCreateTeam } from '../api/teams-queries';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../../employees/form-styles';

type TCreateTeamModalProps = { mspCustomDomain: string; onClose: () => void; onCreated: (teamId: string) => void };

/** a team needs a selected board and a name (01 §5, R-225); nothing is sent until both are given. */
export function CreateTeamModal({ mspCustomDomain, onClose, onCreated }: TCreateTeamModalProps) {
  const boardsQuery = useBoards(mspCustomDomain, true);
  const createTeam = useCreateTeam(mspCustomDomain);
  const [boardId, setBoardId] = useState('');
  const [teamName, setTeamName] = useState('');
  const [problems, setProblems] = useState<{ board?: string; name?: string }>({});
  const boards = boardsQuery.data ?? [];

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const board = boards.find((candidate) => String(candidate.id) === boardId);
    const found = { ...(board ? {} : { board: MESSAGES.teams.boardRequired }), ...(teamName.trim() === '' ? { name: MESSAGES.teams.nameRequired } : {}) };
    setProblems(found);
    if (!board || found.name) return;
    createTeam.mutate({ boardId: board.id, boardName: board.name, teamName: teamName.trim(), members: [] }, { onSuccess: (team) => onCreated(team.id) });
  }

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title="Create team">
      <form onSubmit={handleSubmit} noValidate aria-label="Create team">
        <Stack>
          {boardsQuery.isPending && <Loader size="sm" aria-label="Loading boards" />}
          {boardsQuery.isError && (
            <Alert color="red" role="alert">
              {errorDetail(boardsQuery.error)}
            </Alert>
          )}
          <NativeSelect
            label="Board"
            data={[{ value: '', label: 'Choose a board' }, ...boards.map((board) => ({ value: String(board.id), label: board.name }))]}
            value={boardId}
            onChange={(event) => setBoardId(event.currentTarget.value)}
            styles={READABLE_ERROR_STYLES}
            error={problems.board}
            data-autofocus
          />
          <TextInput label="Team name" maxLength={30} value={teamName} onChange={(event) => setTeamName(event.currentTarget.value)} styles={READABLE_ERROR_STYLES} error={problems.name} />
          {createTeam.isError && (
            <Alert color="red" role="alert" title={MESSAGES.teams.createFailed}>
              {errorDetail(createTeam.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={createTeam.isPending}>
              Create team
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
