import { create } from 'zustand';
import type { TChatMessage, TCreateTicketResponse, TInteractiveElement, TTicketAreaMode, TTicketDraft } from '@switchboard/contracts';
import { registerStoreReset } from '../../../lib/store-reset';
import type { TChatButton, TChatLine } from '../components/chat-message-list';
import type { TTicketForm, TTicketFormErrors } from '../lib/ticket-draft';

/**
 * Tickets by chat (02 §4): the chat lines, the server's draft, the form the person edits, the
 * answers chosen so far and the ticket area's mode, shared by the assistant's Tickets tab and the
 * ticket area ("My Ticket" shows the draft with confirm and cancel).
 */
type TTicketFlowStore = {
  lines: TChatLine[];
  draft: TTicketDraft | null;
  form: TTicketForm | null;
  /** questionId → chosen answer. */
  answers: Record<string, string>;
  /** The troubleshooting step the person is trying. */
  activeStepId: string | null;
  mode: TTicketAreaMode;
  result: TCreateTicketResponse | null;
  /** a 500 from the categorisation call. */
  hasServerError: boolean;
  /** The ticket form's messages from the last confirm (01 §5). */
  formErrors: TTicketFormErrors;
  setFormErrors: (formErrors: TTicketFormErrors) => void;
  /** The interactive elements of every message shown, by id (what a pressed button means). */
  elements: Record<string, TInteractiveElement>;
  /**
   * After a reload: the stored conversation the chat was restored from and the oldest of its messages
   * shown, above which older ones can be loaded. Null when the chat did not start from one.
   */
  restored: TRestoredConversation | null;
  addLine: (line: TChatLine) => void;
  /** A stored message as a line; its buttons' meanings are remembered. */
  addMessage: (message: TChatMessage) => void;
  /** The stored conversation (oldest first) as the chat's lines, after a reload. */
  restoreConversation: (messages: TChatMessage[]) => void;
  /**
   * Older messages of the restored conversation (oldest first) go above the lines; the ones already shown
   * or newer than the oldest shown are left out. Answers how many were added.
   */
  addOlderMessages: (messages: TChatMessage[]) => number;
  replaceLine: (key: string, line: TChatLine) => void;
  takeDraft: (draft: TTicketDraft, form: TTicketForm) => void;
  setForm: (form: TTicketForm) => void;
  chooseAnswer: (questionId: string, answer: string) => void;
  setActiveStep: (stepId: string | null) => void;
  setMode: (mode: TTicketAreaMode) => void;
  setServerError: (hasServerError: boolean) => void;
  /** the flow resets and the mode goes to "All Tickets"; the closing message stays. */
  finish: (closing: TChatLine, result: TCreateTicketResponse | null) => void;
};

type TRestoredConversation = { conversationId: string; oldest: Pick<TChatMessage, 'id' | 'timeStamp'> };

type TTicketFlowState = Pick<TTicketFlowStore, 'lines' | 'elements' | 'restored' | 'draft' | 'form' | 'answers' | 'activeStepId' | 'mode' | 'result' | 'hasServerError' | 'formErrors'>;
const INITIAL: TTicketFlowState = { lines: [], elements: {}, restored: null, draft: null, form: null, answers: {}, activeStepId: null, mode: 'My Ticket', result: null, hasServerError: false, formErrors: {} };

const elementsOf = (messages: TChatMessage[]) => Object.fromEntries(messages.flatMap((message) => message.interactiveElements.map((element) => [element.id, element])));

