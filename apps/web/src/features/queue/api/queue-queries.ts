import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, NEXT_TICKETS_LIMIT, QUEUE_PATHS, timerPath, timerSessionsPath } from '@switchboard/contracts';
import type { TQueueTicket, TTimerResponse, TUpdateTicketBody } from '@switchboard/contracts';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { ticketFilterQuery, type TNoteCategory, type TTicketFilters } from '../queue-types';

/** Who is working: the signed-in technician (every queue call acts on the caller's own queue). */
export type TQueueActor = { mspCustomDomain: string; techId: string; psaMemberId: string | null };

export const queueKeys = {
  all: ['queue'] as const,
  msp: (msp: string) => [...queueKeys.all, msp] as const,
  allTickets: (msp: string, filter: TAllTicketsFilter) => [...queueKeys.msp(msp), 'all', filter] as const,
  working: (msp: string, techId: string) => [...queueKeys.msp(msp), 'working', techId] as const,
  eligible: (msp: string, techId: string, page: number) => [...queueKeys.msp(msp), 'eligible', techId, page] as const,
  sessions: (msp: string, ticketId: number, techId: string) => [...queueKeys.msp(msp), 'sessions', ticketId, techId] as const,
  toConfirm: (msp: string, techId: string) => [...queueKeys.msp(msp), 'toConfirm', techId] as const,
  notes: (msp: string, ticketId: number) => [...queueKeys.msp(msp), 'notes', ticketId] as const,
  activities: (msp: string, date: string | null, techId: string | null) => [...queueKeys.msp(msp), 'activities', date, techId] as const,
  statuses: (msp: string, boardId: number) => [...queueKeys.msp(msp), 'statuses', boardId] as const,
};

export type TAllTicketsFilter = { page: number; filters: TTicketFilters; search: string; sort: 'newest' | 'score'; show: 'open' | 'all' };

