import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { TTicketingConfiguration } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useBoardStatuses, useUpdateTicket, type TQueueActor } from '../api/queue-queries';
import { boardChoices } from '../lib/board-choices';
import type { TQueueTicketView } from '../queue-types';
import { EditTicketModal } from './edit-ticket-modal';

type TEditActiveTicketProps = {
  actor: TQueueActor;
  ticket: TQueueTicketView;
  /** Edit needs a board: the caller does not open this without one. */
  boardId: number;
  configuration: TTicketingConfiguration | undefined;
  isConfigurationLoading: boolean;
  onClose: () => void;
};

/** My Ticket's edit (updateTicket, R-328–R-330): the board's categories and statuses, saved in the PSA. */
export function EditActiveTicket({ actor, ticket, boardId, configuration, isConfigurationLoading, onClose }: TEditActiveTicketProps) {
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateTicket(actor.mspCustomDomain);
  const statuses = useBoardStatuses(actor.mspCustomDomain, boardId);
  return (
    <EditTicketModal
      ticket={ticket}
      choices={boardChoices(configuration, String(boardId))}
      statuses={(statuses.data ?? []).map((status) => ({ id: String(status.id), name: status.name }))}
      isLoading={isConfigurationLoading || statuses.isPending}
      loadError={statuses.isError ? "The statuses of this ticket's board could not be loaded, so its status cannot be changed now. Other changes can still be saved." : null}
      isSaving={update.isPending}
      error={error}
      onCancel={onClose}
      onSave={(body) =>
        update.mutate(
          { ticketId: ticket.ticketId, body },
          {
            onSuccess: () => {
              onClose();
              notifications.show({ color: 'green', title: 'Ticket saved', message: `Ticket #${ticket.ticketId}` });
            },
            onError: (cause) => {
              console.error('updateTicket failed', cause);
              setError(errorDetail(cause));
            },
          },
        )
      }
    />
  );
}
