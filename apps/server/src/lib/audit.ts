import { auditEvents, type TDatabase } from '@switchboard/db';

export interface TAuditEvent {
  mspId?: string | null;
  actorKind: 'user' | 'account' | 'anonymous' | 'system';
  actorId?: string | null;
  action: string;
  target?: string | null;
  outcome: 'success' | 'failure';
  ip?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
}

export interface TAuditLog {
  /**
   * Writes one event through `db`. Pass the transaction of the mutation the event records, so the
   * two commit together or not at all; an event that records no change (a refused attempt) takes
   * the database itself.
   */
  record(db: TDatabase, event: TAuditEvent): Promise<void>;
}

/** Writes one audit event per mutation and sign-in attempt (DESIGN §4). */
export function createAuditLog(): TAuditLog {
  return {
    async record(db, event) {
      await db.insert(auditEvents).values({
        mspId: event.mspId ?? null,
        actorKind: event.actorKind,
        actorId: event.actorId ?? null,
        action: event.action,
        target: event.target ?? null,
        outcome: event.outcome,
        ip: event.ip ?? null,
        requestId: event.requestId ?? null,
        details: event.details ?? null,
      });
    },
  };
}

/** Who an event is by when a signed-in MSP user caused it: their MSP, their id, their address and the request. */
export function userAuditFields(actor: { mspId: string; userId: string; ip: string; requestId: string }): Pick<TAuditEvent, 'mspId' | 'actorKind' | 'actorId' | 'ip' | 'requestId'> {
  return { mspId: actor.mspId, actorKind: 'user', actorId: actor.userId, ip: actor.ip, requestId: actor.requestId };
}
