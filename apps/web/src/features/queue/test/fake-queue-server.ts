import { vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import type { TQueueNote, TQueueTicket, TTimerSession } from '@switchboard/contracts';

/** The knowledge article the fake troubleshooting answers cite. */
export const LOCKOUT_ARTICLE = { id: '6b0e1f2a-0000-4000-8000-000000000011', title: 'Finding the source of repeated account lockouts', typeName: 'Accounts & Access', subTypeName: 'Account Locked Out' };

export const MSP = 'northwind';
export const TECH_ID = '00000000-0000-4000-8000-00000000aa01';
/** Today in the MSP's time zone, as the fake server answers a day's activities without a date. */
export const MSP_TODAY = '2026-11-27';

export function queueTicket(index: number, overrides: Partial<TQueueTicket> = {}): TQueueTicket {
  return {
    id: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
    ticketId: 1000 + index,
    ticketInformation: `#${1000 + index} · Contoso · Pat Doe`,
    title: `Printer ${index} is offline`,
    categoryId: 11,
    categoryName: 'Hardware',
    subCategoryId: 21,
    subCategoryName: 'Printer',
    boardId: 1,
    boardName: 'Service Desk',
    priority: 'Priority 2 - High',
    priorityId: 2,
    impact: 'Medium',
    severity: 'Medium',
    tier: 'Tier1',
    status: 'New',
    statusId: 5,
    description: `The printer on floor ${index} shows offline.`,
    completed: false,
    completedAt: null,
    closed: false,
    companyName: 'Contoso',
    contactName: 'Pat Doe',
    state: 'queued',
    score: 100 - index,
    slaDueAt: null,
    createdAt: new Date(Date.UTC(2026, 10, 1 + index)).toISOString(),
    assignedTechId: null,
    assignedTechName: null,
    claimedAt: null,
    holdUntil: null,
    psaPendingWrites: 0,
    psaFailedWrites: 0,
    ...overrides,
  };
}

export type TCall = { method: string; path: string; query: URLSearchParams; body: unknown };
type TAnswer = { status: number; body: unknown } | 'network';

/**
 * A fake of the queue API for the screen tests: the queue's state (claims, sessions, notes) lives
 * here, so the screens are exercised through real requests and answers. `failNext` makes the next
 * call of one path fail.
 */
export function startFakeQueueServer(options: { queued?: TQueueTicket[]; working?: TQueueTicket[]; completed?: TQueueTicket[]; now?: () => number } = {}) {
  const now = options.now ?? (() => Date.now());
  const queued = [...(options.queued ?? [])];
  const working = [...(options.working ?? [])];
  const completed: TQueueTicket[] = [...(options.completed ?? [])];
  const sessions = new Map<number, TTimerSession[]>();
  const notes = new Map<number, TQueueNote[]>();
  const calls: TCall[] = [];
  const failures = new Map<string, TAnswer>();
  let sequence = 0;
  let answers = 0;
  /** The PSA close's delivery a completion with close=true answers (the server's outbox state). */
  let closeState: { status: 'done' | 'pending' | 'failed'; message: string | null; nextAttemptAt: string | null } = { status: 'done', message: null, nextAttemptAt: null };
  /** The PSA time entry's delivery a completion or requeue answers (null: none sent). */
  let timeEntryState: typeof closeState | null = null;
  /** Whether the next completion's sessions ran past midnight (flagged, awaiting confirmation). */
  let flagNextCompletion = false;

  const problem = (status: number, detail: string, code = 'conflict') => ({ status, body: { type: 'about:blank', title: 'Error', status, detail, code, requestId: 'r' } });
  const ok = (body: unknown) => ({ status: 200, body });
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The technician's timer per ticket, as the server keeps it: a completed timer is not open (no pause, resume or complete). */
  const timers = new Map<number, 'running' | 'paused' | 'completed'>();
  const holds = new Map<string, Promise<void>>();
  const sessionsOf = (ticketId: number) => sessions.get(ticketId) ?? [];
  const isActive = (ticketId: number) => sessionsOf(ticketId).some((session) => session.endTime === null);
  const hasOpenTimer = (ticketId: number) => timers.get(ticketId) === 'running' || timers.get(ticketId) === 'paused';
  const closeOpen = (ticketId: number) => {
    for (const session of sessionsOf(ticketId)) if (session.endTime === null) session.endTime = iso(now());
  };
  const openSession = (ticketId: number) => {
    for (const [id] of sessions) {
      if (id === ticketId || !isActive(id)) continue;
      closeOpen(id);
      timers.set(id, 'paused');
    }
    timers.set(ticketId, 'running');
    sequence += 1;
    const session: TTimerSession = {
      id: `00000000-0000-4000-a000-${String(sequence).padStart(12, '0')}`,
      ticketId,
      technicianId: TECH_ID,
      startTime: iso(now()),
      endTime: null,
      minutes: 0,
      flag: null,
      confirmedAt: null,
    };
    sessions.set(ticketId, [...sessionsOf(ticketId), session]);
  };
  const timerAnswer = (ticketId: number, state: 'running' | 'paused' | 'completed') => ({
    ticketId,
    technicianId: TECH_ID,
    sessionStarted: sessionsOf(ticketId)[0]?.startTime ?? null,
    newSessionStartTime: sessionsOf(ticketId).find((session) => session.endTime === null)?.startTime ?? null,
    totalWorkHours: 0,
    error: null,
    state,
    totalWorkMinutes: 0,
    timeEntry: null,
  });

  function answer(method: string, path: string, query: URLSearchParams, body: unknown): TAnswer {
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      return failure;
    }
    const ticketIdOf = () => Number(query.get('ticketId') ?? (body as { ticketId?: number } | undefined)?.ticketId);
    if (path === '/db/api/ticketQueue/currentWorking') return ok({ tickets: working });
    if (path === '/db/api/ticketQueue/eligibleTickets') return ok({ tickets: queued });
    if (path === '/db/api/ticketQueue/nextTickets') {
      const claimed = queued.splice(0, 5).map((ticket) => ({ ...ticket, state: 'claimed' as const, assignedTechId: TECH_ID }));
      working.push(...claimed);
      return ok({ tickets: claimed });
    }
    if (path === '/db/api/ticketQueue/getAll') {
      const all = [...working, ...queued, ...(query.get('show') === 'all' ? completed : [])];
      const page = Number(query.get('page') ?? '1');
      const boardId = query.get('boardId');
      const search = query.get('search');
      const kept = all.filter((ticket) => (boardId === null || String(ticket.boardId) === boardId) && (search === null || ticket.title.toLowerCase().includes(search.toLowerCase())));
      return ok({ tickets: kept.slice((page - 1) * 30, page * 30), total: kept.length, page, pageSize: 30 });
    }
    if (path === '/db/api/ticketQueue/manualPick') {
      const index = queued.findIndex((ticket) => ticket.id === query.get('ticketQueueEntityId'));
      const [picked] = index === -1 ? [] : queued.splice(index, 1);
      if (!picked) return problem(409, 'Another technician is already working this ticket.');
      working.push({ ...picked, state: 'claimed' });
      return ok({ ticket: picked });
    }
    const timerMatch = /^\/db\/api\/ticketActivities\/[^/]+\/(start|pause|resume|complete)$/.exec(path);
    if (timerMatch) {
      const ticketId = ticketIdOf();
      const action = timerMatch[1];
      // As the server: start opens a new timer when none is open (or runs a paused one again); resume, pause and
      // complete need an open timer.
      if (action === 'start') {
        if (!isActive(ticketId)) openSession(ticketId);
        return ok(timerAnswer(ticketId, 'running'));
      }
      if (!hasOpenTimer(ticketId)) return problem(409, MESSAGES.queue.timer.noTimer);
      if (action === 'resume') {
        if (isActive(ticketId)) return problem(409, MESSAGES.queue.timer.alreadyRunning);
        openSession(ticketId);
        return ok(timerAnswer(ticketId, 'running'));
      }
      if (action === 'pause' && !isActive(ticketId)) return problem(409, MESSAGES.queue.timer.notRunning);
      closeOpen(ticketId);
      timers.set(ticketId, action === 'pause' ? 'paused' : 'completed');
      return ok(timerAnswer(ticketId, action === 'pause' ? 'paused' : 'completed'));
    }
    if (/^\/db\/api\/ticketActivities\/[^/]+\/toConfirm$/.test(path)) {
      const all = [...working, ...completed, ...queued];
      const waiting = [...sessions.entries()].flatMap(([ticketId, list]) =>
        list.filter((session) => session.flag !== null && session.confirmedAt === null && session.endTime !== null).map((session) => ({ ...session, ticketTitle: all.find((ticket) => ticket.ticketId === ticketId)?.title ?? '' })),
      );
      return ok({ sessions: waiting });
    }
    if (/^\/db\/api\/ticketActivities\/[^/]+\/confirm$/.test(path)) {
      const sessionId = (body as { sessionId: string }).sessionId;
      const session = [...sessions.values()].flat().find((each) => each.id === sessionId);
      if (!session) return problem(404, MESSAGES.queue.timer.sessionNotFound, 'not_found');
      if (session.confirmedAt !== null) return problem(409, MESSAGES.queue.timer.alreadyConfirmed);
      session.confirmedAt = iso(now());
      return ok({ session, timeEntry: { status: 'done', message: null, nextAttemptAt: null } });
    }
    const sessionsMatch = /^\/db\/api\/ticketActivities\/[^/]+\/(\d+)\/[^/]+$/.exec(path);
    if (sessionsMatch) {
      const ticketId = Number(sessionsMatch[1]);
      return ok({ sessions: sessionsOf(ticketId), totalWorkMinutes: 0, isActive: isActive(ticketId), serverTime: iso(now()) });
    }
    if (path === '/db/api/slaAlerts') return ok({ alerts: [], unreadCount: 0 }); // the SLA alerts panel's poll: none
    if (path === '/db/api/ticketQueue/notes') return ok({ items: notes.get(ticketIdOf()) ?? [] });
    if (path === '/psa/addNotesToTicket') {
      const ticketId = ticketIdOf();
      const kind = query.get('resolutionFlag') === 'true' ? 'resolution' : query.get('internalAnalysisFlag') === 'true' ? 'internal' : 'description';
      sequence += 1;
      const note: TQueueNote = {
        id: `00000000-0000-4000-b000-${String(sequence).padStart(12, '0')}`,
        ticketId,
        kind,
        noteType: null,
        info: (body as { info: string }).info,
        text: (body as { text: string }).text,
        createdAt: iso(now()),
        createdBy: TECH_ID,
        psaNoteId: null,
        psa: { status: 'pending', message: null, nextAttemptAt: null },
      };
      notes.set(ticketId, [...(notes.get(ticketId) ?? []), note]);
      return ok({ items: notes.get(ticketId) });
    }
    if (path === '/db/api/ticketQueue/completeticket') {
      const index = working.findIndex((ticket) => ticket.ticketId === ticketIdOf());
      const [done] = index === -1 ? [] : working.splice(index, 1);
      if (!done) return problem(404, 'There is no such ticket in the queue.', 'not_found');
      // R-319, as the server does: an open timer on the ticket is completed with it.
      if (hasOpenTimer(done.ticketId)) {
        closeOpen(done.ticketId);
        timers.set(done.ticketId, 'completed');
      }
      const awaitsConfirmation = flagNextCompletion;
      if (flagNextCompletion) {
        for (const session of sessionsOf(done.ticketId)) session.flag = 'pastMidnight';
        flagNextCompletion = false;
      }
      const isClose = query.get('close') === 'true';
      const finished = { ...done, completed: true, closed: isClose, state: isClose ? ('closed' as const) : ('completed' as const) };
      completed.push(finished);
      return ok({ ticket: finished, totalWorkHours: 0.1, awaitsConfirmation, close: isClose ? closeState : null, timeEntry: timeEntryState });
    }
    if (path === '/psa/closeTicket') return ok({ ticketId: ticketIdOf(), closed: true, closingStatus: 'Closed', psa: { status: 'done', message: null, nextAttemptAt: null } });
    if (path === '/db/api/ticketQueue/requeueticket') {
      const id = (body as { id?: string }).id;
      const index = working.findIndex((ticket) => ticket.id === id);
      const [back] = index === -1 ? [] : working.splice(index, 1);
      if (!back) return problem(409, 'No active ticket to requeue');
      queued.push({ ...back, state: 'queued' });
      return ok({ ticket: back, timeEntry: timeEntryState });
    }
    if (path === '/db/api/ticketQueue/markIncomplete') {
      const index = completed.findIndex((ticket) => ticket.ticketId === ticketIdOf());
      const [again] = index === -1 ? [] : completed.splice(index, 1);
      if (!again) return problem(409, 'This ticket is not completed, so it cannot be marked incomplete.');
      working.push({ ...again, completed: false, closed: false, state: 'working' });
      return ok({ ticket: again });
    }
    if (path === '/db/api/ticketQueue/activities/tech' || path === '/db/api/ticketQueue/activities') {
      const everyone = path === '/db/api/ticketQueue/activities';
      const totals = [{ techId: TECH_ID, technicianName: 'Jane Doe', totalWorkMinutes: 95, ticketsCompleted: 3, slaMet: 2 }];
      if (everyone) totals.push({ techId: '00000000-0000-4000-8000-00000000aa02', technicianName: 'Tomasz Nowak', totalWorkMinutes: 40, ticketsCompleted: 1, slaMet: 1 });
      return ok({
        // Without a date the server answers for today in the MSP's time zone.
        date: query.get('date') ?? MSP_TODAY,
        timeZone: 'America/New_York',
        activities: [{ techId: TECH_ID, technicianName: 'Jane Doe', ticketId: 1001, queueTicketId: queueTicket(1).id, title: 'Printer 1 is offline', sessions: [], totalWorkMinutes: 35, completed: true, completedAt: iso(now()), slaMet: false }],
        totals,
      });
    }
    // The assistant's help for the active ticket: every answer is numbered, so a re-asked question shows.
    if (path === '/gpt/jarvisQandA') {
      answers += 1;
      const text = (body as { text: string }).text;
      // Each answer cites the demo's lockout article twice (two of its passages), as the local engine does.
      const lockouts = { kind: 'article', id: LOCKOUT_ARTICLE.id, reference: null };
      const sources = [
        { ...lockouts, title: `${LOCKOUT_ARTICLE.title} — Steps` },
        { ...lockouts, title: `${LOCKOUT_ARTICLE.title} — Common sources` },
      ];
      return ok({ id: `answer-${answers}`, choices: [{ index: 0, message: { role: 'assistant', content: `Answer ${answers} to: ${text}` } }], engine: 'local', sources, notice: null });
    }
    if (path === `/db/${MSP}/knowledge/articles/${LOCKOUT_ARTICLE.id}`) return ok({ ...LOCKOUT_ARTICLE, body: '### Steps\n\n1. Filter the Security log for Event ID 4740.', createdAt: '2026-11-01T00:00:00.000Z' });
    if (path === '/gpt/rag/search') return ok({ ticketId: (body as { ticketId?: string }).ticketId ?? null, query: (body as { query: string }).query, results: [] });
    if (path === '/psa/getConnectWiseStatuses') {
      return ok([
        { id: 5, name: 'New', isClosed: false, boardId: 1, isDefault: true, isActive: true, sortOrder: 1 },
        { id: 6, name: 'In Progress', isClosed: false, boardId: 1, isDefault: false, isActive: true, sortOrder: 2 },
      ]);
    }
    const updateMatch = /^\/psa\/updateTicket\/(\d+)$/.exec(path);
    if (updateMatch && method === 'PUT') {
      const ticket = working.find((candidate) => candidate.ticketId === Number(updateMatch[1]));
      if (!ticket) return problem(404, 'There is no such ticket in the queue.', 'not_found');
      Object.assign(ticket, body);
      return ok({ ticket, psa: { status: 'pending', message: null, nextAttemptAt: null } });
    }
    if (path === '/db/northwind/getPSATicketingConfiguration') {
      return ok({
        mspCustomDomain: MSP,
        psaType: 'CONNECTWISE',
        isConfigured: true,
        connectWiseConfig: {
          boardDetails: [
            {
              boardId: 1,
              boardName: 'Service Desk',
              newCreatingTicketStatus: 'New',
              newCreatingTicketStatusId: 5,
              closingTicketStatus: 'Closed',
              closingTicketStatusId: 9,
              mspConnectWiseBoardTypes: [
                {
                  typeId: 11,
                  typeName: 'Hardware',
                  isNew: false,
                  mspConnectWiseBoardSubTypes: [
                    { subTypeId: 21, subTypeName: 'Printer', priorityId: 2, priority: 'Priority 2 - High', priorityScore: 8, subTypeScore: 5, tier: 'Tier1', slaDeadLineInHours: 4, isNew: false, typeAssociationIds: [11] },
                  ],
                },
              ],
              priorities: [{ priorityId: 2, priority: 'Priority 2 - High', priorityScore: 8 }],
            },
          ],
          defaultCompanyId: null,
          defaultCompanyName: null,
          boardTicketSync: [],
          syncClientsTypeId: null,
        },
      });
    }
    return problem(404, `No fake for ${method} ${path}`, 'not_found');
  }

  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const parsed = new URL(url, 'http://localhost');
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const method = init.method ?? 'GET';
      calls.push({ method, path: parsed.pathname, query: parsed.searchParams, body });
      const hold = holds.get(parsed.pathname);
      if (hold) {
        holds.delete(parsed.pathname);
        await hold;
      }
      const result = answer(method, parsed.pathname, parsed.searchParams, body);
      if (result === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(result.body), { status: result.status, headers: { 'content-type': 'application/json' } });
    }),
  );

  return {
    calls,
    callsTo: (path: string) => calls.filter((call) => call.path === path),
    /** The next call to `path` answers with this problem (or fails without an answer). */
    failNext: (path: string, failure: { status: number; detail: string } | 'network') =>
      failures.set(path, failure === 'network' ? 'network' : problem(failure.status, failure.detail)),
    sessionsOf,
    /** What the PSA close of the next completions (close=true) answers. */
    setCloseState: (state: typeof closeState) => void (closeState = state),
    /** What the PSA time entry of the next completions and requeues answers (null: none was sent). */
    setTimeEntryState: (state: typeof timeEntryState) => void (timeEntryState = state),
    /** The next completion's sessions ran past midnight: flagged, their time waiting for a confirmation. */
    flagNextCompletion: () => void (flagNextCompletion = true),
    /** Takes `count` tickets out of the queue, as other technicians taking them would. */
    removeQueued: (count: number) => void queued.splice(0, count),
    /** The next call to `path` waits for the returned release before it is answered (a slow server). */
    holdNext: (path: string) => {
      let release = () => {};
      holds.set(path, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
  };
}
