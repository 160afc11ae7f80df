import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TQueueTicketView } from '../queue-types';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

type TRejectModalProps = { ticket: TQueueTicketView; isSaving: boolean; onConfirm: (reason: string) => void; onClose: () => void };

/** Hand back (issue #10, beyond the spec): a reason is required; it becomes an internal note in the PSA. */
export function RejectModal({ ticket, isSaving, onConfirm, onClose }: TRejectModalProps) {
  const [reason, setReason] = useState('');
  const [isTouched, setTouched] = useState(false);
  const error = isTouched && reason.trim() === '' ? MESSAGES.queue.rejectReasonRequired : null;
  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Hand back ticket #${ticket.ticketId}`} centered>
      <form
        aria-label="Hand back ticket"
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (reason.trim() !== '') onConfirm(reason.trim());
        }}
      >
        <Stack>
          <Text size="sm">The ticket goes back to the queue and is not offered to you again for a while. Your reason is added to it as an internal note, and the time you worked on it is entered in the PSA.</Text>
          <Textarea label="Reason" rows={3} value={reason} maxLength={2000} error={error} onChange={(event) => setReason(event.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="orange" loading={isSaving}>
              Hand back
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
