import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Grid, Group, Loader, NavLink, Paper, ScrollArea, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES, boardSaveProblems, type TEditableBoard, type TPsaType } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';
import { useMergedBoard, usePsaBoards, useReloadMergedBoard, useSaveBoard, useTicketingConfiguration } from '../api/boards-queries';
import { BoardEditor } from '../components/board-editor';
import { editableFromView, savedBoardFrom, type TBoardSaveState } from '../components/board-editor-state';
import { CreateBoardModal } from '../components/create-board-modal';
import { DefaultCompanyCard } from '../components/default-company-card';
import { LeaveBoardModal, type TNotSavedPart } from '../components/leave-board-modal';
import { QueueSettingsCard } from '../components/queue-settings-card';
import { failedSaveState, IDLE_SAVE_STATE, useBoardSaveStates } from '../components/use-board-save-states';
import { useSessionUser } from '../../session/api/session-queries';
import { useDocumentTitle } from '../../../lib/use-document-title';

const FILTERS = [
  { value: 'all', label: 'All boards' },
  { value: 'configured', label: 'Configured' },
  { value: 'not-configured', label: 'Not configured' },
  { value: 'unsaved', label: 'Unsaved changes' },
] as const;
type TFilter = (typeof FILTERS)[number]['value'];

function SelectedBoard({
  msp,
  boardId,
  draft,
  isUnsaved,
  saveState,
  onChange,
  onSave,
  onDiscard,
  onReload,
}: {
  msp: string;
  boardId: number;
  draft: TEditableBoard | undefined;
  isUnsaved: boolean;
  saveState: TBoardSaveState;
  onChange: (board: TEditableBoard) => void;
  onSave: (psaType: TPsaType, board: TEditableBoard) => void;
  onDiscard: () => void;
  onReload: () => void;
}) {
  const merged = useMergedBoard(msp, boardId);
  if (merged.isPending) return <Loader aria-label="Loading board" />;
  if (merged.isError) {
    return (
      <Alert color="red" role="alert">
        {errorDetail(merged.error)}
      </Alert>
    );
  }
  // Without a working copy (none yet, or dropped by a save) the editor shows A-030 as it answers now.
  const board = draft ?? editableFromView(merged.data);
  return (
    <BoardEditor msp={msp} merged={merged.data} board={board} isUnsaved={isUnsaved} saveState={saveState} onChange={onChange} onSave={() => onSave(merged.data.psaType, board)} onDiscard={onDiscard} onReload={onReload} />
  );
}

/** Dark text on the light badges: axe found the light variant's green on a selected board below 4.5:1. */
const STATE_BADGE_STYLES = { label: { color: 'var(--mantine-color-dark-7)' } };

