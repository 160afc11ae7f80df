import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  BATCH_SYNC_INITIAL_WAIT_MS,
  BATCH_SYNC_POLL_MS,
  batchSyncRangeProblem,
  isBatchSyncSettled,
  isBatchSyncSuccessful,
  MESSAGE_CLEAR_MS,
  MESSAGES,
  type TBatchStatus,
} from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useClearingState } from '../../../lib/use-clearing-state';
import { fetchBatchStatus, useStartBoardSync, useSyncBoards } from '../api/sync-queries';
import { useQueueSettings } from '../../boards/api/boards-queries';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** "1 board", "35 boards". */
const counted = (count: number, noun: string) => `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;

/** Phase 1 (reading the boards) in plain words: "Boards: 3 boards read". */
function boardsLine(phase: TBatchStatus['phase1']): string {
  switch (phase.status) {
    case 'QUEUED':
      return 'Boards: waiting to start';
    case 'RUNNING':
      return `Boards: reading (${counted(phase.processed, 'board')} so far)`;
    case 'COMPLETED':
      return `Boards: ${counted(phase.processed, 'board')} read`;
    case 'FAILED':
      return `Boards: stopped after ${counted(phase.processed, 'board')}`;
  }
}

/** Phase 2 (copying the tickets) in plain words; absent until the boards are read, and for good if that failed. */
function ticketsLine(status: TBatchStatus): string {
  const phase = status.phase2;
  if (!phase) return status.phase1.status === 'FAILED' ? 'Tickets: not copied' : 'Tickets: waiting for the boards';
  switch (phase.status) {
    case 'QUEUED':
      return 'Tickets: waiting to start';
    case 'RUNNING':
      return `Tickets: copying (${counted(phase.processed, 'ticket')} so far)`;
    case 'COMPLETED':
      return `Tickets: ${counted(phase.processed, 'ticket')} copied`;
    case 'FAILED':
      return `Tickets: stopped after ${counted(phase.processed, 'ticket')}`;
  }
}

/** 01 §4 "Batch board sync": idle, syncing (request sent), started (initial wait), polling. */
export type TSyncState = 'idle' | 'syncing' | 'started' | 'polling';

/** The sync screen (01 §2): a date range and a board choice; polls A-033 after 10 s, then every 45 s. */
export function BoardSyncScreen({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Sync boards and tickets');
  const boards = useSyncBoards(mspCustomDomain);
  const startSync = useStartBoardSync(mspCustomDomain);
  // The server counts the dates as the MSP's days, in the queue settings' time zone (UTC until an admin picks one).
  const timeZone = useQueueSettings(mspCustomDomain).data?.settings.timeZone;
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [boardIds, setBoardIds] = useState<string[]>([]);
  const [syncState, setSyncState] = useState<TSyncState>('idle');
  // success and error messages clear after 5 seconds.
  const [message, setMessage] = useClearingState<{ kind: 'success' | 'error'; text: string }>(MESSAGE_CLEAR_MS);
  const [status, setStatus] = useState<TBatchStatus | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  /** One status read after `delayMs`; reschedules itself every 45 s until R-209 says stop. */
  const poll = (parentRunId: string, delayMs: number) => {
    timer.current = setTimeout(() => {
      setSyncState('polling');
      fetchBatchStatus(parentRunId)
        .then((next) => {
          setStatus(next);
          if (!isBatchSyncSettled(next)) return poll(parentRunId, BATCH_SYNC_POLL_MS);
          setSyncState('idle');
          // the finished toast only when phase 1 COMPLETED and phase 2 COMPLETED or absent.
          if (isBatchSyncSuccessful(next)) notifications.show({ color: 'green', message: MESSAGES.batchSync.finished });
          else setMessage({ kind: 'error', text: next.phase2?.error ?? next.phase1.error ?? MESSAGES.batchSync.syncedFailed });
        })
        .catch(() => {
          setMessage({ kind: 'error', text: MESSAGES.batchSync.statusFailed });
          poll(parentRunId, BATCH_SYNC_POLL_MS);
        });
    }, delayMs);
  };

  const handleSync = () => {
    const ids = boardIds.map(Number);
    const problem = batchSyncRangeProblem({ startDate, endDate, boardIds: ids });
    if (problem) {
      setMessage({ kind: 'error', text: problem });
      return;
    }
    setSyncState('syncing');
    startSync.mutate(
      { psaType: 'CONNECTWISE', boardIds: ids, startDate, endDate },
      {
        onSuccess: ({ parentRunId }) => {
          setMessage({ kind: 'success', text: MESSAGES.batchSync.started.replace('{id}', parentRunId) });
          setSyncState('started');
          // a 10-second initial wait (initializing), then a poll every 45 seconds.
          poll(parentRunId, BATCH_SYNC_INITIAL_WAIT_MS);
        },
        onError: (error) => {
          setSyncState('idle');
          setMessage({ kind: 'error', text: isApiError(error) && error.detail ? error.detail : MESSAGES.batchSync.startFailed });
        },
      },
    );
  };

  return (
    // Inside the dashboard shell, whose main area gives the padding (as for the other admin screens).
    <Stack maw={640} component="section" aria-labelledby="board-sync-title">
      <Title order={1} size="h2" id="board-sync-title">
        Sync boards and tickets
      </Title>
      <Group grow>
        <TextInput type="date" label="Start date" value={startDate} onChange={(event) => setStartDate(event.currentTarget.value)} />
        <TextInput type="date" label="End date" value={endDate} onChange={(event) => setEndDate(event.currentTarget.value)} />
      </Group>
      {timeZone !== undefined && (
        <Text size="sm" c="dimmed">
          {MESSAGES.batchSync.daysIn(timeZone.replaceAll('_', ' '))}
        </Text>
      )}
      {boards.isError && (
        <Alert color="red" role="alert">
          {isApiError(boards.error) && boards.error.detail ? boards.error.detail : MESSAGES.unexpectedError}
        </Alert>
      )}
      <MultiSelect
        label="Boards"
        data={(boards.data ?? []).map((board) => ({ value: String(board.id), label: board.name }))}
        value={boardIds}
        onChange={setBoardIds}
        searchable
      />
      <Group>
        <Button onClick={handleSync} loading={syncState === 'syncing'} disabled={syncState !== 'idle'}>
          Sync
        </Button>
        {syncState === 'started' && <Text size="sm">Initializing…</Text>}
        {syncState === 'polling' && <Text size="sm">Syncing…</Text>}
      </Group>
      {message && (
        <Alert color={message.kind === 'success' ? 'green' : 'red'} role={message.kind === 'success' ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      {status && (
        <Text size="sm" data-testid="sync-status">
          {boardsLine(status.phase1)} · {ticketsLine(status)}
        </Text>
      )}
    </Stack>
  );
}
