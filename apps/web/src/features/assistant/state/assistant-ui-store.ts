import { create } from 'zustand';
import { registerStoreReset } from '../../../lib/store-reset';
import { ASSISTANT_WIDTH_DEFAULT, ASSISTANT_WIDTH_RESET } from '../lib/chat-layout';

export const ASSISTANT_TABS = ['Tickets', 'Engineer'] as const;
export type TAssistantTab = (typeof ASSISTANT_TABS)[number];
/** chat modes and the conversation filter. */
export const CHAT_MODES = ['History', 'Edit', 'Create'] as const;
export type TChatMode = (typeof CHAT_MODES)[number];
export const CONVERSATION_FILTERS = ['Newest', 'Oldest'] as const;
export type TConversationFilter = (typeof CONVERSATION_FILTERS)[number];

type TAssistantUiStore = {
  isOpen: boolean;
  width: number;
  /** Null until chosen: then the default of R-247 applies (Tickets with a ConnectWise integration). */
  tab: TAssistantTab | null;
  chatMode: TChatMode;
  filter: TConversationFilter;
  agentId: string | null;
  conversationId: string | null;
  /** Whether the client's ticket area has room for the ticket form (else the form shows in the chat). */
  isTicketAreaRoomy: boolean;
  setTicketAreaRoomy: (isRoomy: boolean) => void;
  setOpen: (isOpen: boolean) => void;
  setWidth: (width: number) => void;
  /** the reset value is 600. */
  resetWidth: () => void;
  setTab: (tab: TAssistantTab) => void;
  setChatMode: (mode: TChatMode) => void;
  setFilter: (filter: TConversationFilter) => void;
  openConversation: (agentId: string, conversationId: string | null) => void;
  /** Opens Jarvis on the Engineer tab with a new chat with this agent (the Agents screen's "Chat"). */
  openAgentChat: (agentId: string) => void;
};

const INITIAL = { isOpen: false, width: ASSISTANT_WIDTH_DEFAULT, tab: null, chatMode: 'History', filter: 'Newest', agentId: null, conversationId: null, isTicketAreaRoomy: true } as const;

export const useAssistantUiStore = create<TAssistantUiStore>()((set) => ({
  ...INITIAL,
  setOpen: (isOpen) => set({ isOpen }),
  setTicketAreaRoomy: (isTicketAreaRoomy) => set({ isTicketAreaRoomy }),
  setWidth: (width) => set({ width }),
  resetWidth: () => set({ width: ASSISTANT_WIDTH_RESET }),
  setTab: (tab) => set({ tab }),
  setChatMode: (chatMode) => set({ chatMode }),
  setFilter: (filter) => set({ filter }),
  openConversation: (agentId, conversationId) => set({ agentId, conversationId }),
  openAgentChat: (agentId) => set({ isOpen: true, tab: 'Engineer', chatMode: 'History', agentId, conversationId: null }),
}));

/** "Tickets" is the default tab when the MSP's PSA is ConnectWise Manage, else "Engineer". */
export function defaultAssistantTab(psaType: 'CONNECTWISE' | 'AUTOTASK' | null | undefined): TAssistantTab {
  return psaType === 'CONNECTWISE' ? 'Tickets' : 'Engineer';
}

registerStoreReset(() => useAssistantUiStore.setState(INITIAL));
