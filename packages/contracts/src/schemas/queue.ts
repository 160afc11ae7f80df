import { z } from 'zod';
import { TIER_LEVELS } from '../constants';
import { ZCustomDomain } from './common';

/**
 * The technician queue (issue #10; 02 §3, §4, §7; DESIGN §8): queue tickets, claims,
 * timers, notes, requeue, completion. Ids: `ticketId` is always the PSA's ticket id (a number, as
 * the PSA calls it); `id` / `ticketQueueEntityId` is the queue entry's own uuid; `techId` is the
 * technician's user id. Every technician call acts on the caller's own queue (techId must be the
 * signed-in technician; reads of another technician need technicianUserManagement or adminPortal).
 */

/** Where each queue call lives (catalogue ids; additions in docs/api-additions.md). */
export const QUEUE_PATHS = {
  /** A-015 GET: all queue tickets of the MSP, 30 per page. */
  getAll: '/db/api/ticketQueue/getAll',
  /** A-122 GET (state-changing, CSRF header required): claims up to `limit` (5) next tickets. */
  nextTickets: '/db/api/ticketQueue/nextTickets',
  /** A-123 GET: the technician's claimed and in-progress tickets. */
  currentWorking: '/db/api/ticketQueue/currentWorking',
  /** A-124 GET: unclaimed tickets the technician may pick, best first. */
  eligibleTickets: '/db/api/ticketQueue/eligibleTickets',
  /** A-125 GET: one technician's activities on a date. */
  activitiesOfTechnician: '/db/api/ticketQueue/activities/tech',
  /** A-126 GET: all activities of the MSP on a date. */
  activities: '/db/api/ticketQueue/activities',
  /** A-127 POST: pick one eligible ticket by its queue entry id. */
  manualPick: '/db/api/ticketQueue/manualPick',
  /** A-119 POST: mark complete (sent together with A-113 closeTicket). */
  completeTicket: '/db/api/ticketQueue/completeticket',
  /** A-120 POST: alias of A-119 (decisions #1). */
  complete: '/db/api/ticketQueue/complete',
  /** A-121 POST: back to the queue with a hold time, assignment flag and new tier. */
  requeueTicket: '/db/api/ticketQueue/requeueticket',
  /** Addition (decisions #5, #18): mark a completed ticket incomplete again (persisted). */
  markIncomplete: '/db/api/ticketQueue/markIncomplete',
  /** Addition: hand a claimed ticket back with a reason (an internal note in the PSA). */
  rejectTicket: '/db/api/ticketQueue/rejectTicket',
  /** Addition: release the caller's claimed but unstarted tickets (also done on sign-out / idle). */
  release: '/db/api/ticketQueue/release',
  /** Addition: the notes written through Switchboard for a ticket, with their PSA delivery state. */
  notes: '/db/api/ticketQueue/notes',
  /** Addition GET/PUT: the MSP's queue ordering weights (PUT needs adminPortal). */
  weights: '/db/api/ticketQueue/weights',
  /**
   * A-114..A-117 POST `${timerBase}/${mspCustomDomain}/start|pause|resume|complete`; A-118 GET
   * `${timerBase}/${mspCustomDomain}/${ticketId}/${techId}`; additions POST `…/confirm` and GET `…/toConfirm?techId`.
   */
  timerBase: '/db/api/ticketActivities',
  /** A-110 POST: add a note (info label + text). */
  addNoteToTicket: '/psa/addNoteToTicket',
  /** A-111 POST: add a categorised note (flags / noteType in the query). */
  addNotesToTicket: '/psa/addNotesToTicket',
  /** A-112 PUT `${updateTicket}/${ticketId}`: save edits to a ticket. */
  updateTicket: '/psa/updateTicket',
  /** A-113 POST: close the ticket at the PSA with the board's closing status. */
  closeTicket: '/psa/closeTicket',
} as const;

/** Build the timer paths (A-114..A-118). */
export const timerPath = (mspCustomDomain: string, action: 'start' | 'pause' | 'resume' | 'complete' | 'confirm' | 'toConfirm') =>
  `${QUEUE_PATHS.timerBase}/${encodeURIComponent(mspCustomDomain)}/${action}`;
