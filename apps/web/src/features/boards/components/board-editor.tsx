import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Loader, NumberInput, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import {
  MESSAGES,
  TIERS,
  coerceScore,
  coerceSlaHours,
  type TEditableBoard,
  type TEditableType,
  type TMergedCategorization,
  type TScoredBoard,
} from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useCreateStatus, useScoreBoard } from '../api/boards-queries';
import { addSubType, addType, removeNewSubType, removeNewType, setStatus, subTypeKey, typeKey, updatePriorityScore, updateSubType, type TBoardSaveState } from './board-editor-state';
import { DiagnosticQuestionsModal } from './diagnostic-questions-modal';
import { ScoreSuggestions } from './score-suggestions';

type TBoardEditorProps = {
  msp: string;
  merged: TMergedCategorization;
  board: TEditableBoard;
  isUnsaved: boolean;
  saveState: TBoardSaveState;
  onChange: (board: TEditableBoard) => void;
  onSave: () => void;
};

function SaveStateIndicator({ isUnsaved, saveState }: { isUnsaved: boolean; saveState: TBoardSaveState }) {
  if (saveState.status === 'saving') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Saving…</Text>
      </Group>
    );
  }
  if (saveState.status === 'success') {
    return (
      <Badge color="green" variant="light" role="status">
        {MESSAGES.boards.saved}
      </Badge>
    );
  }
  if (isUnsaved) {
    return (
      <Badge color="yellow" variant="light" role="status">
        {MESSAGES.boards.unsaved}
      </Badge>
    );
  }
  return null;
}

const SOURCE_HINTS = { history: 'From history', psa: 'From PSA order', default: 'Default' } as const;

/** Under an applied suggestion, where its number came from (issue #7); gone once the number is edited. */
function SourceHint({ suggestion, current }: { suggestion: { value: number | string; source: keyof typeof SOURCE_HINTS; explanation: string } | undefined; current: number | string }) {
  if (!suggestion || suggestion.value !== current) return null;
  return (
    <Text component="span" display="block" size="xs" c="dimmed" title={suggestion.explanation} mt={2}>
      {SOURCE_HINTS[suggestion.source]}
    </Text>
  );
}

