import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { coerceScore, coerceSlaHours, type TEditableBoard, type TEditableSubType, type TEditableType, type TMergedCategorization, type TScoredBoard } from '@switchboard/contracts';
import { BoardNumberInput } from './board-number-input';
import { addSubType, removeNewSubType, removeNewType, subTypeKey, typeKey, updateSubType } from './board-editor-state';
import { DiagnosticQuestionsModal } from './diagnostic-questions-modal';
import { SourceHint } from './source-hint';
import { TEAM_TIER_OPTIONS as TIER_OPTIONS } from '../../../lib/tier-labels';

type TSubTypeFields = {
  name: string;
  priority: ReactNode;
  priorityScore: ReactNode;
  subTypeScore: ReactNode;
  tier: ReactNode;
  sla: ReactNode;
  actions: ReactNode;
};

/** One subtype's inputs; `isStacked` gives each a visible label (the phone layout has no column headers). */
function subTypeFields({
  name,
  sub,
  merged,
  suggestion,
  model,
  isStacked,
  onPatch,
  onRemove,
  onQuestions,
  canAskQuestions,
}: {
  name: string;
  sub: TEditableSubType;
  merged: TMergedCategorization;
  suggestion: TScoredBoard['suggestions'][number] | undefined;
  /** The AI model of the applied suggestions, when one was asked. */
  model: string | null;
  isStacked: boolean;
  onPatch: (change: Parameters<typeof updateSubType>[3]) => void;
  onRemove: () => void;
  onQuestions: () => void;
  canAskQuestions: boolean;
}): TSubTypeFields {
  const label = (text: string) => (isStacked ? text : undefined);
  const sourceContext = { ticketCount: suggestion?.ticketCount ?? 0, model };
  const priorityOptions = merged.priorities.map((priority) => ({ value: String(priority.priorityId), label: priority.priority }));
  return {
    name,
    priority: (
      <Select
        size="xs"
        label={label('Priority')}
        aria-label={`Priority for ${name}`}
        data={priorityOptions}
        value={sub.priorityId === null ? null : String(sub.priorityId)}
        clearable
        // Choosing the priority already shown must keep it (Mantine's default deselects); the clear button empties it.
        allowDeselect={false}
        placeholder="None"
        onChange={(value) => {
          const priority = merged.priorities.find((candidate) => String(candidate.priorityId) === value);
          onPatch({ priorityId: priority?.priorityId ?? null, priority: priority?.priority ?? null });
        }}
      />
    ),
    priorityScore: (
      <>
        <BoardNumberInput size="xs" label={label('Priority score')} aria-label={`Priority score for ${name}`} min={0} max={100} allowDecimal={false} value={sub.priorityScore} toNumber={coerceScore} onChange={(value) => onPatch({ priorityScore: value })} />
        <SourceHint suggestion={suggestion?.priorityScore} current={sub.priorityScore} context={sourceContext} />
      </>
    ),
    subTypeScore: (
      <>
        <BoardNumberInput size="xs" label={label('Subtype score')} aria-label={`Subtype score for ${name}`} min={0} max={100} allowDecimal={false} value={sub.subTypeScore} toNumber={coerceScore} onChange={(value) => onPatch({ subTypeScore: value })} />
        <SourceHint suggestion={suggestion?.subTypeScore} current={sub.subTypeScore} context={sourceContext} />
      </>
    ),
    tier: (
      <>
        <Select size="xs" label={label('Tier')} aria-label={`Tier for ${name}`} data={TIER_OPTIONS} value={sub.tier} allowDeselect={false} onChange={(value) => value !== null && onPatch({ tier: value })} />
        <SourceHint suggestion={suggestion?.tier} current={sub.tier} context={sourceContext} />
      </>
    ),
    sla: (
      <>
        <BoardNumberInput
          size="xs"
          label={label('SLA (hours)')}
          aria-label={`SLA hours for ${name}`}
          min={1}
          max={8760}
          allowDecimal={false}
          value={sub.slaDeadLineInHours}
          toNumber={(typed) => coerceSlaHours(typed, merged.psaType)}
          onChange={(value) => onPatch({ slaDeadLineInHours: value })}
        />
        <SourceHint suggestion={suggestion?.slaDeadLineInHours} current={sub.slaDeadLineInHours} context={sourceContext} />
      </>
    ),
    actions: (
      <>
        {canAskQuestions && (
          <Button size="xs" variant="subtle" aria-label={`Diagnostic questions for ${name}`} onClick={onQuestions}>
            Questions
          </Button>
        )}
        {sub.isNew && (
          <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${name}`} onClick={onRemove}>
            Remove
          </Button>
        )}
      </>
    ),
  };
}

function NewBadge({ sub }: { sub: TEditableSubType }) {
  if (!sub.isNew) return null;
  return (
    <Badge size="xs" color="orange" variant="light">
      New
    </Badge>
  );
}

/** One type of the board editor with its subtypes: a table when wide, one card per subtype on a phone (no sideways scrolling). */
export function BoardTypeCard({
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
  // Below 48em the seven columns scrolled sideways; the stacked cards need none.
  const isStacked = useMediaQuery('(max-width: 48em)') ?? false;
  const key = typeKey(type);
  const typeLabel = type.typeName === '' ? 'New type' : type.typeName;

  function handleAddSubType() {
    if (newSubTypeName.trim() === '') return;
    onChange(addSubType(board, key, newSubTypeName));
    setNewSubTypeName('');
  }

  const rows = type.mspConnectWiseBoardSubTypes.map((sub) => {
    const subKey = subTypeKey(sub);
    const name = `${typeLabel} / ${sub.subTypeName}`;
    const suggestion = applied?.suggestions.find(
      (candidate) => (candidate.typeId ?? candidate.typeName) === (type.typeId ?? type.typeName) && (candidate.subTypeId ?? candidate.subTypeName) === (sub.subTypeId ?? sub.subTypeName),
    );
    const fields = subTypeFields({
      name,
      sub,
      merged,
      suggestion,
      model: applied?.ai?.model ?? null,
      isStacked,
      onPatch: (change) => onChange(updateSubType(board, key, subKey, change)),
      onRemove: () => onChange(removeNewSubType(board, key, subKey)),
      onQuestions: () => sub.subTypeId !== null && setQuestionsOf({ subTypeId: sub.subTypeId, name }),
      canAskQuestions: !sub.isNew && sub.subTypeId !== null && type.typeId !== null,
    });
    return { sub, subKey, fields };
  });

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
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No subtypes yet.
        </Text>
      ) : isStacked ? (
        <Stack gap="xs">
          {rows.map(({ sub, subKey, fields }) => (
            <Paper key={subKey} withBorder p="xs" radius="sm" component="section" aria-label={`Subtype ${fields.name}`}>
              <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                <Group gap="xs">
                  <Text fw={500} size="sm">
                    {sub.subTypeName}
                  </Text>
                  <NewBadge sub={sub} />
                </Group>
                <Group gap={0}>{fields.actions}</Group>
              </Group>
              <Stack gap="xs">
                {fields.priority}
                <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
                  <div>{fields.priorityScore}</div>
                  <div>{fields.subTypeScore}</div>
                  <div>{fields.tier}</div>
                  <div>{fields.sla}</div>
                </SimpleGrid>
              </Stack>
            </Paper>
          ))}
        </Stack>
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
              {rows.map(({ sub, subKey, fields }) => (
                <Table.Tr key={subKey}>
                  <Table.Th scope="row" fw={500}>
                    <Stack gap={2} align="flex-start">
                      <span>{sub.subTypeName}</span>
                      <NewBadge sub={sub} />
                    </Stack>
                  </Table.Th>
                  <Table.Td miw={200}>{fields.priority}</Table.Td>
                  <Table.Td w={110}>{fields.priorityScore}</Table.Td>
                  <Table.Td w={110}>{fields.subTypeScore}</Table.Td>
                  <Table.Td w={110}>{fields.tier}</Table.Td>
                  <Table.Td w={110}>{fields.sla}</Table.Td>
                  <Table.Td w={130}>{fields.actions}</Table.Td>
                </Table.Tr>
              ))}
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
