import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, Pagination, Progress, Stack, Table, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { ReadableBadge } from '../../../components/readable-badge';
import { isApiError, type ApiError } from '../../../lib/api-client';
import { describeSkipped, saveSelectedRows, useProgressiveImport, type TImportKind, type TImportRow } from '../api/progressive-import';

const PAGE_ROWS = 50;

/** Selection as "these ids", or "all except these": select-all never lists every id. */
type TSelection = { mode: 'some'; ids: Set<number> } | { mode: 'all'; except: Set<number> };

export interface TImportPanelProps<K extends TImportKind> {
  mspCustomDomain: string;
  kind: K;
  /** Told after a save (the wizard completes its step 4 or 5): rows saved, and rows the server would not save. */
  onSaved?: (saved: number, notSaved: number) => void;
  /** Words for a problem where the panel stands (the wizard explains refused keys its own way); default the server's detail. */
  describeError?: (error: ApiError) => string;
}

function describe(kind: TImportKind, row: TImportRow<TImportKind>): string {
  if (kind === 'clients') return (row as TImportRow<'clients'>).name;
  const contact = row as TImportRow<'contacts'>;
  return `${contact.firstName} ${contact.lastName}${contact.email ? ` <${contact.email}>` : ''}`;
}

const byDetail = (error: ApiError) => error.detail;

/** R-365: a company the MSP has already saved (the clients stream says so; contacts rows carry no such flag). */
const isAlreadySaved = (row: TImportRow<TImportKind>): boolean => 'isAlreadySaved' in row && row.isAlreadySaved === true;
/** Inactive or deleted in the PSA: listed (a save marks a stored copy inactive) but never offered as new (review s29). */
const isNewAndActive = (row: TImportRow<TImportKind>): boolean => row.isActive && !isAlreadySaved(row);

/** "Stopped at 250 of 1,000. Resume to load the rest." in the counts the screen shows. */
function stoppedText(loaded: number, total: number | null): string {
  const text = total === null ? MESSAGES.imports.stoppedAtNoTotal : MESSAGES.imports.stoppedAt.replace('{total}', total.toLocaleString());
  return text.replace('{loaded}', loaded.toLocaleString());
}

/**
 * Loads clients or contacts progressively with a progress bar, counts, cancel and resume; a paged list with select-all;
 * saves in batches.
 */
