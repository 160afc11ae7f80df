import { useMemo } from 'react';
import { MESSAGES, answeredQuestionsText } from '@switchboard/contracts';
import type { TCreateTicketResponse, TSessionMspUser, TTicketDraft } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import {
  useCancelTicketDraft,
  useCreateTicket,
  useDiagnose,
  useStepFeedback,
  useTalkToTechnician,
  useTicketingConfiguration,
} from '../api/assistant-queries';
import { boardCatalogueOf, createTicketBody, formFromDraft, validateDraft } from '../lib/ticket-draft';
import type { TBoardCatalogue } from '../lib/ticket-draft';
import type { TChatButton, TChatLine } from '../components/chat-message-list';
import { useTicketFlowStore } from './ticket-flow-store';

let lineCounter = 0;
const nextKey = (prefix: string) => `${prefix}-${Date.now()}-${(lineCounter += 1)}`;
const userLine = (text: string): TChatLine => ({ key: nextKey('you'), messageId: null, role: 'user', text });
const noticeLine = (text: string, isError = false): TChatLine => ({ key: nextKey('jarvis'), messageId: null, role: 'assistant', text, isError });

const EMPTY_CATALOGUE: TBoardCatalogue = { psaType: null, boards: [] };

/** The summary shown after a ticket is created or handed to a technician. */
function summaryLine(result: TCreateTicketResponse): TChatLine {
  return noticeLine(result.psaWriteState === 'pending' ? `${result.summary}\n\n${MESSAGES.assistant.ticketPendingInPsa}` : result.summary);
}

/**
 * Tickets by chat, 02 §4 step by step: describe → questions and a proposal ("My Ticket") →
 * answers → troubleshooting steps → confirm (checked by role, created, summary, reset, "All
 * Tickets") or cancel ("Ticket Creation Cancelled.", reset, "All Tickets"). "Talk to a technician"
 * works from any point after the first message.
 */
export function useTicketFlow(user: TSessionMspUser) {
  const store = useTicketFlowStore();
  const configuration = useTicketingConfiguration(user.mspCustomDomain);
  const catalogue = useMemo(() => (configuration.data ? boardCatalogueOf(configuration.data) : EMPTY_CATALOGUE), [configuration.data]);
  const diagnose = useDiagnose();
  const createTicket = useCreateTicket(user.mspCustomDomain);
  const cancelDraft = useCancelTicketDraft(user.mspCustomDomain);
  const stepFeedback = useStepFeedback(user.mspCustomDomain);
  const talk = useTalkToTechnician(user.mspCustomDomain);
  const who = user.userKind === 'technician' ? { techId: user.id } : { userId: user.id };

  function takeDraft(draft: TTicketDraft) {
    const current = useTicketFlowStore.getState().form;
    const form = formFromDraft(catalogue, draft);
    // A technician's chosen company and contact survive the second round.
    store.takeDraft(draft, current && user.userKind === 'technician' ? { ...form, companyId: current.companyId, contactId: current.contactId, name: current.name || form.name, email: current.email || form.email, phone: current.phone || form.phone } : form);
    store.addMessage(draft.message);
  }

  function handleDiagnoseError(error: unknown) {
    // a 500 from the categorisation sets the server-error flag.
    if (isApiError(error) && error.status >= 500) store.setServerError(true);
    store.addLine(noticeLine(errorDetail(error), true));
  }

  /** Step 1 or a later message: the first one starts the draft, the next carries the chosen answers. */
  function send(text: string) {
    const { draft, answers } = useTicketFlowStore.getState();
    if (text !== '') store.addLine(userLine(text));
    if (draft === null) {
      diagnose.mutate({ userMessage: text, mspCustomDomain: user.mspCustomDomain, ...who }, { onSuccess: takeDraft, onError: handleDiagnoseError });
      return;
    }
    const chosen = Object.entries(answers).map(([questionId, answer]) => ({ questionId, answer }));
    if (chosen.length > 0) store.addLine(userLine(answeredQuestionsText(draft.questions, chosen)));
    diagnose.mutate(
      { userMessage: text, mspCustomDomain: user.mspCustomDomain, ...who, ticketDraftId: draft.id, conversationId: draft.conversationId, answers: chosen },
      { onSuccess: takeDraft, onError: handleDiagnoseError },
    );
  }

  function finishWith(result: TCreateTicketResponse) {
    store.finish(summaryLine(result), result);
  }

  /** Step 4: the form is checked by role; nothing is sent while a message shows. */
  function confirm() {
    const { form, draft } = useTicketFlowStore.getState();
    if (!form) return;
    const errors = validateDraft(form, user.userKind);
    store.setFormErrors(errors);
    if (Object.keys(errors).length > 0) {
      // The form may be out of sight (in "My Ticket" or further up the chat): say so in the chat too.
      store.addLine(noticeLine('Some fields of the ticket need your attention before it can be created.', true));
      return;
    }
    createTicket.mutate(createTicketBody(catalogue, form, { ticketDraftId: draft?.id ?? null, userKind: user.userKind, userId: user.id }), {
      onSuccess: finishWith,
      onError: (error) => store.addLine(noticeLine(errorDetail(error), true)),
    });
  }

  function cancel() {
    const { draft } = useTicketFlowStore.getState();
    const close = () => store.finish(noticeLine(MESSAGES.ticketCreationCancelled), null);
    if (!draft) {
      close();
      return;
    }
    cancelDraft.mutate(draft.id, { onSuccess: close, onError: (error) => store.addLine(noticeLine(errorDetail(error), true)) });
  }

  function talkToTechnician() {
    const { draft, form } = useTicketFlowStore.getState();
    if (!draft) return;
    talk.mutate(
      { ticketDraftId: draft.id, psaCompanyId: form?.companyId ?? null, psaContactId: form?.contactId ?? null },
      { onSuccess: finishWith, onError: (error) => store.addLine(noticeLine(errorDetail(error), true)) },
    );
  }

  function tellStep(helped: boolean, stepId?: string | null) {
    const { draft, activeStepId } = useTicketFlowStore.getState();
    const step = stepId ?? activeStepId;
    if (!draft || step === null) return;
    stepFeedback.mutate(
      { ticketDraftId: draft.id, stepId: step, helped },
      {
        onSuccess: (answer) => {
          store.setActiveStep(null);
          store.addMessage(answer.message);
        },
        onError: (error) => store.addLine(noticeLine(errorDetail(error), true)),
      },
    );
  }

  /** A pressed button: an answer to a question, a step to try, or one of the flow's actions. */
  function chooseButton(button: TChatButton) {
    const element = useTicketFlowStore.getState().elements[button.id];
    const kind = element?.kind ?? 'answer';
    if (kind === 'answer' && element?.questionId) store.chooseAnswer(element.questionId, element.value ?? element.label);
    else if (kind === 'step') store.setActiveStep(element?.id ?? null);
    else if (kind === 'helped') tellStep(true, element?.value);
    else if (kind === 'didNotHelp') tellStep(false, element?.value);
    else if (kind === 'talkToTechnician') talkToTechnician();
    else if (kind === 'confirm') confirm();
    else if (kind === 'cancel') cancel();
  }

  return {
    ...store,
    catalogue,
    isConfigurationLoading: configuration.isPending,
    isSending: diagnose.isPending,
    isConfirming: createTicket.isPending,
    isCancelling: cancelDraft.isPending,
    isTalking: talk.isPending,
    isTellingStep: stepFeedback.isPending,
    send,
    confirm,
    cancel,
    talkToTechnician,
    tellStep,
    chooseButton,
  };
}
