import { useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { MESSAGES, WIZARD_MESSAGES, boardSaveProblems, isBoardReadyForWizard, type TEditableBoard, type TPsaType, type TWizardCompleteBody } from '@switchboard/contracts';
import { psaErrorMessage } from '../psa-error-message';
import { useMergedBoard, usePsaBoards, useReloadMergedBoard, useSaveBoard } from '../../boards/api/boards-queries';
import { BoardEditor } from '../../boards/components/board-editor';
import { editableFromView, savedBoardFrom } from '../../boards/components/board-editor-state';
import { failedSaveState, IDLE_SAVE_STATE, useBoardSaveStates } from '../../boards/components/use-board-save-states';

type TWizardBoardStepProps = {
  mspCustomDomain: string;
  initialBoardId: number | null;
  onComplete: (body: TWizardCompleteBody) => void;
  isCompleting: boolean;
};

/** Step 1: choose a board, save its categorisation; it completes once a type has a saved subtype and no type has only new ones. */
export function WizardBoardStep({ mspCustomDomain, initialBoardId, onComplete, isCompleting }: TWizardBoardStepProps) {
  // entering step 1 reloads the boards (this component mounts afresh on each entry, and asks the PSA whatever the cache holds).
  const boards = usePsaBoards(mspCustomDomain, { isReloadedOnMount: true });
  const [boardId, setBoardId] = useState<number | null>(initialBoardId);
  const [draft, setDraft] = useState<TEditableBoard | null>(null);
  const [isUnsaved, setUnsaved] = useState(false);
  // Counts the edits, so a save can tell whether the admin typed on while it ran (as the Board screen does).
  const editCount = useRef(0);
  // "Board saved." and a save error clear after 5 seconds, as on the Board screen.
  const { saveStateOf, showSaveState } = useBoardSaveStates();
  const saveState = saveStateOf(boardId);
  const [problem, setProblem] = useState<string | null>(null);
  const merged = useMergedBoard(mspCustomDomain, boardId);
  const saveBoard = useSaveBoard(mspCustomDomain);
  const reloadBoard = useReloadMergedBoard(mspCustomDomain);
  const boardName = boards.data?.find((board) => board.id === boardId)?.name;
  const board = draft ?? (merged.data ? editableFromView(merged.data) : null);

  async function handleSave(savedBoardId: number, psaType: TPsaType, current: TEditableBoard) {
    const problems = boardSaveProblems(current, psaType);
    if (problems.length > 0) {
      const reasons = [...new Set(problems.map((entry) => entry.reason))];
      showSaveState(savedBoardId, { status: 'error', message: reasons[0] ?? MESSAGES.boards.saveFailed, problems: reasons });
      return;
    }
    showSaveState(savedBoardId, { status: 'saving' });
    const editsAtSave = editCount.current;
    try {
      const saved = await saveBoard.mutateAsync({ psaType, board: current });
      if (editCount.current === editsAtSave) {
        // Nothing typed meanwhile: the working copy goes and the editor follows A-030 (refetched by the save).
        setDraft(null);
        setUnsaved(false);
      } else {
        // Edits typed while the save ran stay, unsaved, and go with the version this save made (review s28 #3); a board
        // chosen meanwhile keeps its own.
        const version = savedBoardFrom(saved, savedBoardId)?.version;
        setDraft((typed) => (typed && typed.boardId === savedBoardId && version !== undefined ? { ...typed, version } : typed));
      }
      showSaveState(savedBoardId, { status: 'success' });
    } catch (error) {
      showSaveState(savedBoardId, failedSaveState(error, psaErrorMessage(error, 'wizard')));
    }
  }

  /** Reload board after a stale save (decision 012), as on the Board screen: the working copy goes and the board is read again. */
  function handleReload(reloadedBoardId: number) {
    editCount.current += 1;
    setDraft(null);
    setUnsaved(false);
    showSaveState(reloadedBoardId, IDLE_SAVE_STATE);
    void reloadBoard(reloadedBoardId);
  }

  function handleContinue() {
    if (boardId === null || !board) return setProblem(WIZARD_MESSAGES.boardRequired);
    if (isUnsaved || !merged.data?.isConfigured || !isBoardReadyForWizard(board)) return setProblem(WIZARD_MESSAGES.boardNotReady);
    setProblem(null);
    onComplete({ step: 1, boardId, ...(boardName ? { boardName } : {}) });
  }

  if (boards.isPending) return <Loader aria-label="Loading boards" />;
  if (boards.isError) return <Alert color="red">{psaErrorMessage(boards.error, 'wizard')}</Alert>;

  return (
    <Stack gap="md">
      <Select
        label="Board"
        description="The PSA board (Autotask: queue) whose tickets Switchboard works on."
        placeholder="Choose a board"
        searchable
        // Choosing the board already chosen must not clear it (Mantine's default deselects).
        allowDeselect={false}
        maw={420}
        data={(boards.data ?? []).map((entry) => ({ value: String(entry.id), label: entry.name }))}
        value={boardId === null ? null : String(boardId)}
        onChange={(value) => {
          setBoardId(value === null ? null : Number(value));
          editCount.current += 1;
          setDraft(null);
          setUnsaved(false);
          setProblem(null);
        }}
      />
      {boardId !== null && merged.isPending && <Loader aria-label="Loading board" />}
      {merged.isError && <Alert color="red">{psaErrorMessage(merged.error, 'wizard')}</Alert>}
      {merged.data && board && boardId !== null && (
        <>
          <Text size="sm" c="dimmed">
            Check the types, subtypes, priorities, tiers and SLA hours, then save the board.
          </Text>
          <BoardEditor
            msp={mspCustomDomain}
            merged={merged.data}
            board={board}
            isUnsaved={isUnsaved}
            saveState={saveState}
            onChange={(next) => {
              editCount.current += 1;
              setDraft(next);
              setUnsaved(true);
            }}
            onSave={() => void handleSave(boardId, merged.data.psaType, board)}
            onReload={() => handleReload(boardId)}
          />
        </>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={handleContinue} loading={isCompleting} disabled={boardId === null}>
          Continue to technicians
        </Button>
      </Group>
    </Stack>
  );
}
