import { useState } from 'react';
import { Button, Checkbox, Group, Modal, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { MAX_HOLD_HOURS, MESSAGES } from '@switchboard/contracts';
import { QUEUE_TIER_OPTIONS } from '../../../lib/tier-labels';
import type { TQueueTicketView } from '../queue-types';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';

export type TRequeueChoice = { holdTimeInHours: number; assignedFlag: boolean; newTier: string };


type TRequeueModalProps = {
  ticket: TQueueTicketView;
  isSaving: boolean;
  onConfirm: (choice: TRequeueChoice) => void;
  onClose: () => void;
};

/** hold time in hours, whether it stays assigned to this technician, and the tier it goes back to. */
export function RequeueModal({ ticket, isSaving, onConfirm, onClose }: TRequeueModalProps) {
  const [holdHours, setHoldHours] = useState<number | string>(0);
  const [holdProblem, setHoldProblem] = useState<string | null>(null);
  const [assignedFlag, setAssignedFlag] = useState(false);
  const [newTier, setNewTier] = useState<string>(ticket.tier);

  return (
    <Modal opened onClose={onClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Requeue ticket #${ticket.ticketId}`} centered>
      <form
        aria-label="Requeue ticket"
        onSubmit={(event) => {
          event.preventDefault();
          // A value out of range is kept in the field and explained, not silently cut or replaced.
          const hours = holdHours === '' ? 0 : Number(holdHours);
          if (!Number.isInteger(hours) || hours < 0 || hours > MAX_HOLD_HOURS) return setHoldProblem(MESSAGES.queue.holdHoursRange);
          onConfirm({ holdTimeInHours: hours, assignedFlag, newTier });
        }}
      >
        <Stack>
          <Text size="sm">The ticket goes back to the queue and the time you worked on it is entered in the PSA. Kept assigned to you, its timer is only paused.</Text>
          <NumberInput
            label="Hold for (hours)"
            description={`0 puts it back at once; otherwise nobody gets it until the hold ends (at most ${MAX_HOLD_HOURS} hours).`}
            min={0}
            max={MAX_HOLD_HOURS}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={holdHours}
            error={holdProblem}
            onChange={(value) => {
              setHoldHours(value);
              setHoldProblem(null);
            }}
          />
          <Checkbox label="Keep it assigned to me" checked={assignedFlag} onChange={(event) => setAssignedFlag(event.currentTarget.checked)} />
          <NativeSelect label="Tier" value={newTier} onChange={(event) => setNewTier(event.currentTarget.value)} data={QUEUE_TIER_OPTIONS} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={isSaving}>
              Requeue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
