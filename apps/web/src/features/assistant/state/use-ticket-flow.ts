import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, TICKET_DRAFT_ENDED_FLAG, answeredQuestionsText } from '@switchboard/contracts';
import type { TChatMessage, TCreateTicketResponse, TSessionMspUser, TTicketDraft } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { useSingleFlight } from '../../../lib/use-single-flight';
import {
  useCancelTicketDraft,
  useCreateTicket,
  useDiagnose,
  useMessages,
  useOpenTicketDraft,
  useStepFeedback,
  useTalkToTechnician,
  useTicketingConfiguration,
} from '../api/assistant-queries';
import { supportTicketKeys } from '../../client-tickets/api/support-tickets-queries';
import { boardCatalogueOf, createTicketBody, formFromDraft, keepEditsOverDraft, validateDraft } from '../lib/ticket-draft';
import type { TBoardCatalogue } from '../lib/ticket-draft';
import type { TChatButton, TChatLine, TOlderMessages } from '../components/chat-message-list';
import { useTicketFlowStore } from './ticket-flow-store';

let lineCounter = 0;
const nextKey = (prefix: string) => `${prefix}-${Date.now()}-${(lineCounter += 1)}`;
const userLine = (text: string): TChatLine => ({ key: nextKey('you'), messageId: null, role: 'user', text });
const noticeLine = (text: string, isError = false): TChatLine => ({ key: nextKey('jarvis'), messageId: null, role: 'assistant', text, isError });

const EMPTY_CATALOGUE: TBoardCatalogue = { psaType: null, boards: [] };

/** The flow request under way, and the chat button that started it (that one shows loading). */
type TFlowRequest = { action: 'send' | 'confirm' | 'cancel' | 'talk' | 'step'; helped?: boolean; buttonId: string | null };

/** The summary shown after a ticket is created or handed to a technician: the server's, which says "pending in the PSA" itself. */
function summaryLine(result: TCreateTicketResponse): TChatLine {
  return noticeLine(result.summary);
}