export function ImportPanel<K extends TImportKind>({ mspCustomDomain, kind, onSaved, describeError = byDetail }: TImportPanelProps<K>) {
  const { state, start, cancel, resume, markSaved } = useProgressiveImport(mspCustomDomain, kind);
  const [page, setPage] = useState(1);
  const [selection, setSelection] = useState<TSelection>({ mode: 'some', ids: new Set() });
  const [saveMessage, setSaveMessage] = useState<string | null>(null);
  /** Rows the server would not save, in words: a warning of its own, not a line beside the button. */
  const [notSavedMessage, setNotSavedMessage] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const isSelected = (id: number) => (selection.mode === 'all' ? !selection.except.has(id) : selection.ids.has(id));
  const selectedCount = selection.mode === 'all' ? state.rows.length - selection.except.size : selection.ids.size;
  const pageRows = useMemo(() => state.rows.slice((page - 1) * PAGE_ROWS, page * PAGE_ROWS), [state.rows, page]);
  // "Select new only" when some rows are not new: saved before, or inactive in the PSA.
  const hasRowsNotNew = useMemo(() => state.rows.some((row) => !isNewAndActive(row)), [state.rows]);

  const toggle = (id: number) =>
    setSelection((current) => {
      const set = new Set(current.mode === 'all' ? current.except : current.ids);
      if (set.has(id)) set.delete(id);
      else set.add(id);
      return current.mode === 'all' ? { mode: 'all', except: set } : { mode: 'some', ids: set };
    });

  const handleSave = async () => {
    setIsSaving(true);
    setSaveMessage(null);
    setNotSavedMessage(null);
    try {
      const chosen = state.rows.filter((row) => isSelected(row.id));
      const { saved, skipped } = await saveSelectedRows(mspCustomDomain, kind, chosen, state.importJobId);
      const notSaved = new Set(skipped.map((row) => row.id));
      markSaved(new Set(chosen.flatMap((row) => (notSaved.has(row.id) ? [] : [row.id]))));
      setSaveMessage(MESSAGES.imports.saved.replace('{count}', saved.toLocaleString()));
      setNotSavedMessage(skipped.length > 0 ? describeSkipped(skipped) : null);
      onSaved?.(saved, skipped.length);
    } catch (error) {
      setSaveMessage(isApiError(error) ? describeError(error) : MESSAGES.imports.saveFailed);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <Stack gap="sm">
      <Group>
        {/* A stopped load, or one that failed partway (beside its error below), carries on from the last row held. */}
        {state.isResumable && <Button onClick={() => void resume()}>Resume</Button>}
        <Button variant={state.isResumable ? 'default' : 'filled'} onClick={start} loading={state.isLoading} disabled={state.isLoading}>
          {state.rows.length > 0 ? 'Load again' : kind === 'clients' ? 'Load clients' : 'Load contacts'}
        </Button>
        {state.isLoading && (
          <Button variant="default" onClick={() => void cancel()}>
            Cancel
          </Button>
        )}
      </Group>
      {(state.isLoading || state.isComplete || state.rows.length > 0) && (
        <Stack gap={4}>
          <Progress value={state.progressPercentage} aria-label="Loading progress" />
          <Text size="sm" c="dimmed">
            {state.rows.length.toLocaleString()} loaded{state.total !== null ? ` of ${state.total.toLocaleString()}` : ''} · page {state.currentPage} · {selectedCount.toLocaleString()} selected
          </Text>
        </Stack>
      )}
      {state.isResuming && (
        <Alert color="yellow" role="status">
          {MESSAGES.imports.resuming}
        </Alert>
      )}
      {state.isStopped && (
        <Alert color="blue" role="status">
          {stoppedText(state.rows.length, state.total)}
        </Alert>
      )}
      {state.error && <Alert color="red">{describeError(state.error)}</Alert>}
      {state.rows.length > 0 && (
        <>
          <Group>
            <Button size="xs" variant="light" onClick={() => setSelection({ mode: 'all', except: new Set() })}>
              Select all
            </Button>
            {hasRowsNotNew && (
              <Button size="xs" variant="light" onClick={() => setSelection({ mode: 'some', ids: new Set(state.rows.flatMap((row) => (isNewAndActive(row) ? [row.id] : []))) })}>
                Select new only
              </Button>
            )}
            <Button size="xs" variant="subtle" onClick={() => setSelection({ mode: 'some', ids: new Set() })}>
              Clear
            </Button>
          </Group>
          <Table striped>
            <Table.Tbody>
              {pageRows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td w={40}>
                    <Checkbox aria-label={`Select ${describe(kind, row)}`} checked={isSelected(row.id)} onChange={() => toggle(row.id)} />
                  </Table.Td>
                  {/* A long e-mail address wraps rather than widening the page on a phone. */}
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{describe(kind, row)}</Table.Td>
                  {/* As wide as its badges: a fixed 80 px cut "Saved" to "SAV…" (visual review s29). */}
                  <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
                    <Group gap={4} wrap="nowrap" justify="flex-end" style={{ minWidth: 'max-content' }}>
                      {isAlreadySaved(row) ? <ReadableBadge color="green" title="Saved before: saving it again updates it">Saved</ReadableBadge> : null}
                      {row.isActive ? null : <ReadableBadge color="gray" title="Inactive or deleted in the PSA">Inactive</ReadableBadge>}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Pagination total={Math.max(1, Math.ceil(state.rows.length / PAGE_ROWS))} value={page} onChange={setPage} />
          <Group>
            <Button onClick={() => void handleSave()} loading={isSaving} disabled={selectedCount === 0 || state.isLoading}>
              Save {selectedCount.toLocaleString()} selected
            </Button>
            {saveMessage && <Text size="sm">{saveMessage}</Text>}
          </Group>
          {notSavedMessage && (
            <Alert color="yellow" role="status">
              {notSavedMessage}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
