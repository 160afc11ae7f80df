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

export type TAuditLog = (event: TAuditEvent) => Promise<void>;

/** Writes one audit event per mutation and sign-in attempt (DESIGN §4). */
export function createAuditLog(db: TDatabase): TAuditLog {
  return async (event) => {
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
  };
}