/** The draft was created or cancelled elsewhere (409), or is gone (404): the server flags both. */
function isDraftEnded(error: unknown): boolean {
  return isApiError(error) && error.flags[TICKET_DRAFT_ENDED_FLAG] === true;
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
  const queryClient = useQueryClient();
  const who = user.userKind === 'technician' ? { techId: user.id } : { userId: user.id };
  // One flow request at a time: a double click on Confirm created the ticket twice and a double
  // "did not help" counted twice (useSingleFlight answers at once, before the busy state is drawn).
  const flight = useSingleFlight();
  const [request, setRequest] = useState<TFlowRequest | null>(null);

  /** Runs one flow request unless another is under way; its error shows in the chat. */
  function runRequest<T>(pending: TFlowRequest, start: () => Promise<T>, onSuccess: (result: T) => void, onError: (error: unknown) => void = showError): boolean {
    if (flight.isBusy()) return false;
    setRequest(pending);
    void flight.run(async () => {
      try {
        await start().then(onSuccess, onError);
      } finally {
        setRequest(null);
      }
    });
    return true;
  }

  function showError(error: unknown) {
    // A draft closed in another tab (or by a request whose answer was lost) cannot be answered, confirmed or
    // cancelled here any more: the flow ends with the server's word and the lists show what became of it.
    if (isDraftEnded(error)) {
      store.finish(noticeLine(errorDetail(error)), null);
      void queryClient.invalidateQueries({ queryKey: supportTicketKeys.all });
      return;
    }
    store.addLine(noticeLine(errorDetail(error), true));
  }

  function takeDraft(draft: TTicketDraft) {
    const { form: current, draft: previous } = useTicketFlowStore.getState();
    // A later round keeps what the person changed in the form (a technician's company and contact among it).
    store.takeDraft(draft, current && previous ? keepEditsOverDraft(catalogue, previous, current, draft) : formFromDraft(catalogue, draft));
    store.addMessage(draft.message);
  }

  /**
   * After a reload: the draft's stored conversation (its newest page, oldest first) drawn as the rounds
   * drew it, then the draft, so answering, confirming and cancelling go on with it. Without the
   * conversation, the latest round's message alone. Nothing happens once the person has started in this chat.
   */
  function resume(draft: TTicketDraft, conversation: TChatMessage[]) {
    const { lines, draft: current } = useTicketFlowStore.getState();
    if (lines.length > 0 || current !== null) return;
    if (conversation.length > 0) store.restoreConversation(conversation);
    else store.addMessage(draft.message);
    store.takeDraft(draft, formFromDraft(catalogue, draft));
  }

  function handleDiagnoseError(error: unknown) {
    // a 500 from the categorisation sets the server-error flag.
    if (isApiError(error) && error.status >= 500) store.setServerError(true);
    showError(error);
  }

  /** Step 1 or a later message: the first one starts the draft, the next carries the chosen answers. */
  function send(text: string) {
    const { draft, answers } = useTicketFlowStore.getState();
    const chosen = Object.entries(answers).map(([questionId, answer]) => ({ questionId, answer }));
    const body = draft === null ? { userMessage: text, mspCustomDomain: user.mspCustomDomain, ...who } : { userMessage: text, mspCustomDomain: user.mspCustomDomain, ...who, ticketDraftId: draft.id, conversationId: draft.conversationId, answers: chosen };
    const isStarted = runRequest({ action: 'send', buttonId: null }, () => diagnose.mutateAsync(body), takeDraft, handleDiagnoseError);
    if (!isStarted) return;
    if (text !== '') store.addLine(userLine(text));
    if (draft !== null && chosen.length > 0) store.addLine(userLine(answeredQuestionsText(draft.questions, chosen)));
  }

  function finishWith(result: TCreateTicketResponse) {
    store.finish(summaryLine(result), result);
  }

  /** Step 4: the form is checked by role; nothing is sent while a message shows. */
  function confirm(buttonId: string | null = null) {
    const { form, draft } = useTicketFlowStore.getState();
    if (!form || flight.isBusy()) return;
    const errors = validateDraft(form, user.userKind);
    store.setFormErrors(errors);
    if (Object.keys(errors).length > 0) {
      // The form may be out of sight (in "My Ticket" or further up the chat): say so in the chat too.
      store.addLine(noticeLine('Some fields of the ticket need your attention before it can be created.', true));
      return;
    }
    const body = createTicketBody(catalogue, form, { ticketDraftId: draft?.id ?? null, userKind: user.userKind, userId: user.id });
    runRequest({ action: 'confirm', buttonId }, () => createTicket.mutateAsync(body), finishWith);
  }

  function cancel(buttonId: string | null = null) {
    const { draft } = useTicketFlowStore.getState();
    const close = () => store.finish(noticeLine(MESSAGES.ticketCreationCancelled), null);
    if (flight.isBusy()) return;
    if (!draft) {
      close();
      return;
    }
    runRequest({ action: 'cancel', buttonId }, () => cancelDraft.mutateAsync(draft.id), close);
  }

  function talkToTechnician(buttonId: string | null = null) {
    const { draft, form } = useTicketFlowStore.getState();
    if (!draft) return;
    runRequest({ action: 'talk', buttonId }, () => talk.mutateAsync({ ticketDraftId: draft.id, psaCompanyId: form?.companyId ?? null, psaContactId: form?.contactId ?? null }), finishWith);
  }

  function tellStep(helped: boolean, stepId: string | null = null, buttonId: string | null = null) {
    const { draft, activeStepId } = useTicketFlowStore.getState();
    const step = stepId ?? activeStepId;
    if (!draft || step === null) return;
    runRequest({ action: 'step', helped, buttonId }, () => stepFeedback.mutateAsync({ ticketDraftId: draft.id, stepId: step, helped }), (answer) => {
      store.setActiveStep(null);
      // The draft counts what did not help, so the header's "Talk to a technician" stands out once it is offered.
      useTicketFlowStore.setState((state) => (state.draft?.id === draft.id ? { draft: { ...state.draft, didNotHelpCount: answer.didNotHelpCount, offerTechnician: answer.offerTechnician } } : {}));
      store.addMessage(answer.message);
    });
  }

  /** A pressed button: an answer to a question, a step to try, or one of the flow's actions. */
  function chooseButton(button: TChatButton) {
    const element = useTicketFlowStore.getState().elements[button.id];
    const kind = element?.kind ?? 'answer';
    if (kind === 'answer' && element?.questionId) store.chooseAnswer(element.questionId, element.value ?? element.label);
    else if (kind === 'step') store.setActiveStep(element?.id ?? null);
    else if (kind === 'helped') tellStep(true, element?.value, button.id);
    else if (kind === 'didNotHelp') tellStep(false, element?.value, button.id);
    else if (kind === 'talkToTechnician') talkToTechnician(button.id);
    else if (kind === 'confirm') confirm(button.id);
    else if (kind === 'cancel') cancel(button.id);
  }

  return {
    ...store,
    catalogue,
    isConfigurationLoading: configuration.isPending,
    /** A flow request is under way: the flow's buttons are disabled until it answers. */
    isBusy: request !== null,
    /** The chat button whose request is under way. */
    pendingButtonId: request?.buttonId ?? null,
    /** The "Did this step help?" answer under way, when it came from the buttons under the chat. */
    pendingStepAnswer: request?.action === 'step' && request.buttonId === null ? (request.helped ?? null) : null,
    isSending: request?.action === 'send',
    isConfirming: request?.action === 'confirm',
    isCancelling: request?.action === 'cancel',
    isTalking: request?.action === 'talk',
    isTellingStep: request?.action === 'step',
    send,
    confirm,
    cancel,
    talkToTechnician,
    tellStep,
    chooseButton,
    resume,
  };
}

