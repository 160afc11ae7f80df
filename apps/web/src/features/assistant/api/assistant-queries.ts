import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddConversationBody, TAgentForm, TCreateTicketBody, TDiagnosticQandABody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

export const assistantKeys = {
  all: ['assistant'] as const,
  agents: () => [...assistantKeys.all, 'agents'] as const,
  conversations: (agentId: string) => [...assistantKeys.all, 'conversations', agentId] as const,
  messages: (conversationId: string) => [...assistantKeys.all, 'messages', conversationId] as const,
  configuration: (msp: string) => [...assistantKeys.all, 'configuration', msp] as const,
  openTicketDraft: (msp: string) => [...assistantKeys.all, 'openTicketDraft', msp] as const,
  companies: (msp: string, search: string) => [...assistantKeys.all, 'companies', msp, search] as const,
  contacts: (msp: string, psaCompanyId: string, search: string) => [...assistantKeys.all, 'contacts', msp, psaCompanyId, search] as const,
};

/** the built-in troubleshooting agent and this MSP's custom agents (deleted ones left out). */
export function useAgents() {
  return useQuery({
    queryKey: assistantKeys.agents(),
    queryFn: async ({ signal }) => (await apiFetch('/db/getAgents', { schema: (s) => s.ZAgentList, signal })).agents,
  });
}

function useInvalidateAgents() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: assistantKeys.agents() });
}

/** */
export function useCreateAgent(mspCustomDomain: string) {
  const invalidate = useInvalidateAgents();
  return useMutation({
    mutationFn: async (form: TAgentForm) =>
      (await apiFetch('/gpt/assistant/createNewAgent', { method: 'POST', query: { mspCustomDomain }, body: form, schema: (s) => s.ZAgentResponse })).agent,
    onSettled: invalidate,
  });
}

/** the edit makes a new agent from the old one; the answer is the new agent. */
export function useEditAgent(mspCustomDomain: string) {
  const invalidate = useInvalidateAgents();
  return useMutation({
    mutationFn: async ({ agentId, form }: { agentId: string; form: TAgentForm }) =>
      (await apiFetch('/gpt/assistant/editAndCreateNewAgent', { method: 'POST', query: { mspCustomDomain, agentId }, body: form, schema: (s) => s.ZAgentResponse })).agent,
    onSettled: invalidate,
  });
}

/** A-093 (a state-changing GET, decisions #2): soft delete. */
export function useDeleteAgent() {
  const invalidate = useInvalidateAgents();
  return useMutation({
    mutationFn: (agentId: string) => apiFetch('/db/softDeleteAgent', { query: { agentId }, schema: (s) => s.ZSoftDeleteAgentResponse }),
    onSettled: invalidate,
  });
}

/** the caller's conversations with one agent, 30 a page. */
export function useConversations(agentId: string | null, page: number, order: 'asc' | 'desc' = 'desc') {
  return useQuery({
    queryKey: [...assistantKeys.conversations(agentId ?? 'none'), page, order] as const,
    // The server sorts the whole list: a page of the newest 30 reversed was not "Oldest" (review s29).
    queryFn: ({ signal }) => apiFetch('/db/conversations/getConversationsByAgentID', { query: { agentId, page, order }, schema: (s) => s.ZConversationPage, signal }),
    enabled: agentId !== null,
    // Another page of the same agent's list stays up while the next loads; another agent's list never does.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === (agentId ?? 'none') ? previous : undefined),
  });
}

/** */
export function useAddConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TAddConversationBody) =>
      (await apiFetch('/db/conversations/addConversation', { method: 'POST', body, schema: (s) => s.ZConversationResponse })).conversation,
    onSuccess: (conversation) => queryClient.invalidateQueries({ queryKey: assistantKeys.conversations(conversation.agentID) }),
  });
}

/** A-095 (a state-changing GET). */
export function useDeleteConversation(agentId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) => apiFetch('/db/conversations/deleteConversation', { query: { conversationId }, schema: (s) => s.ZDeleteConversationResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: assistantKeys.conversations(agentId ?? 'none') }),
  });
}