/** A-015 getAll: the MSP's queue tickets, 30 a page, filtered and sorted by the server. */
export function useAllTickets(msp: string, filter: TAllTicketsFilter) {
  return useQuery({
    queryKey: queueKeys.allTickets(msp, filter),
    queryFn: ({ signal }) =>
      apiFetch(QUEUE_PATHS.getAll, {
        query: {
          mspCustomDomain: msp,
          page: filter.page,
          ...ticketFilterQuery(filter.filters, filter.search),
          sort: filter.sort,
          show: filter.show,
        },
        schema: (s) => s.ZQueueTicketPage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** the technician's claimed and in-progress tickets; also what "My Ticket" shows after a reload. */
export function useWorkingTickets(actor: TQueueActor) {
  return useQuery({
    queryKey: queueKeys.working(actor.mspCustomDomain, actor.techId),
    queryFn: async ({ signal }) =>
      (await apiFetch(QUEUE_PATHS.currentWorking, { query: { mspCustomDomain: actor.mspCustomDomain, techId: actor.techId }, schema: (s) => s.ZQueueTicketList, signal }))
        .tickets,
  });
}

/** unclaimed tickets this technician may pick. */
export function useEligibleTickets(actor: TQueueActor, page: number, isEnabled: boolean) {
  return useQuery({
    queryKey: queueKeys.eligible(actor.mspCustomDomain, actor.techId, page),
    queryFn: async ({ signal }) =>
      (
        await apiFetch(QUEUE_PATHS.eligibleTickets, {
          query: { mspCustomDomain: actor.mspCustomDomain, techId: actor.techId, psaMemberId: actor.psaMemberId ?? undefined, page },
          schema: (s) => s.ZQueueTicketList,
          signal,
        })
      ).tickets,
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * this technician's sessions on a ticket; the timer is drawn from them. `clockOffsetMs` is how far
 * the server's clock is ahead of this browser's (taken when the answer arrives), so a running timer counts
 * from the server's start time by the server's clock, not a skewed local one.
 */
export function useTicketSessions(actor: TQueueActor, ticketId: number | null) {
  return useQuery({
    queryKey: queueKeys.sessions(actor.mspCustomDomain, ticketId ?? 0, actor.techId),
    queryFn: async ({ signal }) => {
      const answer = await apiFetch(timerSessionsPath(actor.mspCustomDomain, ticketId ?? 0, actor.techId), { schema: (s) => s.ZTimerSessionsResponse, signal });
      return { ...answer, clockOffsetMs: Date.parse(answer.serverTime) - Date.now() };
    },
    enabled: ticketId !== null,
  });
}

/**
 * The technician's finished sessions awaiting confirmation on any of their tickets (decision 043): a completed,
 * requeued or handed-back ticket leaves the list, and its flagged time must still be confirmable.
 */
export function useSessionsToConfirm(actor: TQueueActor) {
  return useQuery({
    queryKey: queueKeys.toConfirm(actor.mspCustomDomain, actor.techId),
    queryFn: async ({ signal }) =>
      (await apiFetch(timerPath(actor.mspCustomDomain, 'toConfirm'), { query: { techId: actor.techId }, schema: (s) => s.ZSessionsToConfirmResponse, signal })).sessions,
  });
}

/** The notes written through Switchboard for one ticket, with their PSA delivery state. */
export function useTicketNotes(msp: string, ticketId: number | null) {
  return useQuery({
    queryKey: queueKeys.notes(msp, ticketId ?? 0),
    queryFn: async ({ signal }) => (await apiFetch(QUEUE_PATHS.notes, { query: { mspCustomDomain: msp, ticketId: ticketId ?? 0 }, schema: (s) => s.ZQueueNoteItems, signal })).items,
    enabled: ticketId !== null,
  });
}

/** A-125 (one technician) or A-126 (the MSP) activities of a date. */
/** a day's activities; `date` null is today in the MSP's time zone (the server's day). */
export function useActivities(msp: string, date: string | null, techId: string | null) {
  return useQuery({
    queryKey: queueKeys.activities(msp, date, techId),
    queryFn: ({ signal }) =>
      techId === null
        ? apiFetch(QUEUE_PATHS.activities, { query: { mspCustomDomain: msp, date }, schema: (s) => s.ZActivitiesResponse, signal })
        : apiFetch(QUEUE_PATHS.activitiesOfTechnician, { query: { mspCustomDomain: msp, techId, date }, schema: (s) => s.ZActivitiesResponse, signal }),
    retry: false,
  });
}

/** the statuses of a ticket's board, for the edit form. */
export function useBoardStatuses(msp: string, boardId: number | null) {
  return useQuery({
    queryKey: queueKeys.statuses(msp, boardId ?? 0),
    queryFn: ({ signal }) => apiFetch('/psa/getConnectWiseStatuses', { query: { mspCustomDomain: msp, boardId: boardId ?? undefined }, schema: (s) => s.ZPsaStatusList, signal }),
    enabled: boardId !== null,
    staleTime: 5 * 60_000,
  });
}

function useInvalidateQueue(msp: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queueKeys.msp(msp) });
}

/** claims up to five next tickets for this technician (a state-changing GET). */
export function useNextTickets(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: async () =>
      (
        await apiFetch(QUEUE_PATHS.nextTickets, {
          query: { mspCustomDomain: actor.mspCustomDomain, techId: actor.techId, psaMemberId: actor.psaMemberId ?? undefined, limit: NEXT_TICKETS_LIMIT },
          schema: (s) => s.ZQueueTicketList,
        })
      ).tickets,
    onSettled: invalidate,
  });
}

/** pick one eligible ticket. */
export function useManualPick(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: async (ticket: TQueueTicket) =>
      (
        await apiFetch(QUEUE_PATHS.manualPick, {
          method: 'POST',
          query: { mspCustomDomain: actor.mspCustomDomain, techId: actor.techId, ticketQueueEntityId: ticket.id },
          schema: (s) => s.ZQueueTicketResponse,
        })
      ).ticket,
    onSettled: invalidate,
  });
}

export type TTimerAction = 'start' | 'pause' | 'resume' | 'complete';
const TIMER_FAILURE: Record<TTimerAction, { failed: string; network: string }> = {
  start: { failed: MESSAGES.queue.timer.startFailed, network: MESSAGES.queue.timer.startNetwork },
  pause: { failed: MESSAGES.queue.timer.pauseFailed, network: MESSAGES.queue.timer.pauseNetwork },
  resume: { failed: MESSAGES.queue.timer.resumeFailed, network: MESSAGES.queue.timer.resumeNetwork },
  complete: { failed: MESSAGES.queue.timer.completeFailed, network: MESSAGES.queue.timer.completeNetwork },
};

/** the server's text, else the spec's default, and the network wording when no answer came. */
export function timerErrorText(action: TTimerAction, error: unknown): string {
  if (isApiError(error)) {
    if (error.code === 'network') return TIMER_FAILURE[action].network;
    if (error.code !== 'invalid_response' && error.detail.trim() !== '') return error.detail;
  }
  return TIMER_FAILURE[action].failed;
}

/** A-114..A-117: start, pause, resume or complete the timer on a ticket (the server keeps the time). */
export function useTimerAction(actor: TQueueActor) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ticketId, notes }: { action: TTimerAction; ticketId: number; notes?: string }): Promise<TTimerResponse> =>
      apiFetch(timerPath(actor.mspCustomDomain, action), {
        method: 'POST',
        body: action === 'complete' ? { ticketId, techId: actor.techId, notes } : { ticketId, techId: actor.techId },
        schema: (s) => s.ZTimerResponse,
      }),
    onSettled: (_data, _error, variables) =>
      Promise.all([
        // A start pauses any other running timer of this technician, so every ticket's sessions may have changed.
        queryClient.invalidateQueries({ queryKey: variables.action === 'start' ? [...queueKeys.msp(actor.mspCustomDomain), 'sessions'] : queueKeys.sessions(actor.mspCustomDomain, variables.ticketId, actor.techId) }),
        // The first start moves the ticket from claimed to working.
        queryClient.invalidateQueries({ queryKey: queueKeys.working(actor.mspCustomDomain, actor.techId) }),
        // A session ended past midnight or after 12 hours now waits for its confirmation.
        queryClient.invalidateQueries({ queryKey: queueKeys.toConfirm(actor.mspCustomDomain, actor.techId) }),
      ]),
  });
}

