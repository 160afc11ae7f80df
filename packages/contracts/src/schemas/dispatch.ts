import { z } from 'zod';
import { ZCustomDomain } from './common';
import { ZQueueTicket, ZQueueTier } from './queue';

/**
 * Dispatch and SLA alerts (issue #10, beyond the spec; decision 018): the dispatcher's board of
 * technicians' loads and unassigned tickets, assignment from it, and the SLA alerts a technician sees.
 */
export const DISPATCH_PATHS = {
  /** GET: every technician's claimed and running tickets and the unassigned queue by SLA risk. */
  board: '/db/api/dispatch/board',
  /** POST: assign a queued ticket to a technician (a claim like any other). */
  assign: '/db/api/dispatch/assign',
  /** POST: take a claimed ticket back to the queue. */
  unassign: '/db/api/dispatch/unassign',
  /** GET: the caller's SLA alerts, newest first. */
  slaAlerts: '/db/api/slaAlerts',
  /** POST: mark SLA alerts read. */
  slaAlertsRead: '/db/api/slaAlerts/read',
} as const;

/** The SLA percentages at which the assignee is alerted; e-mail goes out at the last two. */
export const SLA_ALERT_THRESHOLDS = [50, 75, 90, 100] as const;
export const SLA_MAIL_THRESHOLDS = [90, 100] as const;

export const ZDispatchQuery = z.object({ mspCustomDomain: ZCustomDomain });
export const ZDispatchTechnician = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  tierLevel: ZQueueTier.nullable(),
  /** False for one deactivated while holding tickets: listed so those can be unassigned, never assigned anything new. */
  isActive: z.boolean(),
  claimedCount: z.number().int(),
  workingCount: z.number().int(),
  /** The ticket the technician's timer is running on, if any. */
  runningTicketId: z.number().int().nullable(),
  tickets: z.array(ZQueueTicket),
});
export type TDispatchTechnician = z.infer<typeof ZDispatchTechnician>;
export const ZDispatchBoard = z.object({
  technicians: z.array(ZDispatchTechnician),
  /** Queued tickets nobody has, the nearest SLA first (tickets without an SLA last). */
  unassigned: z.array(ZQueueTicket),
  unassignedTotal: z.number().int(),
});
export type TDispatchBoard = z.infer<typeof ZDispatchBoard>;

export const ZDispatchAssignBody = z.object({ id: z.uuid(), techId: z.uuid() });
export type TDispatchAssignBody = z.infer<typeof ZDispatchAssignBody>;
export const ZDispatchUnassignBody = z.object({ id: z.uuid() });
export type TDispatchUnassignBody = z.infer<typeof ZDispatchUnassignBody>;

export const ZSlaAlert = z.object({
  id: z.uuid(),
  queueTicketId: z.uuid(),
  ticketId: z.number().int(),
  title: z.string(),
  threshold: z.number().int(),
  slaDueAt: z.string().nullable(),
  createdAt: z.string(),
  isRead: z.boolean(),
});
export type TSlaAlert = z.infer<typeof ZSlaAlert>;
export const ZSlaAlertList = z.object({ alerts: z.array(ZSlaAlert), unreadCount: z.number().int() });
export type TSlaAlertList = z.infer<typeof ZSlaAlertList>;
export const ZSlaAlertsReadBody = z.object({ ids: z.array(z.uuid()).min(1).max(200) });
export type TSlaAlertsReadBody = z.infer<typeof ZSlaAlertsReadBody>;