export const timerSessionsPath = (mspCustomDomain: string, ticketId: number, techId: string) =>
  `${QUEUE_PATHS.timerBase}/${encodeURIComponent(mspCustomDomain)}/${ticketId}/${encodeURIComponent(techId)}`;

/** Queue page size (02 §9: queue tickets per page 30) and next-tickets batch (limit 5). */
export const QUEUE_PAGE_SIZE = 30;
export const NEXT_TICKETS_LIMIT = 5;
/** The longest requeue hold: 30 days. */
export const MAX_HOLD_HOURS = 720;

const ZBooleanQuery = z.enum(['true', 'false']);
/** A PSA id (ticket, board, note type): a PostgreSQL integer, so a larger number is refused with a 400, not a database error. */
const ZPsaId = z.coerce.number().int().positive().max(2_147_483_647);
const ZTicketId = ZPsaId;
const ZTechId = z.uuid();
/** An ISO date (2026-11-23; a date-time's date part is taken); the server words a bad one after the tenant checks. */
const ZIsoDate = z.string().trim().max(40);

/** Tier of a queue ticket or technician; NoTier is shown as "No Dispatching" (decisions #9). */
export const ZQueueTier = z.enum(TIER_LEVELS);
export type TQueueTier = z.infer<typeof ZQueueTier>;
export const ZImpactLevel = z.enum(['Low', 'Medium', 'High']);

/**
 * Where a queue ticket stands: `queued` (anyone eligible may get it), `held` (requeued with a hold
 * time not yet over), `claimed` (given to a technician, no timer yet), `working` (a timer was
 * started), `completed`, `closed` (closed in the PSA).
 */
export const ZQueueState = z.enum(['queued', 'held', 'claimed', 'working', 'completed', 'closed']);
export type TQueueState = z.infer<typeof ZQueueState>;