const NOTE_FLAGS: Record<TNoteCategory, string> = { Description: 'detailDescriptionFlag', Internal: 'internalAnalysisFlag', Resolution: 'resolutionFlag' };

/**
 * a note with its category's flag. The 'Technician: (id): ' label is the server's, with the
 * technician's PSA member id: this screen sent its Switchboard user id, and PSA notes read "Technician: (uuid): ".
 */
export function useAddNote(actor: TQueueActor) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, text, category }: { ticketId: number; text: string; category: TNoteCategory }) =>
      apiFetch(QUEUE_PATHS.addNotesToTicket, {
        method: 'POST',
        query: { mspCustomDomain: actor.mspCustomDomain, ticketId, [NOTE_FLAGS[category]]: 'true' },
        body: { info: '', text },
        schema: (s) => s.ZQueueNoteItems,
      }),
    onSettled: (_data, _error, variables) => queryClient.invalidateQueries({ queryKey: queueKeys.notes(actor.mspCustomDomain, variables.ticketId) }),
  });
}

/**
 * A-119 with A-113 in one call (`close=true`, decision 043): the completion and the PSA close are kept together
 * on the server, the close retried by its outbox until it lands. Two calls lost the close when the second failed: the
 * ticket stayed open in the PSA while this screen said "completed and closed". The answer's `close` says how far it got.
 */
export function useCompleteTicket(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: (ticket: TQueueTicket) =>
      apiFetch(QUEUE_PATHS.completeTicket, {
        method: 'POST',
        query: { mspCustomDomain: actor.mspCustomDomain, ticketId: ticket.ticketId, techId: actor.techId, close: 'true' },
        schema: (s) => s.ZCompleteTicketResponse,
      }),
    onSettled: invalidate,
  });
}

/** back to the queue with a hold time, the assignment flag and a tier. */
export function useRequeueTicket(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: ({ ticket, holdTimeInHours, assignedFlag, newTier }: { ticket: TQueueTicket; holdTimeInHours: number; assignedFlag: boolean; newTier: string }) =>
      apiFetch(QUEUE_PATHS.requeueTicket, {
        method: 'POST',
        query: { mspCustomDomain: actor.mspCustomDomain, techId: actor.techId, holdTimeInHours, assignedFlag: String(assignedFlag), newTier },
        body: ticket,
        schema: (s) => s.ZRequeueResponse,
      }),
    onSettled: invalidate,
  });
}

/** Mark incomplete (decisions #18: persisted). */
export function useMarkIncomplete(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: (ticket: TQueueTicket) =>
      apiFetch(QUEUE_PATHS.markIncomplete, {
        method: 'POST',
        query: { mspCustomDomain: actor.mspCustomDomain, ticketId: ticket.ticketId, techId: actor.techId },
        schema: (s) => s.ZQueueTicketResponse,
      }),
    onSettled: invalidate,
  });
}

/** save the edit form. */
export function useUpdateTicket(msp: string) {
  const invalidate = useInvalidateQueue(msp);
  return useMutation({
    mutationFn: ({ ticketId, body }: { ticketId: number; body: TUpdateTicketBody }) =>
      apiFetch(`${QUEUE_PATHS.updateTicket}/${ticketId}`, { method: 'PUT', query: { mspCustomDomain: msp }, body, schema: (s) => s.ZUpdateTicketResponse }),
    onSettled: invalidate,
  });
}

/** Hand a claimed ticket back with a reason (addition): not offered to this technician again for a while; the reason becomes an internal PSA note. */
export function useRejectTicket(actor: TQueueActor) {
  const invalidate = useInvalidateQueue(actor.mspCustomDomain);
  return useMutation({
    mutationFn: ({ ticket, reason }: { ticket: TQueueTicket; reason: string }) =>
      apiFetch(QUEUE_PATHS.rejectTicket, {
        method: 'POST',
        query: { mspCustomDomain: actor.mspCustomDomain, ticketId: ticket.ticketId, techId: actor.techId },
        body: { reason },
        schema: (s) => s.ZRejectTicketResponse,
      }),
    onSettled: invalidate,
  });
}

/** Confirm a session that ran past midnight or over 12 hours (addition), optionally with a corrected end. */
export function useConfirmSession(actor: TQueueActor) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId }: { sessionId: string; ticketId: number }) =>
      apiFetch(timerPath(actor.mspCustomDomain, 'confirm'), { method: 'POST', body: { sessionId, techId: actor.techId }, schema: (s) => s.ZTimerConfirmResponse }),
    onSettled: (_data, _error, variables) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queueKeys.sessions(actor.mspCustomDomain, variables.ticketId, actor.techId) }),
        queryClient.invalidateQueries({ queryKey: queueKeys.toConfirm(actor.mspCustomDomain, actor.techId) }),
      ]),
  });
}