/** 01 §2 Board screen: the PSA's boards with search and a filter, and the chosen board's editor. */
export function BoardsPage({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Board');
  const boards = usePsaBoards(mspCustomDomain);
  const configuration = useTicketingConfiguration(mspCustomDomain);
  const saveBoard = useSaveBoard(mspCustomDomain);
  const reloadBoard = useReloadMergedBoard(mspCustomDomain);
  // What the signed-in user may do here beyond boardView (which opens the screen): the server refuses the
  // rest, so those controls are not offered (sync: mspIntegrations; queue ordering: adminPortal).
  const user = useSessionUser();
  const permissions = user?.principal === 'user' ? user.permissions : null;
  const canSync = permissions?.mspIntegrations === true;
  const canChangeQueueOrdering = permissions?.adminPortal === true;
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<TFilter>('all');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [isCreateOpen, setCreateOpen] = useState(false);
  // Each board keeps its own working copy, unsaved flag and save state, also while another is shown.
  const [drafts, setDrafts] = useState<Record<number, TEditableBoard>>({});
  const [unsaved, setUnsaved] = useState<Record<number, boolean>>({});
  // Counts each board's edits, so a save can tell whether the admin typed on while it ran.
  const editCounts = useRef<Record<number, number>>({});
  // success and error clear after 5 seconds.
  const { saveStateOf, showSaveState } = useBoardSaveStates();
  // The cards below keep their own drafts and say whether one is unsaved.
  const [isDefaultCompanyUnsaved, setDefaultCompanyUnsaved] = useState(false);
  const [isQueueOrderingUnsaved, setQueueOrderingUnsaved] = useState(false);
  // What leaving would lose: the boards flagged unsaved (R-165) and the cards' unsaved drafts.
  const notSaved: TNotSavedPart[] = [
    ...Object.entries(unsaved)
      .filter(([, isBoardUnsaved]) => isBoardUnsaved)
      .map(([boardId]) => ({ key: `board-${boardId}`, label: drafts[Number(boardId)]?.boardName ?? `Board ${boardId}` })),
    ...(isDefaultCompanyUnsaved ? [{ key: 'default-company', label: 'Default company' }] : []),
    ...(isQueueOrderingUnsaved ? [{ key: 'queue-ordering', label: 'Queue ordering' }] : []),
  ];
  const leaveGuard = useUnsavedChangesGuard(notSaved.length > 0);

  const configuredIds = useMemo(() => {
    const data = configuration.data;
    const ids = [...(data?.connectWiseConfig?.boardDetails.map((board) => board.boardId) ?? []), ...(data?.autotaskConfigV2?.ticketQueueDetails.map((queue) => queue.queueId) ?? [])];
    return new Set(ids);
  }, [configuration.data]);

  const visibleBoards = (boards.data ?? []).filter((board) => {
    if (search.trim() !== '' && !board.name.toLowerCase().includes(search.trim().toLowerCase())) return false;
    if (filter === 'configured') return configuredIds.has(board.id);
    if (filter === 'not-configured') return !configuredIds.has(board.id);
    if (filter === 'unsaved') return unsaved[board.id] === true;
    return true;
  });

  function handleChange(boardId: number, board: TEditableBoard) {
    editCounts.current[boardId] = (editCounts.current[boardId] ?? 0) + 1;
    setDrafts((current) => ({ ...current, [boardId]: board }));
    setUnsaved((current) => ({ ...current, [boardId]: true }));
  }

  /** Drops the board's working copy and reads it again (Discard changes; Reload board after a stale save). */
  function handleDiscard(boardId: number) {
    editCounts.current[boardId] = (editCounts.current[boardId] ?? 0) + 1;
    setDrafts(({ [boardId]: _dropped, ...rest }) => rest);
    setUnsaved((current) => ({ ...current, [boardId]: false }));
    showSaveState(boardId, IDLE_SAVE_STATE);
    void reloadBoard(boardId);
  }

  async function handleSave(boardId: number, psaType: TPsaType, board: TEditableBoard) {
    const problems = boardSaveProblems(board, psaType);
    if (problems.length > 0) {
      const reasons = [...new Set(problems.map((problem) => problem.reason))];
      showSaveState(boardId, { status: 'error', message: reasons[0] ?? MESSAGES.boards.saveFailed, problems: reasons });
      return;
    }
    showSaveState(boardId, { status: 'saving' });
    const editsAtSave = editCounts.current[boardId] ?? 0;
    try {
      const saved = await saveBoard.mutateAsync({ psaType, board });
      if ((editCounts.current[boardId] ?? 0) === editsAtSave) {
        // Nothing typed meanwhile: the working copy goes and the editor follows A-030 (refetched by the save).
        setDrafts(({ [boardId]: _saved, ...rest }) => rest);
        setUnsaved((current) => ({ ...current, [boardId]: false }));
      } else {
        // Edits typed while the save ran stay, unsaved, and go with the version this save made.
        const version = savedBoardFrom(saved, boardId)?.version;
        setDrafts((current) => {
          const draft = current[boardId];
          return draft && version !== undefined ? { ...current, [boardId]: { ...draft, version } } : current;
        });
      }
      showSaveState(boardId, { status: 'success' });
    } catch (error) {
      showSaveState(boardId, failedSaveState(error, errorDetail(error)));
    }
  }

  const config = configuration.data;
  const psaType: TPsaType | null = config?.psaType ?? null;
  const common = config?.connectWiseConfig ?? config?.autotaskConfigV2;
  const defaultCompany = common?.defaultCompanyId != null && common.defaultCompanyName != null ? { id: common.defaultCompanyId, name: common.defaultCompanyName } : null;

  return (
    <Stack component="section" aria-labelledby="boards-title">
      <Group justify="space-between">
        <Title order={1} size="h2" id="boards-title">
          Board
        </Title>
        <Group gap="sm">
          {/* the sync screen belongs to the board; it reads the PSA, so it is offered once a PSA is connected, to those who may sync. */}
          {psaType !== null && canSync && (
            <Button component={Link} to={`/${mspCustomDomain}/admin/board/sync`} variant="default">
              Sync boards and tickets
            </Button>
          )}
          {/* Autotask queues cannot be created through its API (decisions #17). */}
          {psaType === 'CONNECTWISE' && <Button onClick={() => setCreateOpen(true)}>New board</Button>}
        </Group>
      </Group>
      <CreateBoardModal
        msp={mspCustomDomain}
        isOpen={isCreateOpen}
        onClose={() => setCreateOpen(false)}
        onCreated={(boardId) => {
          setCreateOpen(false);
          setSearch('');
          setFilter('all');
          setSelectedId(boardId);
        }}
      />
      {boards.isError && (
        <Alert color="red" role="alert">
          {errorDetail(boards.error)}
        </Alert>
      )}
      <LeaveBoardModal guard={leaveGuard} notSaved={notSaved} />
      {psaType !== null && <DefaultCompanyCard msp={mspCustomDomain} psaType={psaType} current={defaultCompany} onUnsavedChange={setDefaultCompanyUnsaved} />}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <Paper withBorder p="sm" component="nav" aria-label="Boards">
            <Stack gap="xs">
              <TextInput label="Search boards" placeholder="Board name" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
              <Select label="Filter" data={FILTERS.map((option) => ({ value: option.value, label: option.label }))} value={filter} allowDeselect={false} onChange={(value) => setFilter(value ?? 'all')} />
              {boards.isPending && <Loader size="sm" aria-label="Loading boards" />}
              <ScrollArea.Autosize mah={{ base: 260, md: 560 }} type="auto">
                {visibleBoards.length === 0 && boards.isSuccess ? (
                  <Text size="sm" c="dimmed">
                    No board matches.
                  </Text>
                ) : (
                  visibleBoards.map((board) => (
                    <NavLink
                      key={board.id}
                      component="button"
                      active={board.id === selectedId}
                      onClick={() => setSelectedId(board.id)}
                      label={board.name}
                      aria-current={board.id === selectedId ? 'true' : undefined}
                      description={
                        <Group gap={4} component="span">
                                                    {configuredIds.has(board.id) ? (
                            <Badge size="xs" color="green" variant="light" styles={STATE_BADGE_STYLES} component="span">
                              Configured
                            </Badge>
                          ) : (
                            <Badge size="xs" color="gray" variant="light" styles={STATE_BADGE_STYLES} component="span">
                              Not configured
                            </Badge>
                          )}
                          {unsaved[board.id] && (
                            <Badge size="xs" color="yellow" variant="light" styles={STATE_BADGE_STYLES} component="span">
                              {MESSAGES.boards.unsaved}
                            </Badge>
                          )}
                          {!board.isActive && (
                            <Badge size="xs" color="gray" variant="outline" component="span">
                              Inactive
                            </Badge>
                          )}
                        </Group>
                      }
                    />
                  ))
                )}
              </ScrollArea.Autosize>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          {selectedId === null ? (
            <Paper withBorder p="lg">
              <Text c="dimmed">Choose a board to edit its types, subtypes, priorities, tiers and SLA.</Text>
            </Paper>
          ) : (
            <SelectedBoard
              key={selectedId}
              msp={mspCustomDomain}
              boardId={selectedId}
              draft={drafts[selectedId]}
              isUnsaved={unsaved[selectedId] === true}
              saveState={saveStateOf(selectedId)}
              onChange={(board) => handleChange(selectedId, board)}
              onSave={(type, board) => void handleSave(selectedId, type, board)}
              onDiscard={() => handleDiscard(selectedId)}
              onReload={() => handleDiscard(selectedId)}
            />
          )}
        </Grid.Col>
      </Grid>
      <QueueSettingsCard msp={mspCustomDomain} canEdit={canChangeQueueOrdering} onUnsavedChange={setQueueOrderingUnsaved} />
    </Stack>
  );
}
