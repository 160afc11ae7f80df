import { useState } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import type { TBoardChoices, TChoice } from '../lib/board-choices';
import type { TQueueTicketView } from '../queue-types';

/** A-112's body: what the edit form sends (R-328, R-329). */
export type TTicketEdit = {
  title: string;
  description: string;
  categoryId: string | null;
  categoryName: string | null;
  subCategoryId: string | null;
  subCategoryName: string | null;
  priorityId: string | null;
  priority: string | null;
  statusId: string | null;
  status: string | null;
  impact: string;
  severity: string;
  tier: string;
};

const LEVELS = ['Low', 'Medium', 'High'] as const;
const TIERS = [
  { value: 'Tier1', label: 'Tier1' },
  { value: 'Tier2', label: 'Tier2' },
  { value: 'Tier3', label: 'Tier3' },
  { value: 'NoTier', label: 'No Dispatching' },
];

type TEditTicketModalProps = {
  ticket: TQueueTicketView;
  choices: TBoardChoices | null;
  statuses: readonly TChoice[];
  isLoading: boolean;
  isSaving: boolean;
  error: string | null;
  onSave: (edit: TTicketEdit) => void;
  onCancel: () => void;
};

const NONE = '';
const options = (items: readonly TChoice[], noneLabel: string) => [{ value: NONE, label: noneLabel }, ...items.map((item) => ({ value: item.id, label: item.name }))];

/** Edit ticket (02 §4): categories, priorities and statuses of the ticket's board; cancel discards the edits. */
export function EditTicketModal({ ticket, choices, statuses, isLoading, isSaving, error, onSave, onCancel }: TEditTicketModalProps) {
  const [title, setTitle] = useState(ticket.title);
  const [description, setDescription] = useState(ticket.description ?? '');
  const [typeId, setTypeId] = useState(ticket.categoryId ?? NONE);
  const [subtypeId, setSubtypeId] = useState(ticket.subCategoryId ?? NONE);
  const [priorityId, setPriorityId] = useState(ticket.priorityId ?? NONE);
  const [statusId, setStatusId] = useState(ticket.statusId ?? NONE);
  const [impact, setImpact] = useState(ticket.impact ?? 'Medium');
  const [severity, setSeverity] = useState(ticket.severity ?? 'Medium');
  const [tier, setTier] = useState(ticket.tier ?? 'Tier1');

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
    onSave({
      title: title.trim(),
      description,
      categoryId: typeId === NONE ? null : typeId,
      categoryName: nameOf(types, typeId),
      subCategoryId: subtypeId === NONE ? null : subtypeId,
      subCategoryName: nameOf(subtypes, subtypeId),
      priorityId: priorityId === NONE ? null : priorityId,
      priority: nameOf(choices?.priorities ?? [], priorityId),
      statusId: statusId === NONE ? null : statusId,
      status: nameOf(statuses, statusId),
      impact,
      severity,
      tier,
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
          <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} autosize minRows={3} maxRows={10} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label="Type" value={typeId} onChange={(event) => handleTypeChange(event.currentTarget.value)} data={options(types, isLoading ? 'Loading…' : 'No type')} />
            <NativeSelect label="Subtype" value={subtypeId} onChange={(event) => handleSubtypeChange(event.currentTarget.value)} data={options(subtypes, 'No subtype')} />
            <NativeSelect label="Priority" value={priorityId} onChange={(event) => setPriorityId(event.currentTarget.value)} data={options(choices?.priorities ?? [], 'No priority')} />
            <NativeSelect label="Status" value={statusId} onChange={(event) => setStatusId(event.currentTarget.value)} data={options(statuses, 'No status')} />
            <NativeSelect label="Impact" value={impact} onChange={(event) => setImpact(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Severity" value={severity} onChange={(event) => setSeverity(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Tier" value={tier} onChange={(event) => setTier(event.currentTarget.value)} data={TIERS} />
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
