import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DISPATCH_PATHS, RAG_LIMIT, RAG_MODE } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { queueKeys } from './queue-queries';

/** How often the open screens look for new SLA alerts and board changes (the server sweeps every minute). */
const REFRESH_MS = 30_000;

export const dispatchKeys = {
  board: (msp: string) => [...queueKeys.msp(msp), 'dispatch'] as const,
  alerts: (msp: string) => [...queueKeys.msp(msp), 'sla-alerts'] as const,
};

/**
 * The assistant's help for a ticket, keyed outside the queue's keys on purpose: a queue-wide refresh
 * (after an edit, a next, a completion) must not ask the assistant again and replace the answer the
 * technician is reading (it did: the answer "vanished" into a new one or an error).
 */
export const ticketAssistKeys = {
  troubleshoot: (msp: string, ticketId: number, question: string) => ['ticket-assist', msp, 'troubleshoot', ticketId, question] as const,
  resolutions: (msp: string, ticketId: number, query: string) => ['ticket-assist', msp, 'resolutions', ticketId, query] as const,
};

/** The dispatcher's board (decision 018). */
export function useDispatchBoard(msp: string) {
  return useQuery({
    queryKey: dispatchKeys.board(msp),
    queryFn: ({ signal }) => apiFetch(DISPATCH_PATHS.board, { query: { mspCustomDomain: msp }, schema: (s) => s.ZDispatchBoard, signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** Assign a queued ticket to a technician, or take an assigned one back. */
export function useDispatchAction(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { action: 'assign'; id: string; techId: string } | { action: 'unassign'; id: string }) =>
      (
        await apiFetch(input.action === 'assign' ? DISPATCH_PATHS.assign : DISPATCH_PATHS.unassign, {
          method: 'POST',
          query: { mspCustomDomain: msp },
          body: input.action === 'assign' ? { id: input.id, techId: input.techId } : { id: input.id },
          schema: (s) => s.ZQueueTicketResponse,
        })
      ).ticket,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queueKeys.msp(msp) }),
  });
}

/** The signed-in technician's SLA alerts. */
export function useSlaAlerts(msp: string) {
  return useQuery({
    queryKey: dispatchKeys.alerts(msp),
    queryFn: ({ signal }) => apiFetch(DISPATCH_PATHS.slaAlerts, { query: { mspCustomDomain: msp }, schema: (s) => s.ZSlaAlertList, signal }),
    refetchInterval: REFRESH_MS,
  });
}

export function useMarkSlaAlertsRead(msp: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => apiFetch(DISPATCH_PATHS.slaAlertsRead, { method: 'POST', query: { mspCustomDomain: msp }, body: { ids }, schema: (s) => s.ZSlaAlertList }),
    onSuccess: (list) => queryClient.setQueryData(dispatchKeys.alerts(msp), list),
  });
}

/** A-096 queue troubleshoot use ({text}, R-337): the best steps for the ticket or a question about it. */
export function useTroubleshooting(msp: string, ticketId: number, question: string) {
  return useQuery({
    queryKey: ticketAssistKeys.troubleshoot(msp, ticketId, question),
    queryFn: ({ signal }) => apiFetch('/gpt/jarvisQandA', { method: 'POST', body: { text: question, ticketId: String(ticketId) }, schema: (s) => s.ZJarvisTroubleshootResponse, signal }),
    enabled: question.trim() !== '',
    // An answer to the same question about the same ticket is not refreshed behind the reader's back.
    staleTime: Infinity,
  });
}

/** A-100 with sources "resolutions" (R-334: limit 5, mode near): similar past resolutions of the ticket. */
export function useSimilarResolutions(msp: string, ticketId: number, query: string) {
  return useQuery({
    queryKey: ticketAssistKeys.resolutions(msp, ticketId, query),
    queryFn: ({ signal }) =>
      apiFetch('/gpt/rag/search', { method: 'POST', body: { query, mspCustomDomain: msp, limit: RAG_LIMIT, mode: RAG_MODE, ticketId: String(ticketId), sources: 'resolutions' }, schema: (s) => s.ZRagSearchResponse, signal }),
    enabled: query.trim() !== '',
    // An answer to the same question about the same ticket is not refreshed behind the reader's back.
    staleTime: Infinity,
  });
}
