import { useState } from 'react';
import { Button, Checkbox, Group, Modal, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { REQUEUE_TIER_OPTIONS } from '../queue-types';
import type { TQueueTicketView } from '../queue-types';

export type TRequeueChoice = { holdTimeInHours: number; assignedFlag: boolean; newTier: string };

type TRequeueModalProps = {
  ticket: TQueueTicketView;
  isSaving: boolean;
  onConfirm: (choice: TRequeueChoice) => void;
  onClose: () => void;
};

/** hold time in hours, whether it stays assigned to this technician, and the tier it goes back to. */
export function RequeueModal({ ticket, isSaving, onConfirm, onClose }: TRequeueModalProps) {
  const [holdHours, setHoldHours] = useState<number>(0);
  const [assignedFlag, setAssignedFlag] = useState(false);
  const [newTier, setNewTier] = useState<string>(ticket.tier);

  return (
    <Modal opened onClose={onClose} title={`Requeue ticket #${ticket.ticketId}`} centered>
      <form
        aria-label="Requeue ticket"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm({ holdTimeInHours: holdHours, assignedFlag, newTier });
        }}
      >
        <Stack>
          <Text size="sm">The ticket goes back to the queue; a running timer is paused.</Text>
          <NumberInput
            label="Hold for (hours)"
            description="0 puts it back at once; otherwise nobody gets it until the hold ends."
            min={0}
            max={720}
            step={1}
            allowDecimal={false}
            clampBehavior="strict"
            value={holdHours}
            onChange={(value) => setHoldHours(typeof value === 'number' ? value : Number(value) || 0)}
          />
          <Checkbox label="Keep it assigned to me" checked={assignedFlag} onChange={(event) => setAssignedFlag(event.currentTarget.checked)} />
          <NativeSelect label="Tier" value={newTier} onChange={(event) => setNewTier(event.currentTarget.value)} data={REQUEUE_TIER_OPTIONS.map((option) => ({ ...option }))} />
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
