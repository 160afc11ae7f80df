import { useState } from 'react';
import type { Ref } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, SegmentedControl, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { NOTE_CATEGORIES, NOTE_KIND_LABELS } from '../queue-types';
import type { TNoteCategory, TNoteDraft, TTicketNote } from '../queue-types';
import { formatWhen } from '../../../lib/format-when';

type TNotesPanelProps = {
  ticketNumber: number;
  notes: readonly TTicketNote[];
  isLoading: boolean;
  loadError: string | null;
  /** Sends the note; rejects with a message the panel shows. */
  onAdd: (text: string, category: TNoteCategory) => Promise<void>;
  textareaRef?: Ref<HTMLTextAreaElement>;
  /** What was being written on this ticket before the technician left it. */
  initialDraft?: TNoteDraft;
  /** Every change of the text or category, so the ticket's draft outlives the panel. */
  onDraftChange?: (draft: TNoteDraft) => void;
};

const CATEGORY_COLORS: Record<TNoteCategory, string> = { Description: 'blue', Internal: 'gray', Resolution: 'green' };

/** Notes by category: empty notes are not sent; a failed send puts the text back. */
export function NotesPanel({ ticketNumber, notes, isLoading, loadError, onAdd, textareaRef, initialDraft, onDraftChange }: TNotesPanelProps) {
  const [text, setText] = useState(initialDraft?.text ?? '');
  const [category, setCategory] = useState<TNoteCategory>(initialDraft?.category ?? 'Internal');
  const [isSending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function changeText(value: string) {
    setText(value);
    onDraftChange?.({ text: value, category });
  }

  function changeCategory(value: TNoteCategory) {
    setCategory(value);
    onDraftChange?.({ text, category: value });
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = text;
    if (note.trim() === '') return;
    setError(null);
    setSending(true);
    changeText('');
    try {
      await onAdd(note, category);
    } catch (cause) {
      // the technician's words are not lost (kept with their ticket even if the technician moved on).
      changeText(note);
      setError(cause instanceof Error ? cause.message : 'The note was not added.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="notes-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="notes-title">
          Notes
        </Title>
        <form onSubmit={(event) => void handleSubmit(event)} aria-label={`Add a note to ticket #${ticketNumber}`}>
          <Stack gap="xs">
            <SegmentedControl
              aria-label="Note category"
              value={category}
              onChange={changeCategory}
              data={NOTE_CATEGORIES.map((value) => ({ value, label: value }))}
              fullWidth
            />
            <Textarea
              ref={textareaRef}
              label="New note"
              placeholder={`Write ${category === 'Internal' ? 'an' : 'a'} ${category.toLowerCase()} note`}
              rows={3}
              resize="vertical"
              value={text}
              onChange={(event) => changeText(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
              }}
            />
            {error !== null && (
              <Alert color="red" role="alert" title="Note not added">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={isSending} disabled={text.trim() === ''}>
                Add {category} note
              </Button>
            </Group>
          </Stack>
        </form>
        {isLoading ? (
          <Loader size="sm" aria-label="Loading notes" />
        ) : loadError !== null ? (
          <Text c="red" size="sm">
            {loadError}
          </Text>
        ) : notes.length === 0 ? (
          <Text c="dimmed" size="sm">
            No notes yet.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Ticket notes">
            {notes.map((note) => (
              <Paper key={note.id} component="li" withBorder p="xs" bg="var(--mantine-color-gray-0)">
                <Group gap="xs" mb={4}>
                  <Badge size="sm" variant="light" color={CATEGORY_COLORS[NOTE_KIND_LABELS[note.kind]]}>
                    {NOTE_KIND_LABELS[note.kind]}
                  </Badge>
                  {note.psa.status === 'pending' && (
                    <Tooltip label={note.psa.message ?? MESSAGES.queue.psaPending} withArrow multiline w={260}>
                      <Badge size="sm" variant="light" color="yellow">
                        Pending in the PSA
                      </Badge>
                    </Tooltip>
                  )}
                  {note.psa.status === 'failed' && (
                    <Tooltip label={note.psa.message ?? 'The PSA refused this note.'} withArrow multiline w={260}>
                      <Badge size="sm" variant="light" color="red">
                        Not in the PSA
                      </Badge>
                    </Tooltip>
                  )}
                  <Text size="xs" c="dimmed">
                    {formatWhen(note.createdAt)}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {note.text}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
