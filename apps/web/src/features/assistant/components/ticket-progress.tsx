import { Badge, Group, Text, Timeline } from '@mantine/core';
import classes from './ticket-progress.module.css';

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

/** Where a step stands: done steps are filled and checked, the step being worked on is ringed, later steps are hollow. */
type TStepState = 'done' | 'current' | 'future';
const STEP_STATE_TEXT: Record<TStepState, string> = { done: 'Done', current: 'In progress', future: 'Not reached yet' };

function stepStates(steps: readonly TProgressStep[], done: TTicketProgressProps['done']): TStepState[] {
  // A closed ticket has nothing in progress; otherwise the first step not done is the one being worked on.
  const current = done.ticketClosed === true ? -1 : steps.findIndex((step) => done[step] !== true);
  return steps.map((step, index) => (done[step] === true ? 'done' : index === current ? 'current' : 'future'));
}

/** 02 §4 "Ticket progress": created, assigned, closed; onboarding tickets track two more steps. */
export function TicketProgress({ done, isOnboarding, isPendingInPsa, label }: TTicketProgressProps) {
  const steps = isOnboarding ? ONBOARDING_STEPS : BASE_STEPS;
  const states = stepStates(steps, done);
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
      {/* Each item says its state in words ("Done", "In progress", "Not reached yet"), so the bullets are only decoration. */}
      <Timeline active={-1} bulletSize={18} lineWidth={2} role="list" aria-label={label} classNames={{ item: classes.item, itemBullet: classes.bullet }}>
        {steps.map((step, index) => {
          const state = states[index] ?? 'future';
          return (
            <Timeline.Item
              key={step}
              role="listitem"
              aria-current={state === 'current' ? 'step' : undefined}
              data-step-state={state}
              data-line-done={state === 'done' && states[index + 1] === 'done' ? true : undefined}
              bullet={
                state === 'done' ? (
                  <Text component="span" aria-hidden="true" fz={11} fw={700} lh={1}>
                    ✓
                  </Text>
                ) : undefined
              }
              title={
                <Text component="span" size="sm" fw={state === 'future' ? 400 : 600} c={state === 'future' ? 'dimmed' : undefined}>
                  {PROGRESS_LABELS[step]}
                </Text>
              }
            >
              <Text size="xs" c={state === 'current' ? undefined : 'dimmed'} fw={state === 'current' ? 600 : undefined}>
                {STEP_STATE_TEXT[state]}
              </Text>
            </Timeline.Item>
          );
        })}
      </Timeline>
    </div>
  );
}