function TypeCard({
  msp,
  type,
  board,
  merged,
  canCreate,
  applied,
  onChange,
}: {
  msp: string;
  type: TEditableType;
  board: TEditableBoard;
  merged: TMergedCategorization;
  canCreate: boolean;
  applied: TScoredBoard | null;
  onChange: (board: TEditableBoard) => void;
}) {
  const [newSubTypeName, setNewSubTypeName] = useState('');
  const [questionsOf, setQuestionsOf] = useState<{ subTypeId: number; name: string } | null>(null);
  const key = typeKey(type);
  const typeLabel = type.typeName === '' ? 'New type' : type.typeName;
  const priorityOptions = merged.priorities.map((priority) => ({ value: String(priority.priorityId), label: priority.priority }));

  function handleAddSubType() {
    if (newSubTypeName.trim() === '') return;
    onChange(addSubType(board, key, newSubTypeName));
    setNewSubTypeName('');
  }

  return (
    <Paper withBorder p="sm" component="section" aria-label={`Type ${typeLabel}`}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={4}>{typeLabel}</Title>
          {type.isNew && (
            <Badge size="sm" color="orange" variant="light">
              New — created at the PSA on save
            </Badge>
          )}
        </Group>
        {type.isNew && (
          <Button size="xs" variant="subtle" color="red" onClick={() => onChange(removeNewType(board, key))}>
            Remove type
          </Button>
        )}
      </Group>
      {type.mspConnectWiseBoardSubTypes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No subtypes yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Subtype</Table.Th>
                <Table.Th scope="col">Priority</Table.Th>
                <Table.Th scope="col">Priority score</Table.Th>
                <Table.Th scope="col">Subtype score</Table.Th>
                <Table.Th scope="col">Tier</Table.Th>
                <Table.Th scope="col">SLA (hours)</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {type.mspConnectWiseBoardSubTypes.map((sub) => {
                const subKey = subTypeKey(sub);
                const name = `${typeLabel} / ${sub.subTypeName}`;
                const patch = (change: Parameters<typeof updateSubType>[3]) => onChange(updateSubType(board, key, subKey, change));
                const suggestion = applied?.suggestions.find(
                  (candidate) => (candidate.typeId ?? candidate.typeName) === (type.typeId ?? type.typeName) && (candidate.subTypeId ?? candidate.subTypeName) === (sub.subTypeId ?? sub.subTypeName),
                );
                return (
                  <Table.Tr key={subKey}>
                    <Table.Th scope="row" fw={500}>
                      <Stack gap={2} align="flex-start">
                        <span>{sub.subTypeName}</span>
                        {sub.isNew && (
                          <Badge size="xs" color="orange" variant="light">
                            New
                          </Badge>
                        )}
                      </Stack>
                    </Table.Th>
                    <Table.Td miw={200}>
                      <Select
                        size="xs"
                        aria-label={`Priority for ${name}`}
                        data={priorityOptions}
                        value={sub.priorityId === null ? null : String(sub.priorityId)}
                        clearable
                        allowDeselect={false}
                        placeholder="None"
                        onChange={(value) => {
                          const priority = merged.priorities.find((candidate) => String(candidate.priorityId) === value);
                          patch({ priorityId: priority?.priorityId ?? null, priority: priority?.priority ?? null });
                        }}
                      />
                    </Table.Td>
                    <Table.Td w={110}>
                      <NumberInput size="xs" aria-label={`Priority score for ${name}`} min={0} max={100} allowDecimal={false} value={sub.priorityScore} onChange={(value) => patch({ priorityScore: coerceScore(value) })} />
                      <SourceHint suggestion={suggestion?.priorityScore} current={sub.priorityScore} />
                    </Table.Td>
                    <Table.Td w={110}>
                      <NumberInput size="xs" aria-label={`Subtype score for ${name}`} min={0} max={100} allowDecimal={false} value={sub.subTypeScore} onChange={(value) => patch({ subTypeScore: coerceScore(value) })} />
                      <SourceHint suggestion={suggestion?.subTypeScore} current={sub.subTypeScore} />
                    </Table.Td>
                    <Table.Td w={110}>
                      <Select size="xs" aria-label={`Tier for ${name}`} data={[...TIERS]} value={sub.tier} allowDeselect={false} onChange={(value) => value !== null && patch({ tier: value })} />
                      <SourceHint suggestion={suggestion?.tier} current={sub.tier} />
                    </Table.Td>
                    <Table.Td w={110}>
                      <NumberInput
                        size="xs"
                        aria-label={`SLA hours for ${name}`}
                        min={1}
                        max={8760}
                        allowDecimal={false}
                        value={sub.slaDeadLineInHours}
                        onChange={(value) => patch({ slaDeadLineInHours: coerceSlaHours(value, merged.psaType) })}
                      />
                      <SourceHint suggestion={suggestion?.slaDeadLineInHours} current={sub.slaDeadLineInHours} />
                    </Table.Td>
                    <Table.Td w={130}>
                      {!sub.isNew && sub.subTypeId !== null && type.typeId !== null && (
                        <Button size="xs" variant="subtle" aria-label={`Diagnostic questions for ${name}`} onClick={() => sub.subTypeId !== null && setQuestionsOf({ subTypeId: sub.subTypeId, name })}>
                          Questions
                        </Button>
                      )}
                      {sub.isNew && (
                        <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${name}`} onClick={() => onChange(removeNewSubType(board, key, subKey))}>
                          Remove
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {questionsOf && type.typeId !== null && (
        <DiagnosticQuestionsModal msp={msp} typeId={type.typeId} subTypeId={questionsOf.subTypeId} name={questionsOf.name} isOpen onClose={() => setQuestionsOf(null)} />
      )}
      {canCreate && (
        <Group mt="xs" align="flex-end" gap="xs">
          <TextInput
            size="xs"
            label={`New subtype of ${typeLabel}`}
            value={newSubTypeName}
            maxLength={50}
            onChange={(event) => setNewSubTypeName(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') handleAddSubType();
            }}
          />
          <Button size="xs" variant="light" onClick={handleAddSubType} disabled={newSubTypeName.trim() === ''}>
            Add subtype
          </Button>
        </Group>
      )}
    </Paper>
  );
}

/** 01 §2 / §4 board editor: statuses, priorities, types and subtypes with scores, tiers and SLA. */
export function BoardEditor({ msp, merged, board, isUnsaved, saveState, onChange, onSave }: TBoardEditorProps) {
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
          </Stack>
        </Alert>
      )}
      {scoreBoard.isError && (
        <Alert color="red" role="alert">
          {isApiError(scoreBoard.error) ? scoreBoard.error.detail : MESSAGES.unexpectedError}
        </Alert>
      )}
      {scored && (
        <Paper withBorder p="sm">
          <ScoreSuggestions
            scored={scored}
            onDismiss={() => setScored(null)}
            onApply={() => {
              onChange({ ...board, mspConnectWiseBoardTypes: scored.board.mspConnectWiseBoardTypes, priorities: scored.board.priorities });
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
                {isApiError(createStatus.error) ? createStatus.error.detail : MESSAGES.unexpectedError}
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
            <NumberInput
              key={priority.priorityId}
              label={priority.priority}
              min={0}
              max={100}
              allowDecimal={false}
              value={priority.priorityScore}
              onChange={(value) => onChange(updatePriorityScore(board, priority.priorityId, coerceScore(value)))}
              description={<SourceHint suggestion={applied?.prioritySuggestions.find((entry) => entry.priorityId === priority.priorityId)?.priorityScore} current={priority.priorityScore} />}
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
          <TypeCard key={typeKey(type)} msp={msp} type={type} board={board} merged={merged} canCreate={merged.canCreate.subTypes} applied={applied} onChange={onChange} />
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