export const useTicketFlowStore = create<TTicketFlowStore>()((set, get) => ({
  ...INITIAL,
  addLine: (line) => set((state) => ({ lines: [...state.lines, line] })),
  addMessage: (message) =>
    set((state) => ({
      lines: [...state.lines, lineOfMessage(message)],
      elements: { ...state.elements, ...elementsOf([message]) },
    })),
  restoreConversation: (messages) => {
    const [oldest] = messages;
    set((state) => ({
      lines: [...state.lines, ...messages.map(lineOfMessage)],
      elements: { ...state.elements, ...elementsOf(messages) },
      restored: oldest ? { conversationId: oldest.conversationId, oldest: { id: oldest.id, timeStamp: oldest.timeStamp } } : null,
    }));
  },
  addOlderMessages: (messages) => {
    const { restored, lines } = get();
    if (restored === null) return 0;
    // Pages are counted from the newest message, so messages stored since the restore shift older pages:
    // a page may repeat what is shown, or hold what was said here since (shown as typed, not by id).
    const shown = new Set(lines.map((line) => line.key));
    const older = messages.filter((message) => !shown.has(message.id) && message.timeStamp <= restored.oldest.timeStamp);
    const [oldest] = older;
    if (!oldest) return 0;
    set((state) => ({
      lines: [...older.map(lineOfMessage), ...state.lines],
      // What the newer messages' buttons mean wins over an older message's element of the same id.
      elements: { ...elementsOf(older), ...state.elements },
      restored: { ...restored, oldest: { id: oldest.id, timeStamp: oldest.timeStamp } },
    }));
    return older.length;
  },
  replaceLine: (key, line) => set((state) => ({ lines: state.lines.map((candidate) => (candidate.key === key ? line : candidate)) })),
  takeDraft: (draft, form) => set({ draft, form, answers: {}, activeStepId: null, mode: draft.mode, hasServerError: false, result: null, formErrors: {} }),
  setForm: (form) => set({ form }),
  chooseAnswer: (questionId, answer) => set((state) => ({ answers: { ...state.answers, [questionId]: answer } })),
  setActiveStep: (activeStepId) => set({ activeStepId }),
  setMode: (mode) => set({ mode }),
  setServerError: (hasServerError) => set({ hasServerError }),
  setFormErrors: (formErrors) => set({ formErrors }),
  finish: (closing, result) => set({ ...INITIAL, lines: [closing], mode: 'All Tickets', result }),
}));

registerStoreReset(() => useTicketFlowStore.setState(INITIAL));

/** The buttons of a stored message: answer options, troubleshooting steps, the flow's actions. */
export function buttonsOf(elements: TInteractiveElement[]): TChatButton[] {
  const questionIds = [...new Set(elements.flatMap((element) => (element.kind === 'answer' && element.questionId !== null ? [element.questionId] : [])))];
  return elements.map((element) => {
    // Answers: one row per question, numbered as the question list in the message text.
    if (element.kind === 'answer' && element.questionId !== null) {
      return { id: element.id, label: element.label, groupId: element.questionId, isInline: true, groupLabel: `Question ${questionIds.indexOf(element.questionId) + 1}` };
    }
    if (element.kind === 'step') return { id: element.id, label: element.label, groupId: element.id };
    // "This helped" / "This did not help" follow their step (their value is the step's id).
    if (element.kind === 'helped' || element.kind === 'didNotHelp') return { id: element.id, label: element.label, groupId: element.value ?? element.id, isCompact: true };
    if (element.kind === 'confirm' || element.kind === 'cancel' || element.kind === 'talkToTechnician') return { id: element.id, label: element.label, groupId: 'flow', isCompact: true };
    return { id: element.id, label: element.label };
  });
}

/** A stored message as a chat line. */
/** What a message's buttons are, for the group that holds them: answers, steps, both (a follow-up round, decision 038), or the flow's actions. */
function buttonsLabelOf(elements: TChatMessage['interactiveElements']): string {
  const hasSteps = elements.some((element) => element.kind === 'step');
  const hasAnswers = elements.some((element) => element.kind === 'answer');
  if (hasSteps && hasAnswers) return 'Answers and troubleshooting steps';
  return hasSteps ? 'Troubleshooting steps' : hasAnswers ? 'Answers' : 'Actions';
}

export function lineOfMessage(message: TChatMessage): TChatLine {
  return {
    key: message.id,
    messageId: message.role === 'assistant' ? message.id : null,
    role: message.role,
    text: message.content,
    buttons: buttonsOf(message.interactiveElements),
    buttonsLabel: buttonsLabelOf(message.interactiveElements),
    sources: [...new Set(message.sources.map((source) => source.reference ?? source.title))],
    feedback: message.feedback,
  };
}
