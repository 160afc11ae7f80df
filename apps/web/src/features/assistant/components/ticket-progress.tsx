import { Badge, Group, Text, Timeline } from '@mantine/core';

export const PROGRESS_LABELS = {
  ticketCreated: 'Ticket created',
  ticketAssigned: 'Assigned to a technician',
  ticketClosed: 'Closed',
  userCreatedInActiveDirectory: 'User created in Active Directory',
  userEmailCreated: 'User email created',
} as const;
export type TProgressStep = keyof typeof PROGRESS_LABELS;

const BASE_STEPS: TProgressStep[] = ['ticketCreated', 'ticketAssigned', 'ticketClosed'];
const ONBOARDING_STEPS: TProgressStep[] = ['ticketCreated', 'userCreatedInActiveDirectory', 'userEmailCreated', 'ticketAssigned', 'ticketClosed'];

type TTicketProgressProps = {
  /** Which steps are done; a step not listed is pending (02 §4: every step starts as pending). */
  done: Partial<Record<TProgressStep, boolean>>;
  isOnboarding: boolean;
  /** The ticket is kept but the PSA has not accepted it yet (the outbox retries). */
  isPendingInPsa: boolean;
  label: string;
};

/** 02 §4 "Ticket progress": created, assigned, closed; onboarding tickets track two more steps. */
export function TicketProgress({ done, isOnboarding, isPendingInPsa, label }: TTicketProgressProps) {
  const steps = isOnboarding ? ONBOARDING_STEPS : BASE_STEPS;
  const lastDone = steps.reduce((last, step, index) => (done[step] === true ? index : last), -1);
  return (
    <div>
      {isPendingInPsa && (
        <Group gap="xs" mb="xs">
          <Badge color="orange" variant="light">
            pending in the PSA
          </Badge>
          <Text size="xs" c="dimmed">
            Saved here; it will appear in the PSA as soon as the PSA accepts it.
          </Text>
        </Group>
      )}
      <Timeline active={lastDone} bulletSize={16} lineWidth={2} aria-label={label}>
        {steps.map((step) => (
          <Timeline.Item key={step} title={PROGRESS_LABELS[step]}>
            <Text size="xs" c="dimmed">
              {done[step] === true ? 'Done' : 'Pending'}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </div>
  );
}