/**
 * When the chat opens with nothing in it (a reload, a restored tab), the person's open draft is read
 * once and the chat carries on with it, once the board configuration its form needs has loaded. The
 * chat comes back with the conversation's newest page (R-255: 30 messages); the answer says whether
 * older messages remain and loads them above, page by page, for "Show older messages".
 */
export function useResumeOpenDraft(user: TSessionMspUser, flow: Pick<ReturnType<typeof useTicketFlow>, 'isConfigurationLoading' | 'resume'>): TOlderMessages {
  const [isEmptyOnOpen] = useState(() => {
    const { lines, draft } = useTicketFlowStore.getState();
    return lines.length === 0 && draft === null;
  });
  const open = useOpenTicketDraft(user.mspCustomDomain, isEmptyOnOpen);
  const draft = open.data ?? null;
  const restored = useTicketFlowStore((state) => state.restored);
  // A chat reopened after its restore (the panel closed and opened again) still reads the restored conversation.
  const conversation = useMessages(restored?.conversationId ?? draft?.conversationId ?? null);
  const isResumed = useRef(false);
  const { isConfigurationLoading, resume } = flow;
  const isReady = draft !== null && !isConfigurationLoading && !conversation.isPending;
  const messages = conversation.data?.pages[0]?.messages;
  useEffect(() => {
    if (!isReady || isResumed.current) return;
    isResumed.current = true;
    resume(draft, messages ?? []);
  }, [isReady, draft, messages, resume]);

  const loading = useSingleFlight();
  const { fetchNextPage } = conversation;
  function showOlder() {
    void loading.run(async () => {
      // A page that holds only what is shown already (the pages shifted by what was said since) is passed
      // over to the next, so one press always brings older messages while there are any.
      for (;;) {
        const result = await fetchNextPage();
        const page = result.data?.pages.at(-1);
        if (result.isFetchNextPageError || !page) return;
        const added = useTicketFlowStore.getState().addOlderMessages(page.messages);
        if (added > 0 || !result.hasNextPage || useTicketFlowStore.getState().restored === null) return;
      }
    });
  }
  return {
    hasMore: restored !== null && conversation.hasNextPage,
    isLoading: loading.isRunning,
    error: conversation.isFetchNextPageError ? errorDetail(conversation.error) : null,
    onShow: showOlder,
  };
}
