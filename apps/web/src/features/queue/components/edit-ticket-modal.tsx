import { useState } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { QUEUE_TIER_OPTIONS, isTierLevel } from '../../../lib/tier-labels';
import type { TBoardChoices, TChoice } from '../lib/board-choices';
import type { TUpdateTicketBody } from '@switchboard/contracts';
import type { TQueueTicketView } from '../queue-types';

const LEVELS = ['Low', 'Medium', 'High'] as const;
type TLevel = (typeof LEVELS)[number];
const isLevel = (value: string): value is TLevel => (LEVELS as readonly string[]).includes(value);

type TEditTicketModalProps = {
  ticket: TQueueTicketView;
  choices: TBoardChoices | null;
  statuses: readonly TChoice[];
  isLoading: boolean;
  isSaving: boolean;
  error: string | null;
  onSave: (edit: TUpdateTicketBody) => void;
  onCancel: () => void;
};

const NONE = '';
const options = (items: readonly TChoice[], noneLabel: string) => [{ value: NONE, label: noneLabel }, ...items.map((item) => ({ value: item.id, label: item.name }))];

/** Edit ticket (02 §4): categories, priorities and statuses of the ticket's board; cancel discards the edits. */
export function EditTicketModal({ ticket, choices, statuses, isLoading, isSaving, error, onSave, onCancel }: TEditTicketModalProps) {
  const [title, setTitle] = useState(ticket.title);
  const [description, setDescription] = useState(ticket.description ?? '');
  const idText = (id: number | null) => (id === null ? NONE : String(id));
  const [typeId, setTypeId] = useState(idText(ticket.categoryId));
  const [subtypeId, setSubtypeId] = useState(idText(ticket.subCategoryId));
  const [priorityId, setPriorityId] = useState(idText(ticket.priorityId));
  const [statusId, setStatusId] = useState(idText(ticket.statusId));
  const [impact, setImpact] = useState<string>(ticket.impact ?? 'Medium');
  const [severity, setSeverity] = useState<string>(ticket.severity ?? 'Medium');
  const [tier, setTier] = useState<string>(ticket.tier);

  const types = choices?.types ?? [];
  const type = types.find((candidate) => candidate.id === typeId);
  const subtypes = type?.subtypes ?? [];
  const titleError = title.trim() === '' ? 'A title is required.' : null;

  function handleTypeChange(value: string) {
    // 02 §4 dependent fields: a new category clears the subcategory.
    setTypeId(value);
    setSubtypeId(NONE);
  }

  function handleSubtypeChange(value: string) {
    setSubtypeId(value);
    const subtype = subtypes.find((candidate) => candidate.id === value);
    // Picking a subcategory fills priority and tier from the board's configuration (02 §4).
    if (subtype?.priorityId) setPriorityId(subtype.priorityId);
    if (subtype) setTier(subtype.tier);
  }

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (titleError !== null) return;
    const nameOf = (items: readonly TChoice[], id: string) => (id === NONE ? null : (items.find((item) => item.id === id)?.name ?? null));
    const idOf = (id: string) => (id === NONE ? null : Number(id));
    onSave({
      title: title.trim(),
      description: description.trim(),
      categoryId: idOf(typeId),
      categoryName: nameOf(types, typeId),
      subCategoryId: idOf(subtypeId),
      subCategoryName: nameOf(subtypes, subtypeId),
      priorityId: idOf(priorityId),
      priority: nameOf(choices?.priorities ?? [], priorityId),
      statusId: idOf(statusId),
      status: nameOf(statuses, statusId),
      impact: isLevel(impact) ? impact : null,
      severity: isLevel(severity) ? severity : null,
      tier: isTierLevel(tier) ? tier : null,
    });
  }

  return (
    <Modal opened onClose={onCancel} title={`Edit ticket #${ticket.ticketId}`} size="lg" centered>
      <form aria-label="Edit ticket" onSubmit={handleSubmit} noValidate>
        <Stack>
          {choices === null && !isLoading && (
            <Alert color="yellow">The ticket&apos;s board is not configured, so its types and priorities cannot be offered.</Alert>
          )}
          <TextInput label="Title" value={title} onChange={(event) => setTitle(event.currentTarget.value)} error={titleError} maxLength={100} required />
          <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} rows={4} resize="vertical" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label="Type" value={typeId} onChange={(event) => handleTypeChange(event.currentTarget.value)} data={options(types, isLoading ? 'Loading…' : 'No type')} />
            <NativeSelect label="Subtype" value={subtypeId} onChange={(event) => handleSubtypeChange(event.currentTarget.value)} data={options(subtypes, 'No subtype')} />
            <NativeSelect label="Priority" value={priorityId} onChange={(event) => setPriorityId(event.currentTarget.value)} data={options(choices?.priorities ?? [], 'No priority')} />
            <NativeSelect label="Status" value={statusId} onChange={(event) => setStatusId(event.currentTarget.value)} data={options(statuses, 'No status')} />
            <NativeSelect label="Impact" value={impact} onChange={(event) => setImpact(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Severity" value={severity} onChange={(event) => setSeverity(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Tier" value={tier} onChange={(event) => setTier(event.currentTarget.value)} data={QUEUE_TIER_OPTIONS} />
          </SimpleGrid>
          {error !== null && (
            <Alert color="red" role="alert" title="Not saved">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={isSaving}>
              Save ticket
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