/** Delivery of a write to the PSA through the outbox. */
export const ZPsaWriteState = z.object({
  status: z.enum(['done', 'pending', 'failed']),
  /** Plain words when pending or failed (e.g. "The PSA is not answering right now…"). */
  message: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type TPsaWriteState = z.infer<typeof ZPsaWriteState>;

/** A queue ticket (02 §3, R-291) plus what the queue screens need. */
export const ZQueueTicket = z.object({
  id: z.uuid(),
  ticketId: z.number().int(),
  /** Ticket number, company and contact in one line. */
  ticketInformation: z.string(),
  title: z.string(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  subCategoryId: z.number().int().nullable(),
  subCategoryName: z.string().nullable(),
  boardId: z.number().int().nullable(),
  boardName: z.string().nullable(),
  priority: z.string().nullable(),
  priorityId: z.number().int().nullable(),
  impact: ZImpactLevel.nullable(),
  severity: ZImpactLevel.nullable(),
  tier: ZQueueTier,
  status: z.string().nullable(),
  statusId: z.number().int().nullable(),
  description: z.string().nullable(),
  completed: z.boolean(),
  completedAt: z.string().nullable(),
  closed: z.boolean(),
  // Additions beyond 02 §3.
  companyName: z.string().nullable(),
  contactName: z.string().nullable(),
  state: ZQueueState,
  /** The ordering score (higher first) by the MSP's weights. */
  score: z.number(),
  /** When the SLA runs out (created + the subtype's SLA hours); null when the subtype is unknown. */
  slaDueAt: z.string().nullable(),
  /** When the SLA clock started: the ticket's creation, or its reopen in the PSA (which restarts it); null without an SLA. Ours. */
  slaStartedAt: z.string().nullable().optional(),
  createdAt: z.string().nullable(),
  assignedTechId: z.uuid().nullable(),
  assignedTechName: z.string().nullable(),
  claimedAt: z.string().nullable(),
  holdUntil: z.string().nullable(),
  /** PSA writes of this ticket not yet delivered and still being retried (the "pending in the PSA" badge). */
  psaPendingWrites: z.number().int(),
  /** PSA writes of this ticket the PSA refused for good, until an admin sends them again or discards them (the "not in the PSA" badge). */
  psaFailedWrites: z.number().int(),
});
export type TQueueTicket = z.infer<typeof ZQueueTicket>;

export const ZQueueTicketList = z.object({ tickets: z.array(ZQueueTicket) });
export type TQueueTicketList = z.infer<typeof ZQueueTicketList>;
export const ZQueueTicketPage = ZQueueTicketList.extend({ total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export type TQueueTicketPage = z.infer<typeof ZQueueTicketPage>;
export const ZQueueTicketResponse = z.object({ ticket: ZQueueTicket });
export type TQueueTicketResponse = z.infer<typeof ZQueueTicketResponse>;

const ZMspQuery = z.object({ mspCustomDomain: ZCustomDomain });

/** A-015 getAll: filters and paging; sort Newest (default) or Score. */
export const ZQueueGetAllQuery = ZMspQuery.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  boardId: ZPsaId.optional(),
  categoryId: z.coerce.number().int().positive().optional(),
  subCategoryId: z.coerce.number().int().positive().optional(),
  priorityId: z.coerce.number().int().positive().optional(),
  search: z.string().trim().max(200).optional(),
  sort: z.enum(['newest', 'score']).default('newest'),
  /** open (default): not completed nor closed; all: everything. */
  show: z.enum(['open', 'all']).default('open'),
});
export type TQueueGetAllQuery = z.infer<typeof ZQueueGetAllQuery>;

/** A-122 nextTickets. psaMemberId is accepted for fidelity; the server uses the technician's own. */
export const ZNextTicketsQuery = ZMspQuery.extend({
  techId: ZTechId,
  psaMemberId: z.string().trim().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(NEXT_TICKETS_LIMIT).default(NEXT_TICKETS_LIMIT),
});
export type TNextTicketsQuery = z.infer<typeof ZNextTicketsQuery>;

/** A-123 currentWorking. */
export const ZCurrentWorkingQuery = ZMspQuery.extend({ techId: ZTechId });
/** A-124 eligibleTickets. */
export const ZEligibleTicketsQuery = ZMspQuery.extend({
  techId: ZTechId,
  psaMemberId: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** A-127 manualPick. */
export const ZManualPickQuery = ZMspQuery.extend({ techId: ZTechId, ticketQueueEntityId: z.uuid() });

/** complete, and mark incomplete. */
export const ZQueueTicketActionQuery = ZMspQuery.extend({ ticketId: ZTicketId, techId: ZTechId });
export type TQueueTicketActionQuery = z.infer<typeof ZQueueTicketActionQuery>;
/**
 * A-119 / A-120 query. `close` (addition, decision 043): 'true' closes the ticket in the same transaction, its PSA
 * close (A-113's, with the board's closing status) kept in the outbox, so a close can no longer be lost between two calls.
 */
export const ZCompleteTicketQuery = ZQueueTicketActionQuery.extend({ close: ZBooleanQuery.default('false') });
export type TCompleteTicketQuery = z.infer<typeof ZCompleteTicketQuery>;

/**
 * answer: the completed ticket; totalWorkHours from its sessions. Additions: `awaitsConfirmation`, a
 * work session of the completed timer ran past midnight or over 12 hours, so its time entry waits for the technician's
 * confirmation (listed by `…/toConfirm`); `close`, the PSA close's delivery when `close=true` (null otherwise); `timeEntry`
 * (review s29, finding 1), the delivery of the time entries it sent as one state (failed when any failed, else pending
 * when any waits; null when it sent none), so a refused entry is told to the technician, not only to an admin.
 */
export const ZCompleteTicketResponse = z.object({
  ticket: ZQueueTicket,
  totalWorkHours: z.number(),
  awaitsConfirmation: z.boolean().default(false),
  close: ZPsaWriteState.nullable().default(null),
  timeEntry: ZPsaWriteState.nullable().default(null),
});
export type TCompleteTicketResponse = z.infer<typeof ZCompleteTicketResponse>;

/** A-121 requeueticket: query. holdTimeInHours 0 (none) to MAX_HOLD_HOURS; newTier optional (keeps the tier). */
export const ZRequeueQuery = ZMspQuery.extend({
  techId: ZTechId,
  holdTimeInHours: z.coerce.number().min(0).max(MAX_HOLD_HOURS).default(0),
  assignedFlag: ZBooleanQuery.default('false'),
  newTier: ZQueueTier.optional(),
});
export type TRequeueQuery = z.infer<typeof ZRequeueQuery>;
/**
 * A-121 body: "the ticket". Only its identity is read (`id` or `ticketId`); an empty body or a
 * ticket the technician is not working answers "No active ticket to requeue".
 */
export const ZRequeueBody = z
  .object({ id: z.uuid().optional(), ticketId: ZTicketId.optional() })
  .loose()
  .nullish();
export type TRequeueBody = z.infer<typeof ZRequeueBody>;

/** Reject with a reason (addition): the ticket is not offered to this technician again for a while. */
export const ZRejectTicketQuery = ZQueueTicketActionQuery;
export const ZRejectTicketBody = z.object({ reason: z.string().trim().max(2000).default('') });
export type TRejectTicketBody = z.infer<typeof ZRejectTicketBody>;
/** `awaitsConfirmation` (addition): the handed-back ticket's timer holds a session to confirm before its time is sent. */
export const ZRejectTicketResponse = z.object({
  ticketId: z.number().int(),
  rejectedUntil: z.string(),
  note: ZPsaWriteState,
  awaitsConfirmation: z.boolean().default(false),
  timeEntry: ZPsaWriteState.nullable().default(null),
});
/** A-121 answer: the ticket; `awaitsConfirmation` and `timeEntry` (additions) as on a completion. */
export const ZRequeueResponse = ZQueueTicketResponse.extend({ awaitsConfirmation: z.boolean().default(false), timeEntry: ZPsaWriteState.nullable().default(null) });

/** Release claimed-but-unstarted tickets (addition). */
export const ZReleaseQuery = ZMspQuery.extend({ techId: ZTechId });
export const ZReleaseResponse = z.object({ released: z.number().int() });

/** A-125 activities/tech and A-126 activities: `date` is an ISO date (today by default, UTC). */
export const ZActivitiesOfTechnicianQuery = ZMspQuery.extend({ techId: ZTechId, date: ZIsoDate.optional() });
export const ZActivitiesQuery = ZMspQuery.extend({ date: ZIsoDate.optional() });

/** A timer session (02 §3 Timer session; R-302). */
export const ZTimerSession = z.object({
  id: z.uuid(),
  ticketId: z.number().int(),
  technicianId: z.uuid(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  minutes: z.number(),
  /** Running across midnight or for over 12 hours: the technician must confirm it. */
  flag: z.enum(['pastMidnight', 'overTwelveHours']).nullable(),
  confirmedAt: z.string().nullable(),
});
export type TTimerSession = z.infer<typeof ZTimerSession>;

/** One ticket's work by one technician on a date. */
export const ZActivity = z.object({
  techId: z.uuid(),
  technicianName: z.string(),
  ticketId: z.number().int(),
  queueTicketId: z.uuid(),
  title: z.string(),
  sessions: z.array(ZTimerSession),
  /** Minutes worked that day, without time awaiting confirmation. */
  totalWorkMinutes: z.number(),
  /**
   * Addition (decision 043): minutes of that day in sessions flagged for running past midnight or over 12 hours and
   * not yet confirmed, left out of totalWorkMinutes until the technician confirms them.
   */
  unconfirmedMinutes: z.number().default(0),
  completed: z.boolean(),
  completedAt: z.string().nullable(),
  slaMet: z.boolean().nullable(),
});
export type TActivity = z.infer<typeof ZActivity>;
export const ZActivityTotals = z.object({
  techId: z.uuid(),
  technicianName: z.string(),
  totalWorkMinutes: z.number(),
  /** Addition (decision 043): as on an activity, the technician's minutes that day awaiting confirmation. */
  unconfirmedMinutes: z.number().default(0),
  ticketsCompleted: z.number().int(),
  slaMet: z.number().int(),
});
export const ZActivitiesResponse = z.object({
  date: z.string(),
  /** The MSP's time zone (queue settings), whose midnight to midnight is the day (addition). */
  timeZone: z.string(),
  activities: z.array(ZActivity),
  totals: z.array(ZActivityTotals),
  /**
   * Addition: the latest day before `date` (YYYY-MM-DD, in `timeZone`) with work recorded in the same scope (the
   * technician's for A-125, the MSP's for A-126), so a screen can offer it from an empty day; absent when there is none.
   */
  previousDayWithWork: z.string().optional(),
});
export type TActivitiesResponse = z.infer<typeof ZActivitiesResponse>;

/** A-114..A-116 body. */
export const ZTimerBody = z.object({ ticketId: ZTicketId, techId: ZTechId });
export type TTimerBody = z.infer<typeof ZTimerBody>;
/** A-117 body: optional notes (e.g. 'Ticket completed'), sent to the PSA with the time entry. */
export const ZTimerCompleteBody = ZTimerBody.extend({ notes: z.string().trim().max(4000).optional() });
export type TTimerCompleteBody = z.infer<typeof ZTimerCompleteBody>;
export const ZTimerParams = z.object({ mspCustomDomain: ZCustomDomain });

/**
 * A-114..A-117 answer (02 §7). sessionStarted: the first session's start; newSessionStartTime: the
 * running session's start (null when paused or completed); error: null on success (failures are
 * problem+json whose detail the screen shows, else its default 'Failed to … timer').
 */
export const ZTimerResponse = z.object({
  ticketId: z.number().int(),
  technicianId: z.uuid(),
  sessionStarted: z.string().nullable(),
  newSessionStartTime: z.string().nullable(),
  totalWorkHours: z.number(),
  error: z.string().nullable(),
  // Additions.
  state: z.enum(['running', 'paused', 'completed']),
  totalWorkMinutes: z.number(),
  /** The PSA time entry of a completion (null before completion). */
  timeEntry: ZPsaWriteState.nullable(),
});
export type TTimerResponse = z.infer<typeof ZTimerResponse>;

/** A-118 params and answer. */
export const ZTimerSessionsParams = z.object({ mspCustomDomain: ZCustomDomain, ticketId: ZTicketId, techId: ZTechId });
/** `serverTime` (addition): the server's clock when it answered, so a screen can tick from the server's time, not its own. */
export const ZTimerSessionsResponse = z.object({ sessions: z.array(ZTimerSession), totalWorkMinutes: z.number(), isActive: z.boolean(), serverTime: z.iso.datetime() });
export type TTimerSessionsResponse = z.infer<typeof ZTimerSessionsResponse>;

/** Confirm (and optionally correct the end of) a flagged session (addition). */
/** endTime: an ISO 8601 date-time; the server words a bad one after finding the session. */
export const ZTimerConfirmBody = z.object({ sessionId: z.uuid(), techId: ZTechId, endTime: z.string().trim().max(40).optional() });
export type TTimerConfirmBody = z.infer<typeof ZTimerConfirmBody>;
export const ZTimerConfirmResponse = z.object({ session: ZTimerSession, timeEntry: ZPsaWriteState.nullable() });

/** The technician's finished sessions awaiting confirmation on any of their tickets (addition, decision 043). */
export const ZSessionsToConfirmQuery = z.object({ techId: ZTechId });
export const ZSessionToConfirm = ZTimerSession.extend({ ticketTitle: z.string() });
export type TSessionToConfirm = z.infer<typeof ZSessionToConfirm>;
export const ZSessionsToConfirmResponse = z.object({ sessions: z.array(ZSessionToConfirm) });
export type TSessionsToConfirmResponse = z.infer<typeof ZSessionsToConfirmResponse>;

/** Note categories (02 §2, R-314). */
export const NOTE_CATEGORIES = ['Description', 'Internal', 'Resolution'] as const;
export const ZNoteKind = z.enum(['description', 'internal', 'resolution']);
export type TNoteKind = z.infer<typeof ZNoteKind>;

/** A-110 query. */
export const ZAddNoteQuery = ZMspQuery.extend({ ticketId: ZTicketId });
/** A-111 query: the flag of the note's category; none set means a description note. */
export const ZAddNotesQuery = ZAddNoteQuery.extend({
  detailDescriptionFlag: ZBooleanQuery.optional(),
  internalAnalysisFlag: ZBooleanQuery.optional(),
  resolutionFlag: ZBooleanQuery.optional(),
  /** Autotask note type id. */
  noteType: ZPsaId.optional(),
});
export type TAddNotesQuery = z.infer<typeof ZAddNotesQuery>;
/** A-110 / A-111 body: a note on the caller's own open ticket; blank text is refused. `info` (R-315's 'Technician: (id): ' label) is accepted for the spec's shape but ignored: the server writes its own label. */
export const ZAddNoteBody = z.object({ info: z.string().max(200).default(''), text: z.string().max(20_000) });
export type TAddNoteBody = z.infer<typeof ZAddNoteBody>;

/** A note written through Switchboard, with its delivery to the PSA. */
export const ZQueueNote = z.object({
  id: z.uuid(),
  ticketId: z.number().int(),
  kind: ZNoteKind,
  noteType: z.number().int().nullable(),
  info: z.string(),
  text: z.string(),
  createdAt: z.string(),
  createdBy: z.uuid().nullable(),
  psaNoteId: z.number().int().nullable(),
  psa: ZPsaWriteState,
});
export type TQueueNote = z.infer<typeof ZQueueNote>;
/** answer (R-315 "items") and the notes read. */
export const ZQueueNoteItems = z.object({ items: z.array(ZQueueNote) });
export type TQueueNoteItems = z.infer<typeof ZQueueNoteItems>;
export const ZQueueNotesQuery = ZAddNoteQuery;

/** A-112 params, query and body (02 §7): every field optional; only those sent change. */
export const ZUpdateTicketParams = z.object({ ticketId: ZTicketId });
export const ZUpdateTicketQuery = ZMspQuery;
export const ZUpdateTicketBody = z.object({
  title: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(20_000).optional(),
  categoryName: z.string().trim().max(200).nullish(),
  categoryId: z.coerce.number().int().positive().nullish(),
  subCategoryName: z.string().trim().max(200).nullish(),
  subCategoryId: z.coerce.number().int().positive().nullish(),
  priority: z.string().trim().max(200).nullish(),
  priorityId: z.coerce.number().int().positive().nullish(),
  impact: ZImpactLevel.nullish(),
  severity: ZImpactLevel.nullish(),
  tier: ZQueueTier.nullish(),
  status: z.string().trim().max(200).nullish(),
  statusId: z.coerce.number().int().positive().nullish(),
});
export type TUpdateTicketBody = z.infer<typeof ZUpdateTicketBody>;
export const ZUpdateTicketResponse = z.object({ ticket: ZQueueTicket, psa: ZPsaWriteState });
export type TUpdateTicketResponse = z.infer<typeof ZUpdateTicketResponse>;

/** A-113 query: boardId optional (the ticket's board otherwise). */
export const ZCloseTicketQuery = ZMspQuery.extend({ ticketId: ZTicketId, boardId: ZPsaId.optional() });
/** A-113 answer: closed in Switchboard at once; the PSA close may still be pending (tolerated, R-320). */
/** `timeEntry` (addition): the delivery of the time entries of the timers the close completed, as on a completion. */
export const ZCloseTicketResponse = z.object({ ticketId: z.number().int(), closed: z.boolean(), closingStatus: z.string().nullable(), psa: ZPsaWriteState, timeEntry: ZPsaWriteState.nullable().default(null) });
export type TCloseTicketResponse = z.infer<typeof ZCloseTicketResponse>;

/** Whether `value` is an IANA time zone this runtime knows (UTC included). */
export function isTimeZone(value: string): boolean {
  if (value === '' || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The MSP's queue ordering (DESIGN §8): score = priorityWeight × priority score (0–100)
 * + subtypeWeight × subtype score (0–100) − slaWeight × hours of SLA left (negative once overdue)
 * + ageWeight × hours since the ticket was created. Higher first; own tier before lower tiers.
 */
export const ZQueueSettings = z.object({
  priorityWeight: z.number().min(0).max(100),
  subtypeWeight: z.number().min(0).max(100),
  slaWeight: z.number().min(0).max(100),
  ageWeight: z.number().min(0).max(100),
  /** How long a rejected ticket is not offered again to the technician who rejected it. */
  rejectCooldownMinutes: z.number().int().min(1).max(10_080),
  /** Idle time after which claimed but unstarted tickets go back to the queue (0: never). */
  idleReleaseMinutes: z.number().int().min(0).max(1_440),
  /** Release claimed but unstarted tickets when the technician signs out. */
  releaseOnSignOut: z.boolean(),
  /** The MSP's working-day time zone (IANA): a timer session that runs past midnight there is flagged. */
  timeZone: z.string().refine(isTimeZone, { message: 'Choose a time zone from the list (for example Europe/London or America/New_York).' }),
});
export type TQueueSettings = z.infer<typeof ZQueueSettings>;
export const ZQueueSettingsQuery = ZMspQuery;
export const ZQueueSettingsResponse = z.object({ settings: ZQueueSettings });
