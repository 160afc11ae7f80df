import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES, coerceScore, type TEditableBoard, type TMergedCategorization, type TScoredBoard } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useCreateStatus, useScoreBoard } from '../api/boards-queries';
import { addType, applySuggestedNumbers, setStatus, typeKey, updatePriorityScore, type TBoardSaveState } from './board-editor-state';
import { BoardNumberInput } from './board-number-input';
import { BoardTypeCard } from './board-type-card';
import { ScoreSuggestions } from './score-suggestions';
import { SourceHint } from './source-hint';

type TBoardEditorProps = {
  msp: string;
  merged: TMergedCategorization;
  board: TEditableBoard;
  isUnsaved: boolean;
  saveState: TBoardSaveState;
  onChange: (board: TEditableBoard) => void;
  onSave: () => void;
  /** Drops the board's unsaved edits (offered while there are some). */
  onDiscard?: () => void;
  /** Drops the working copy and reads the board again (offered when another save came first, decision 012). */
  onReload?: () => void;
};

function SaveStateIndicator({ isUnsaved, saveState }: { isUnsaved: boolean; saveState: TBoardSaveState }) {
  const unsavedBadge = (
    <Badge color="yellow" variant="light" role="status">
      {MESSAGES.boards.unsaved}
    </Badge>
  );
  if (saveState.status === 'saving') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Saving…</Text>
      </Group>
    );
  }
  if (saveState.status === 'success') {
    // Edits typed while the save ran are not in it: they stay unsaved.
    return (
      <>
        <Badge color="green" variant="light" role="status">
          {MESSAGES.boards.saved}
        </Badge>
        {isUnsaved && unsavedBadge}
      </>
    );
  }
  return isUnsaved ? unsavedBadge : null;
}

