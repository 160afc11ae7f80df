import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { useResumeOpenDraft, type useTicketFlow } from '../state/use-ticket-flow';
import { ChatComposer } from './chat-composer';
import { ChatMessageList, type TChatButton } from './chat-message-list';
import { FlowDraftCard } from './ticket-draft-card';

type TTicketFlow = ReturnType<typeof useTicketFlow>;

/**
 * The assistant's "Tickets" tab: the person describes the problem, Jarvis asks, proposes and
 * suggests steps; "Talk to a technician" stays one click away. The draft with Confirm / Cancel
 * shows here when `showDraft` (technicians, and everyone on a phone); otherwise in "My Ticket".
 */
export function TicketChat({ user, flow, showDraft }: { user: TSessionMspUser; flow: TTicketFlow; showDraft: boolean }) {
  const olderMessages = useResumeOpenDraft(user, flow);
  const chosen = new Set(
    Object.values(flow.elements)
      .filter((element) => (element.kind === 'answer' && element.questionId !== null && flow.answers[element.questionId] === (element.value ?? element.label)) || element.id === flow.activeStepId)
      .map((element) => element.id),
  );
  const answerCount = Object.keys(flow.answers).length;
  const stage = flow.draft?.stage ?? null;
  const offerTechnician = flow.draft?.offerTechnician === true;

  // The flow's buttons (answers, steps, Confirm, Cancel, talk to a technician) show on the newest answer that has any.
  const lastAssistant = flow.lines.findLastIndex((line) => line.role === 'assistant' && (line.buttons?.length ?? 0) > 0);
  const kindOf = (button: TChatButton) => flow.elements[button.id]?.kind;
  // The offer of a technician (after two steps that did not help) brings only its own button: the round's
  // Confirm and Cancel stay with it, or they could not be reached from the chat.
  const newest = flow.lines[lastAssistant]?.buttons ?? [];
  const roundActions =
    flow.draft === null || newest.some((button) => kindOf(button) === 'confirm')
      ? []
      : (flow.lines.findLast((line) => line.buttons?.some((button) => kindOf(button) === 'confirm'))?.buttons ?? []).filter((button) => kindOf(button) === 'confirm' || kindOf(button) === 'cancel');
  const lines = flow.lines.map((line, index) => (index === lastAssistant ? (roundActions.length > 0 ? { ...line, buttons: [...newest, ...roundActions] } : line) : !line.buttons ? line : { ...line, buttons: undefined }));

  const draftCard = showDraft ? <FlowDraftCard user={user} flow={flow} /> : null;

  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {flow.draft === null ? 'Describe your problem in your own words.' : stage === 'troubleshooting' ? (flow.draft.steps.length > 0 ? 'Try the steps, or confirm the ticket.' : 'Confirm the ticket, or talk to a technician.') : 'Answer the questions, then send them.'}
        </Text>
        <Button size="compact-sm" color="red.9" variant={offerTechnician ? 'filled' : 'default'} onClick={() => flow.talkToTechnician()} loading={flow.isTalking && flow.pendingButtonId === null} disabled={flow.draft === null || flow.isBusy}>
          {MESSAGES.assistant.talkToTechnician}
        </Button>
      </Group>
      {flow.hasServerError && (
        <Alert color="red" role="alert" p="xs">
          Jarvis could not categorise this right now. You can still talk to a technician or try again.
        </Alert>
      )}
      <ChatMessageList
        label="Ticket chat"
        lines={lines}
        olderMessages={olderMessages}
        isThinking={flow.isSending || flow.isTellingStep}
        chosenButtonIds={chosen}
        areButtonsDisabled={flow.isBusy}
        loadingButtonId={flow.pendingButtonId}
        onChooseButton={(_line, button) => flow.chooseButton(button)}
        emptyState={
          <Text size="sm" c="dimmed">
            Hi {user.firstName}, I am Jarvis. Tell me what is wrong and I will ask a few questions, suggest fixes and create a ticket for you.
          </Text>
        }
        footer={
          <>
            {flow.activeStepId !== null && (
              <Group gap="xs" role="group" aria-label="Did this step help?">
                <Text size="sm">Did this step help?</Text>
                <Button size="compact-sm" variant="light" color="teal" onClick={() => flow.tellStep(true)} loading={flow.pendingStepAnswer === true} disabled={flow.isBusy}>
                  It helped
                </Button>
                <Button size="compact-sm" variant="light" color="red" onClick={() => flow.tellStep(false)} loading={flow.pendingStepAnswer === false} disabled={flow.isBusy}>
                  It did not help
                </Button>
              </Group>
            )}
            {stage === 'questions' && answerCount > 0 && (
              <Button size="compact-sm" style={{ alignSelf: 'flex-start' }} onClick={() => flow.send('')} loading={flow.isSending} disabled={flow.isBusy}>
                Send {answerCount} answer{answerCount === 1 ? '' : 's'}
              </Button>
            )}
            {draftCard}
          </>
        }
      />
      <ChatComposer
        label="Message to Jarvis"
        placeholder={flow.draft === null ? 'e.g. Outlook keeps asking for my password' : 'Add details or answer in your own words'}
        isSending={flow.isSending}
        // While Confirm, Cancel or a step answer is under way nothing else is sent (the message would be lost).
        disabled={flow.isBusy && !flow.isSending}
        onSend={flow.send}
      />
    </Stack>
  );
}
