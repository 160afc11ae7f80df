import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { BoardTemplateStepError, useCreateBoard, useDepartmentsAndLocations, type TCreatedBoardRef } from '../api/boards-queries';

/** 01 §3 custom board: title, department, location, optionally set up from the default template. */
export function CreateBoardModal({ msp, isOpen, onClose, onCreated }: { msp: string; isOpen: boolean; onClose: () => void; onCreated: (boardId: number) => void }) {
  const [title, setTitle] = useState('');
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const [locationId, setLocationId] = useState<string | null>(null);
  const [useTemplate, setUseTemplate] = useState(true);
  const [titleError, setTitleError] = useState<string | null>(null);
  // The board an earlier try made at the PSA before its template step failed: the retry fills it, no second board.
  const [createdBoard, setCreatedBoard] = useState<TCreatedBoardRef | null>(null);
  const { departments, locations } = useDepartmentsAndLocations(msp, isOpen);
  const createBoard = useCreateBoard(msp);

  // The dialog stays mounted while closed: a failed try (and the board it made) is forgotten on Start over and on
  // close, so it never reopens locked on "Try again". A board made before its template step failed stays at the PSA
  // unset: A-050 asked again for its name, department and location answers that board (isExisting).
  function handleStartOver() {
    setCreatedBoard(null);
    setTitleError(null);
    createBoard.reset();
  }

  function handleClose() {
    handleStartOver();
    onClose();
  }

  async function handleSubmit() {
    // 01 §5: a custom board needs a non-blank title.
    if (title.trim() === '') {
      setTitleError(MESSAGES.boards.boardTitleRequired);
      return;
    }
    setTitleError(null);
    try {
      const board = await createBoard.mutateAsync({
        title: title.trim(),
        departmentId: departmentId === null ? null : Number(departmentId),
        locationId: locationId === null ? null : Number(locationId),
        useTemplate,
        ...(createdBoard ? { createdBoard } : {}),
      });
      setTitle('');
      setCreatedBoard(null);
      onCreated(board.boardId);
    } catch (error) {
      // The alert below shows what went wrong; a board made before its template step failed is kept for the retry.
      if (error instanceof BoardTemplateStepError) setCreatedBoard(error.board);
    }
  }

  return (
    <Modal opened={isOpen} onClose={handleClose} title="New board">
      <Stack>
        {[departments, locations].map((list, index) =>
          list.isError ? (
            <Alert key={index === 0 ? 'departments' : 'locations'} color="red" role="alert" title={index === 0 ? 'Departments could not be loaded' : 'Locations could not be loaded'}>
              {errorDetail(list.error)}
            </Alert>
          ) : null,
        )}
        <TextInput label="Title" required maxLength={100} disabled={createdBoard !== null} value={title} error={titleError} onChange={(event) => setTitle(event.currentTarget.value)} />
        <Select label="Department" required disabled={createdBoard !== null} data={(departments.data ?? []).map((entry) => ({ value: String(entry.id), label: entry.name }))} value={departmentId} onChange={setDepartmentId} />
        <Select label="Location" required disabled={createdBoard !== null} data={(locations.data ?? []).map((entry) => ({ value: String(entry.id), label: entry.name }))} value={locationId} onChange={setLocationId} />
        <Checkbox label="Set it up from the default board template (statuses, types, subtypes, scores, tiers and SLA)" disabled={createdBoard !== null} checked={useTemplate} onChange={(event) => setUseTemplate(event.currentTarget.checked)} />
        {createBoard.isError && (
          <Alert color="red" role="alert">
            {createBoard.error instanceof BoardTemplateStepError
              ? MESSAGES.boards.templateStepFailed(createBoard.error.board.boardName, errorDetail(createBoard.error.reason))
              : errorDetail(createBoard.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          {createBoard.isError && (
            <Button variant="subtle" onClick={handleStartOver}>
              Start over
            </Button>
          )}
          <Button variant="default" onClick={handleClose}>
            Cancel
          </Button>
          <Button loading={createBoard.isPending} onClick={() => void handleSubmit()}>
            {createdBoard ? 'Try again' : 'Create board'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