/** 01 §2 / §4 board editor: statuses, priorities, types and subtypes with scores, tiers and SLA. */
export function BoardEditor({ msp, merged, board, isUnsaved, saveState, onChange, onSave, onDiscard, onReload }: TBoardEditorProps) {
  const [newTypeName, setNewTypeName] = useState('');
  const [newStatus, setNewStatus] = useState({ name: '', isClosed: false });
  const [scored, setScored] = useState<TScoredBoard | null>(null);
  const [applied, setApplied] = useState<TScoredBoard | null>(null);
  const scoreBoard = useScoreBoard(msp);
  const createStatus = useCreateStatus(msp);
  const statusOptions = merged.statuses.map((status) => ({ value: String(status.id), label: status.isClosed ? `${status.name} (closes)` : status.name }));
  const statusById = (value: string | null) => {
    const status = merged.statuses.find((candidate) => String(candidate.id) === value);
    return status ? { id: status.id, name: status.name } : null;
  };

  function handleAddType() {
    if (newTypeName.trim() === '') return;
    onChange(addType(board, newTypeName));
    setNewTypeName('');
  }

  function handleCreateStatus() {
    if (board.boardId === null || newStatus.name.trim() === '') return;
    createStatus.mutate(
      { boardId: board.boardId, statusName: newStatus.name.trim(), isClosed: newStatus.isClosed },
      {
        onSuccess: (status) => {
          onChange(setStatus(board, status.isClosed ? 'closed' : 'open', { id: status.statusId, name: status.statusName }));
          setNewStatus({ name: '', isClosed: false });
        },
      },
    );
  }

  return (
    <Stack component="section" aria-labelledby="board-editor-title" gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={3} id="board-editor-title">
            {board.boardName}
          </Title>
          <Group gap="xs">
            <Badge variant="outline">{merged.psaType === 'CONNECTWISE' ? 'ConnectWise board' : 'Autotask queue'}</Badge>
            <SaveStateIndicator isUnsaved={isUnsaved} saveState={saveState} />
          </Group>
        </Stack>
        <Group gap="xs">
          <Button variant="light" loading={scoreBoard.isPending} onClick={() => scoreBoard.mutate(board, { onSuccess: setScored })}>
            Suggest scores from ticket history
          </Button>
          {onDiscard && isUnsaved && (
            <Button variant="default" onClick={onDiscard} disabled={saveState.status === 'saving'}>
              Discard changes
            </Button>
          )}
          <Button onClick={onSave} loading={saveState.status === 'saving'}>
            Save board
          </Button>
        </Group>
      </Group>

      {saveState.status === 'error' && (
        <Alert color="red" role="alert" title={MESSAGES.boards.saveFailed}>
          <Stack gap={2}>
            {[saveState.message, ...saveState.problems.filter((problem) => problem !== saveState.message)].map((problem) => (
              <Text size="sm" key={problem}>
                {problem}
              </Text>
            ))}
            {saveState.isStale === true && onReload && (
              <Group mt="xs">
                <Button size="xs" variant="white" color="red" onClick={onReload}>
                  Reload board
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {scoreBoard.isError && (
        <Alert color="red" role="alert">
          {errorDetail(scoreBoard.error)}
        </Alert>
      )}
      {scored && (
        <Paper withBorder p="sm">
          <ScoreSuggestions
            scored={scored}
            onDismiss={() => setScored(null)}
            onApply={() => {
              onChange(applySuggestedNumbers(board, scored));
              setApplied(scored);
              setScored(null);
            }}
          />
        </Paper>
      )}

      <Paper withBorder p="sm" component="section" aria-labelledby="statuses-title">
        <Title order={4} id="statuses-title" mb="xs">
          Statuses
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Open (new ticket) status"
            data={statusOptions}
            value={board.newCreatingTicketStatusId === null ? null : String(board.newCreatingTicketStatusId)}
            clearable
            // Choosing the status already shown must keep it (Mantine's default deselects); the clear button empties it.
            allowDeselect={false}
            onChange={(value) => onChange(setStatus(board, 'open', statusById(value)))}
          />
          <Select
            label="Closed status"
            data={statusOptions}
            value={board.closingTicketStatusId === null ? null : String(board.closingTicketStatusId)}
            clearable
            allowDeselect={false}
            onChange={(value) => onChange(setStatus(board, 'closed', statusById(value)))}
          />
        </SimpleGrid>
        {merged.canCreate.statuses ? (
          <Group mt="xs" align="flex-end" gap="xs">
            <TextInput size="xs" label="New status" maxLength={50} value={newStatus.name} onChange={(event) => setNewStatus({ ...newStatus, name: event.currentTarget.value })} />
            <Checkbox size="xs" label="Closes tickets" checked={newStatus.isClosed} onChange={(event) => setNewStatus({ ...newStatus, isClosed: event.currentTarget.checked })} mb={6} />
            <Button size="xs" variant="light" loading={createStatus.isPending} disabled={newStatus.name.trim() === ''} onClick={handleCreateStatus}>
              Create status
            </Button>
            {createStatus.isError && (
              <Text size="xs" c="red" role="alert">
                {errorDetail(createStatus.error)}
              </Text>
            )}
          </Group>
        ) : (
          <Text size="xs" c="dimmed" mt="xs">
            Autotask statuses are a picklist: choose existing ones (create new ones in Autotask itself).
          </Text>
        )}
      </Paper>

      <Paper withBorder p="sm" component="section" aria-labelledby="priorities-title">
        <Title order={4} id="priorities-title" mb="xs">
          Priority scores
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {board.priorities.map((priority) => (
            <BoardNumberInput
              key={priority.priorityId}
              label={priority.priority}
              min={0}
              max={100}
              allowDecimal={false}
              value={priority.priorityScore}
              toNumber={coerceScore}
              onChange={(value) => onChange(updatePriorityScore(board, priority.priorityId, value))}
              description={<SourceHint suggestion={applied?.prioritySuggestions.find((entry) => entry.priorityId === priority.priorityId)?.priorityScore} current={priority.priorityScore} context={{ ticketCount: 0, model: applied?.ai?.model ?? null }} />}
            />
          ))}
        </SimpleGrid>
      </Paper>

      <Stack gap="sm" component="section" aria-labelledby="types-title">
        <Group justify="space-between">
          <Title order={4} id="types-title">
            Types and subtypes
          </Title>
          {merged.canCreate.types ? (
            <Group align="flex-end" gap="xs">
              <TextInput
                size="xs"
                label="New type"
                value={newTypeName}
                maxLength={50}
                onChange={(event) => setNewTypeName(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') handleAddType();
                }}
              />
              <Button size="xs" variant="light" onClick={handleAddType} disabled={newTypeName.trim() === ''}>
                Add type
              </Button>
            </Group>
          ) : null}
        </Group>
        {!merged.canCreate.types && (
          <Alert variant="light" color="blue">
            Autotask issue types and sub-issue types are picklists: this board maps to the values that exist in Autotask. Add new ones in Autotask (Admin › Features &amp; Settings), then reload the board.
          </Alert>
        )}
        {board.mspConnectWiseBoardTypes.map((type) => (
          <BoardTypeCard key={typeKey(type)} msp={msp} type={type} board={board} merged={merged} canCreate={merged.canCreate.subTypes} applied={applied} onChange={onChange} />
        ))}
      </Stack>
      <Group justify="flex-end">
        <Button onClick={onSave} loading={saveState.status === 'saving'}>
          Save board
        </Button>
      </Group>
    </Stack>
  );
}