/** one conversation's messages; page 1 is the newest 30, older pages load on demand. */
export function useMessages(conversationId: string | null) {
  return useInfiniteQuery({
    queryKey: assistantKeys.messages(conversationId ?? 'none'),
    queryFn: ({ pageParam, signal }) => apiFetch('/db/getMessages', { query: { conversationId, page: pageParam }, schema: (s) => s.ZMessagePage, signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    enabled: conversationId !== null,
  });
}

/** A-098 (a state-changing GET): feedback on an answer. */
export function useFeedback() {
  return useMutation({
    mutationFn: ({ messageId, feedback }: { messageId: string; feedback: 'positive' | 'negative' }) =>
      apiFetch('/db/updateFeedback', { query: { messageId, feedback }, schema: (s) => s.ZUpdateFeedbackResponse }),
  });
}

/** the prompt generator's top 5 prompts. */
export function usePromptSuggestions() {
  return useMutation({
    mutationFn: async (message: string) => (await apiFetch('/gpt/message', { method: 'POST', body: { message }, schema: (s) => s.ZGptMessageResponse })).prompts,
  });
}

/** the board configuration the ticket form's dependent fields come from. */
export function useTicketingConfiguration(mspCustomDomain: string) {
  return useQuery({
    queryKey: assistantKeys.configuration(mspCustomDomain),
    queryFn: ({ signal }) => apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/getPSATicketingConfiguration`, { schema: (s) => s.ZTicketingConfiguration, signal }),
    staleTime: 60_000,
  });
}

/**
 * The companies a technician may create a ticket for (decision 028: the ticket form's own lookup;
 * A-008 belongs to the Companies screen and needs a user-management permission).
 */
export function useCompanyOptions(mspCustomDomain: string, search: string, isEnabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.companies(mspCustomDomain, search),
    queryFn: ({ signal }) =>
      apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/ticketForm/companies`, { query: { search: search === '' ? undefined : search }, schema: (s) => s.ZTicketFormCompanyOptions, signal }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/** The active contacts of the chosen company (decision 028: the ticket form's own lookup, not A-009). */
export function useContactOptions(mspCustomDomain: string, psaCompanyId: string | null, search: string) {
  return useQuery({
    queryKey: assistantKeys.contacts(mspCustomDomain, psaCompanyId ?? 'none', search),
    queryFn: ({ signal }) =>
      apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/ticketForm/contacts`, { query: { psaCompanyId, search: search === '' ? undefined : search }, schema: (s) => s.ZTicketFormContactOptions, signal }),
    enabled: psaCompanyId !== null,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === psaCompanyId ? previous : undefined),
  });
}

/** the first message starts a draft; the second round sends the answers. */
export function useDiagnose() {
  return useMutation({
    mutationFn: async (body: TDiagnosticQandABody) =>
      (await apiFetch('/psa/getTicketCategorizationDiagnosticQandA', { method: 'POST', body, schema: (s) => s.ZDiagnosticQandAResponse })).ticketDraft,
  });
}

function useInvalidateTickets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['support-tickets'] });
}

/** creates the ticket (through the server's PSA outbox: it may answer "pending in the PSA"). */
export function useCreateTicket(mspCustomDomain: string) {
  const invalidate = useInvalidateTickets();
  return useMutation({
    mutationFn: (body: TCreateTicketBody) => apiFetch('/psa/createTicket', { method: 'POST', query: { mspCustomDomain }, body, schema: (s) => s.ZCreateTicketResponse }),
    onSettled: invalidate,
  });
}

/** The draft additions (docs/api-additions.md): one path each, under the PSA service like A-108. */
export const TICKET_DRAFT_PATHS = {
  open: '/psa/ticketDraft/open',
  cancel: '/psa/ticketDraft/cancel',
  stepFeedback: '/psa/ticketDraft/stepFeedback',
  talkToTechnician: '/psa/ticketDraft/talkToTechnician',
} as const;

/**
 * The caller's own open draft (null when none), read once when the chat opens empty after a reload.
 * Not kept once the chat closes (gcTime 0): a later empty chat asks again rather than bring back a
 * draft cancelled or created since.
 */
export function useOpenTicketDraft(mspCustomDomain: string, isEnabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.openTicketDraft(mspCustomDomain),
    queryFn: async ({ signal }) => (await apiFetch(TICKET_DRAFT_PATHS.open, { query: { mspCustomDomain }, schema: (s) => s.ZOpenTicketDraftResponse, signal })).ticketDraft,
    enabled: isEnabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** cancel the draft; the answer carries "Ticket Creation Cancelled.". */
export function useCancelTicketDraft(mspCustomDomain: string) {
  return useMutation({
    mutationFn: (ticketDraftId: string) => apiFetch(TICKET_DRAFT_PATHS.cancel, { method: 'POST', query: { mspCustomDomain, ticketDraftId }, schema: (s) => s.ZCancelTicketDraftResponse }),
  });
}

/** Whether a troubleshooting step helped; the second "did not help" offers a technician at once. */
export function useStepFeedback(mspCustomDomain: string) {
  return useMutation({
    mutationFn: ({ ticketDraftId, stepId, helped }: { ticketDraftId: string; stepId: string; helped: boolean }) =>
      apiFetch(TICKET_DRAFT_PATHS.stepFeedback, { method: 'POST', query: { mspCustomDomain, ticketDraftId }, body: { stepId, helped }, schema: (s) => s.ZStepFeedbackResponse }),
  });
}

/** "Talk to a technician": the ticket is created with what was said so far. */
export function useTalkToTechnician(mspCustomDomain: string) {
  const invalidate = useInvalidateTickets();
  return useMutation({
    mutationFn: ({ ticketDraftId, psaCompanyId, psaContactId }: { ticketDraftId: string; psaCompanyId: string | null; psaContactId: string | null }) =>
      apiFetch(TICKET_DRAFT_PATHS.talkToTechnician, { method: 'POST', query: { mspCustomDomain, ticketDraftId }, body: { psaCompanyId, psaContactId }, schema: (s) => s.ZCreateTicketResponse }),
    onSettled: invalidate,
  });
}
