import { useState } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { QUEUE_TIER_OPTIONS, isTierLevel } from '../../../lib/tier-labels';
import type { TBoardChoices, TChoice } from '../lib/board-choices';
import type { TUpdateTicketBody } from '@switchboard/contracts';
import type { TQueueTicketView } from '../queue-types';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

const LEVELS = ['Low', 'Medium', 'High'] as const;
type TLevel = (typeof LEVELS)[number];
const isLevel = (value: string): value is TLevel => (LEVELS as readonly string[]).includes(value);

type TEditTicketModalProps = {
  ticket: TQueueTicketView;
  choices: TBoardChoices | null;
  statuses: readonly TChoice[];
  /** The board's choices or statuses are still loading: nothing is saved until the form shows them. */
  isLoading: boolean;
  /** Why some choices could not be loaded, in plain words; the fields they fill stay as they are. */
  loadError: string | null;
  isSaving: boolean;
  error: string | null;
  onSave: (edit: TUpdateTicketBody) => void;
  onCancel: () => void;
};

const NONE = '';
const options = (items: readonly TChoice[], noneLabel: string) => [{ value: NONE, label: noneLabel }, ...items.map((item) => ({ value: item.id, label: item.name }))];

/** Edit ticket (02 §4): categories, priorities and statuses of the ticket's board; cancel discards the edits. */
export function EditTicketModal({ ticket, choices, statuses, isLoading, loadError, isSaving, error, onSave, onCancel }: TEditTicketModalProps) {
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
  const [hasTriedEmptySave, setTriedEmptySave] = useState(false);

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

  const nameOf = (items: readonly TChoice[], id: string) => (id === NONE ? null : (items.find((item) => item.id === id)?.name ?? null));
  const idOf = (id: string) => (id === NONE ? null : Number(id));
  // Only what the technician changed is sent (every A-112 field is optional). Sending the whole form wrote back
  // what it could not fill: a status whose list had not loaded went with a blank name and blanked the ticket's.
  const changes: TUpdateTicketBody = {
    ...(title.trim() !== ticket.title ? { title: title.trim() } : {}),
    ...(description.trim() !== (ticket.description ?? '').trim() ? { description: description.trim() } : {}),
    ...(typeId !== idText(ticket.categoryId) ? { categoryId: idOf(typeId), categoryName: nameOf(types, typeId) } : {}),
    ...(subtypeId !== idText(ticket.subCategoryId) ? { subCategoryId: idOf(subtypeId), subCategoryName: nameOf(subtypes, subtypeId) } : {}),
    ...(priorityId !== idText(ticket.priorityId) ? { priorityId: idOf(priorityId), priority: nameOf(choices?.priorities ?? [], priorityId) } : {}),
    ...(statusId !== idText(ticket.statusId) ? { statusId: idOf(statusId), status: nameOf(statuses, statusId) } : {}),
    ...(impact !== (ticket.impact ?? 'Medium') ? { impact: isLevel(impact) ? impact : null } : {}),
    ...(severity !== (ticket.severity ?? 'Medium') ? { severity: isLevel(severity) ? severity : null } : {}),
    ...(tier !== ticket.tier ? { tier: isTierLevel(tier) ? tier : null } : {}),
  };
  const hasChanges = Object.keys(changes).length > 0;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (titleError !== null || isLoading) return;
    if (!hasChanges) {
      setTriedEmptySave(true);
      return;
    }
    onSave(changes);
  }

  return (
    <Modal opened onClose={onCancel} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Edit ticket #${ticket.ticketId}`} size="lg" centered>
      <form aria-label="Edit ticket" onSubmit={handleSubmit} noValidate>
        <Stack>
          {choices === null && !isLoading && (
            <Alert color="yellow">The ticket&apos;s board is not configured, so its types and priorities cannot be offered.</Alert>
          )}
          {loadError !== null && <Alert color="yellow">{loadError}</Alert>}
          <TextInput label="Title" value={title} onChange={(event) => setTitle(event.currentTarget.value)} error={titleError} maxLength={100} required />
          <Textarea label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} rows={4} resize="vertical" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label="Type" value={typeId} onChange={(event) => handleTypeChange(event.currentTarget.value)} data={options(types, isLoading ? 'Loading…' : 'No type')} />
            <NativeSelect label="Subtype" value={subtypeId} onChange={(event) => handleSubtypeChange(event.currentTarget.value)} data={options(subtypes, 'No subtype')} />
            <NativeSelect label="Priority" value={priorityId} onChange={(event) => setPriorityId(event.currentTarget.value)} data={options(choices?.priorities ?? [], 'No priority')} />
            <NativeSelect
              label="Status"
              value={statusId}
              onChange={(event) => setStatusId(event.currentTarget.value)}
              // Without its board's list the status cannot be chosen; the ticket keeps its own.
              disabled={statuses.length === 0 && !isLoading}
              data={statuses.length === 0 ? [{ value: statusId, label: isLoading ? 'Loading…' : (ticket.status ?? 'No status') }] : options(statuses, 'No status')}
            />
            <NativeSelect label="Impact" value={impact} onChange={(event) => setImpact(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Severity" value={severity} onChange={(event) => setSeverity(event.currentTarget.value)} data={[...LEVELS]} />
            <NativeSelect label="Tier" value={tier} onChange={(event) => setTier(event.currentTarget.value)} data={QUEUE_TIER_OPTIONS} />
          </SimpleGrid>
          {hasTriedEmptySave && !hasChanges && (
            <Text size="sm" c="dimmed" role="status">
              {MESSAGES.queue.nothingToUpdate}
            </Text>
          )}
          {error !== null && (
            <Alert color="red" role="alert" title="Not saved">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={isSaving} disabled={isLoading}>
              Save ticket
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
