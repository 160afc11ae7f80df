import type { TActivityEvent } from '@switchboard/contracts';
import { kindOfAction, type TActivityRow } from './activity-log.repository';

/** Who did it, in words: the user's name, or what the event recorded about an unknown actor. */
function whoOf(row: TActivityRow): string {
  if (row.firstName !== null || row.lastName !== null) return `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim() || (row.email ?? 'Unknown user');
  const email = row.details?.email;
  if (typeof email === 'string' && email !== '') return email;
  if (row.actorKind === 'system') return 'System';
  if (row.actorKind === 'account') return 'Account';
  return row.actorId === null ? 'Anonymous' : 'Unknown user';
}

/** One event as the log shows it; `targetLabel` is the target in words (activity-log.targets.ts), when known. */
export function presentActivity(row: TActivityRow, targetLabel: string | null = null): TActivityEvent {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    who: whoOf(row),
    userId: row.firstName !== null ? row.actorId : null,
    action: row.action,
    kind: kindOfAction(row.action),
    target: row.target,
    targetLabel,
    outcome: row.outcome,
    ip: row.ip,
  };
}

// Target is what a person reads (the name when known); Target id is what the action recorded, for matching other records.
export const CSV_HEADER = ['When (UTC)', 'Who', 'Kind', 'Action', 'Target', 'Target id', 'Outcome', 'IP'];

/** One CSV field: quoted when needed; a leading =, +, - or @ is neutralised so spreadsheets do not run it. */
export function csvField(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: Array<string | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export function activityCsvLine(event: TActivityEvent): string {
  return csvLine([event.at, event.who, event.kind, event.action, event.targetLabel ?? event.target, event.target, event.outcome, event.ip]);
}
