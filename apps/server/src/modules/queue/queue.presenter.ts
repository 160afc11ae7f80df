import type { TQueueSettings, TQueueTicket, TTimerSession } from '@switchboard/contracts';
import type { TQueueTicketRow } from './queue-tickets.repository';
import { minutesBetween, scoreAt, sessionFlag } from './queue.scoring';
import type { TTimerSessionRow } from './timers.repository';

const idNumber = (value: string | null): number | null => (value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null);
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

/** A queue row as the spec's queue ticket (02 §3, R-291) plus the queue's own fields. */
export function presentQueueTicket(row: TQueueTicketRow, settings: TQueueSettings, now: Date, psaWrites: { pending: number; failed: number } = { pending: 0, failed: 0 }): TQueueTicket {
  const information = [row.ticketNumber ? `#${row.ticketNumber}` : `#${row.psaTicketId}`, row.companyName, row.contactName].filter((part): part is string => part !== null && part !== '').join(' · ');
  const isHeld = row.state === 'queued' && row.holdUntil !== null && row.holdUntil > now;
  return {
    id: row.id,
    ticketId: row.psaTicketId,
    ticketInformation: information,
    title: row.summary,
    categoryId: idNumber(row.typeExternalId),
    categoryName: row.typeName,
    subCategoryId: idNumber(row.subtypeExternalId),
    subCategoryName: row.subtypeName,
    boardId: row.boardId,
    boardName: row.boardName,
    priority: row.priorityName,
    priorityId: idNumber(row.priorityExternalId),
    impact: row.impact,
    severity: row.severity,
    tier: row.tier,
    status: row.statusName,
    statusId: idNumber(row.statusExternalId),
    description: row.description,
    completed: row.state === 'completed' || (row.state === 'closed' && row.completedAt !== null),
    completedAt: isoOrNull(row.completedAt),
    closed: row.state === 'closed',
    companyName: row.companyName,
    contactName: row.contactName,
    state: isHeld ? 'held' : row.state,
    score: scoreAt(settings, row.rankKey, now),
    slaDueAt: isoOrNull(row.slaDueAt),
    // The due time less the subtype's hours: the creation, or the reopen that restarted the clock (queue-upkeep).
    slaStartedAt: row.slaDueAt !== null && row.slaHours !== null ? new Date(row.slaDueAt.getTime() - row.slaHours * 3_600_000).toISOString() : null,
    createdAt: isoOrNull(row.ticketCreatedAt),
    assignedTechId: row.assignedTechId,
    assignedTechName: row.assignedTechName,
    claimedAt: isoOrNull(row.claimedAt),
    holdUntil: isoOrNull(row.holdUntil),
    psaPendingWrites: psaWrites.pending,
    psaFailedWrites: psaWrites.failed,
  };
}

/** A work session; a running one shows its minutes so far and is flagged once it crosses midnight (in `timeZone`) or 12 hours. */
export function presentSession(session: TTimerSessionRow, psaTicketId: number, now: Date, timeZone: string): TTimerSession {
  const end = session.endedAt ?? now;
  return {
    id: session.id,
    ticketId: psaTicketId,
    technicianId: session.techId,
    startTime: session.startedAt.toISOString(),
    endTime: isoOrNull(session.endedAt),
    minutes: Math.round(minutesBetween(session.startedAt, end) * 100) / 100,
    flag: session.endedAt ? session.flag : sessionFlag(session.startedAt, now, timeZone),
    confirmedAt: isoOrNull(session.confirmedAt),
  };
}
