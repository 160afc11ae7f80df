import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, NumberInput, Select, SimpleGrid, Switch, Text } from '@mantine/core';
import { MESSAGES, type TQueueSettings } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { useQueueSettings, useSaveQueueSettings } from '../api/boards-queries';
import { BoardCard } from './board-card';
import { useBoardOutcome } from './use-board-outcome';

type TNumberField = Exclude<keyof TQueueSettings, 'releaseOnSignOut' | 'timeZone'>;
/** The form's values: a number field may be empty (or half-typed) while the admin edits it. */
type TDraft = Omit<TQueueSettings, TNumberField> & Record<TNumberField, number | string>;

/** The number fields with their ranges (the contracts' ZQueueSettings) and what each does, in plain words. */
const NUMBER_FIELDS: { key: TNumberField; label: string; description: string; min: number; max: number }[] = [
  { key: 'priorityWeight', label: 'Priority weight', description: 'How much a ticket’s priority score moves it up.', min: 0, max: 100 },
  { key: 'subtypeWeight', label: 'Subtype weight', description: 'How much its subtype score moves it up.', min: 0, max: 100 },
  { key: 'slaWeight', label: 'SLA weight', description: 'How much less SLA time left moves it up.', min: 0, max: 100 },
  { key: 'ageWeight', label: 'Age weight', description: 'How much each hour of waiting moves it up.', min: 0, max: 100 },
  { key: 'rejectCooldownMinutes', label: 'Rejected ticket comes back after (minutes)', description: 'Not offered again to the technician who handed it back.', min: 1, max: 10_080 },
  { key: 'idleReleaseMinutes', label: 'Release unstarted tickets after idle (minutes)', description: '0 keeps them with the technician.', min: 0, max: 1_440 },
];

/** The time zones this browser knows (IANA names), UTC first. */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/**
 * The queue's ordering (DESIGN §8) on the Board screen: score = priority weight × priority score + subtype weight ×
 * subtype score − SLA weight × hours of SLA left + age weight × hours waiting; and when claimed tickets go back.
 * Everyone who opens the Board screen may read them; only `canEdit` (adminPortal, which the save needs) may change them.
 */
export function QueueSettingsCard({ msp, canEdit, onUnsavedChange }: { msp: string; canEdit: boolean; onUnsavedChange?: (isUnsaved: boolean) => void }) {
  const settings = useQueueSettings(msp);
  const save = useSaveQueueSettings(msp);
  // null: follow the saved settings; otherwise the admin's unsaved edit.
  const [draft, setDraft] = useState<TDraft | null>(null);
  const [outcome, setOutcome] = useBoardOutcome();
  const [missing, setMissing] = useState<ReadonlySet<TNumberField>>(new Set());

  const saved = settings.data?.settings;
  const shown: TDraft | undefined = draft ?? saved;
  const isChanged = draft !== null && saved !== undefined && (NUMBER_FIELDS.some(({ key }) => draft[key] !== saved[key]) || draft.releaseOnSignOut !== saved.releaseOnSignOut || draft.timeZone !== saved.timeZone);
  // The screen asks before it is left while the ordering has an unsaved change.
  useEffect(() => onUnsavedChange?.(isChanged), [isChanged, onUnsavedChange]);

  async function handleSave() {
    if (!draft) return;
    const empty = NUMBER_FIELDS.filter(({ key }) => typeof draft[key] !== 'number').map(({ key }) => key);
    setMissing(new Set(empty));
    if (empty.length > 0) return;
    // Every number field holds a number now (checked just above).
    const toSave = { ...draft } as TQueueSettings;
    try {
      await save.mutateAsync(toSave);
      setDraft(null);
      setOutcome({ color: 'green', message: MESSAGES.queue.settingsSaved });
    } catch (error) {
      // The edit stays on screen, so nothing typed is lost.
      setOutcome({ color: 'red', message: isApiError(error) && error.code !== 'network' && error.code !== 'internal' ? error.detail : MESSAGES.queue.settingsFailed });
    }
  }

  return (
    <BoardCard
      id="queue-settings-title"
      title="Queue ordering"
      intro="Technicians get the highest-scoring tickets of their tier first. Each ticket scores its priority and subtype scores times their weights, plus its waiting time, and rises as its SLA runs out. The rules below decide when claimed tickets go back to the queue and when a timer needs confirming."
    >
      {settings.isPending && <Loader size="sm" aria-label="Loading queue ordering" />}
      {settings.isError && (
        <Alert color="red" role="alert" variant="light">
          {errorDetail(settings.error)}
        </Alert>
      )}
      {shown && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {NUMBER_FIELDS.map((field) => (
              <NumberInput
                key={field.key}
                label={field.label}
                description={field.description}
                min={field.min}
                max={field.max}
                allowDecimal={!field.key.endsWith('Minutes')}
                allowNegative={false}
                clampBehavior="strict"
                readOnly={!canEdit}
                value={shown[field.key]}
                error={missing.has(field.key) ? `Enter a number from ${field.min} to ${field.max}.` : undefined}
                onChange={(value) => setDraft({ ...shown, [field.key]: value })}
              />
            ))}
            <Select
              label="Time zone of the working day"
              description="A timer left running past midnight here is flagged for the technician to confirm."
              searchable
              readOnly={!canEdit}
              allowDeselect={false}
              data={TIME_ZONES.includes(shown.timeZone) ? TIME_ZONES : [shown.timeZone, ...TIME_ZONES]}
              value={shown.timeZone}
              nothingFoundMessage="No time zone has that name"
              // Some 400 zones: rendered only while the list is open, not hidden on the page (and re-rendered) all the time.
              comboboxProps={{ keepMounted: false }}
              onChange={(value) => value !== null && setDraft({ ...shown, timeZone: value })}
            />
          </SimpleGrid>
          <Group justify="space-between" mt="sm" gap="sm">
            <Switch
              label="Release unstarted tickets when a technician signs out"
              checked={shown.releaseOnSignOut}
              disabled={!canEdit}
              onChange={(event) => setDraft({ ...shown, releaseOnSignOut: event.currentTarget.checked })}
            />
            {canEdit ? (
              <Group gap="xs">
                {isChanged && (
                  <Button
                    variant="default"
                    onClick={() => {
                      setDraft(null);
                      setMissing(new Set());
                    }}
                  >
                    Cancel
                  </Button>
                )}
                <Button onClick={() => void handleSave()} loading={save.isPending} disabled={!isChanged}>
                  Save queue ordering
                </Button>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                Changing the queue ordering needs the Admin portal permission in your role.
              </Text>
            )}
          </Group>
        </>
      )}
      {outcome && (
        <Alert mt="xs" color={outcome.color} role={outcome.color === 'red' ? 'alert' : 'status'} variant="light">
          {outcome.message}
        </Alert>
      )}
    </BoardCard>
  );
}
