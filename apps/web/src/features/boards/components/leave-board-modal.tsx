import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TUnsavedChangesGuard } from '../../../lib/use-unsaved-changes-guard';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

/** Something on the Board screen that holds an unsaved edit, as the leave question names it. */
export type TNotSavedPart = { key: string; label: string };

/**
 * The Board screen's question when the admin leaves it with unsaved edits: what is not saved, Stay or Leave.
 * Closing the dialog (Escape, the close button) is Stay: nothing is lost without a deliberate Leave.
 */
export function LeaveBoardModal({ guard, notSaved }: { guard: TUnsavedChangesGuard; notSaved: TNotSavedPart[] }) {
  return (
    <Modal opened={guard.isAsking} onClose={guard.stay} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={MESSAGES.boards.leaveTitle} centered>
      <Stack gap="sm">
        <Text size="sm">{MESSAGES.boards.leaveText}</Text>
        <List size="sm" aria-label="Not saved">
          {notSaved.map((part) => (
            <List.Item key={part.key}>{part.label}</List.Item>
          ))}
        </List>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={guard.stay} data-autofocus>
            Stay
          </Button>
          {/* red.9: white on Mantine's default red is 3.3:1, below WCAG AA's 4.5:1. */}
          <Button color="red.9" onClick={guard.leave}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
