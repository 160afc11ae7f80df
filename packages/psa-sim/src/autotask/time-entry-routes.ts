import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute } from '../http';
import type { TSimTimeEntry } from '../store';
import { AT_API_PREFIX, atDate, atErrors, bodyField, countQuerySourceResponse, presentFieldDefinitions, querySourceResponse } from './common';
import type { TAtFieldDefinition, TAtRecord, TAtSource } from './common';
import { SERVICE_DESK_ROLE_ID } from './entities';

// TimeEntries (TimeEntryModel): time a resource worked on a ticket, in a role.

const SUMMARY_NOTES_MAX = 32000;
const MAX_ENTRY_HOURS = 24;

export const TIME_ENTRY_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'ticketID', dataType: 'integer', referenceEntityType: 'Ticket' },
  { name: 'taskID', dataType: 'integer', referenceEntityType: 'Task' },
  { name: 'resourceID', dataType: 'integer', isRequired: true, referenceEntityType: 'Resource' },
  { name: 'roleID', dataType: 'integer', isRequired: true, referenceEntityType: 'Role' },
  { name: 'dateWorked', dataType: 'datetime', isRequired: true },
  { name: 'startDateTime', dataType: 'datetime' },
  { name: 'endDateTime', dataType: 'datetime' },
  { name: 'hoursWorked', dataType: 'double', isRequired: true },
  { name: 'hoursToBill', dataType: 'double', isReadOnly: true },
  { name: 'summaryNotes', dataType: 'string', length: SUMMARY_NOTES_MAX },
  { name: 'internalNotes', dataType: 'string', length: SUMMARY_NOTES_MAX },
  { name: 'isNonBillable', dataType: 'boolean' },
  { name: 'timeEntryType', dataType: 'integer', isReadOnly: true },
  { name: 'createDateTime', dataType: 'datetime', isReadOnly: true },
];

/** Autotask's timeEntryType for time worked on a ticket. */
const TICKET_TIME_ENTRY_TYPE = 2;

export function presentAtTimeEntry(entry: TSimTimeEntry): TAtRecord {
  const dayStart = new Date(entry.startAt);
  dayStart.setUTCHours(0, 0, 0, 0);
  return {
    id: entry.id,
    ticketID: entry.ticketId,
    taskID: null,
    resourceID: entry.memberId,
    roleID: entry.roleId ?? SERVICE_DESK_ROLE_ID,
    dateWorked: atDate(dayStart.getTime()),
    startDateTime: atDate(entry.startAt),
    endDateTime: atDate(entry.endAt),
    hoursWorked: entry.hours,
    hoursToBill: entry.hours,
    summaryNotes: entry.notes,
    internalNotes: '',
    isNonBillable: false,
    timeEntryType: TICKET_TIME_ENTRY_TYPE,
    createDateTime: atDate(entry.createdAt),
  };
}

function readTimeEntry(context: TSimContext, body: Record<string, unknown>): Omit<TSimTimeEntry, 'id' | 'createdAt'> | { errors: string[] } {
  const errors: string[] = [];
  const number = (name: string): number | undefined => {
    const value = bodyField(body, name);
    if (value === undefined || value === null) {
      errors.push(`Missing Required Field: ${name}.`);
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      errors.push(`Value '${JSON.stringify(value)}' is not valid for ${name}.`);
      return undefined;
    }
    return value;
  };
  const time = (name: string, isRequired: boolean): number | undefined => {
    const value = bodyField(body, name);
    if (value === undefined || value === null) {
      if (isRequired) errors.push(`Missing Required Field: ${name}.`);
      return undefined;
    }
    const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(parsed)) errors.push(`Value '${JSON.stringify(value)}' is not a valid date for ${name}.`);
    return Number.isNaN(parsed) ? undefined : Math.floor(parsed / 1000) * 1000;
  };
  const ticketId = number('ticketID');
  if (ticketId !== undefined && !context.store.tickets.get(ticketId)) errors.push('Value does not reference an existing entity for ticketID .');
  const resourceId = number('resourceID');
  if (resourceId !== undefined && !context.store.members.get(resourceId)) errors.push('Value does not reference an existing entity for resourceID .');
  const roleId = number('roleID');
  if (roleId !== undefined && roleId !== SERVICE_DESK_ROLE_ID) errors.push('Value does not reference an existing entity for roleID .');
  time('dateWorked', true);
  const startAt = time('startDateTime', true);
  const endAt = time('endDateTime', true);
  const hours = number('hoursWorked');
  if (startAt !== undefined && endAt !== undefined && endAt <= startAt) errors.push('endDateTime must be after startDateTime.');
  if (hours !== undefined) {
    if (hours <= 0 || hours > MAX_ENTRY_HOURS) errors.push(`hoursWorked must be more than 0 and at most ${MAX_ENTRY_HOURS}.`);
    // Autotask refuses more hours than the start and end span (a second's rounding is allowed).
    else if (startAt !== undefined && endAt !== undefined && hours > (endAt - startAt) / 3_600_000 + 1 / 3600) errors.push('hoursWorked cannot exceed the time between startDateTime and endDateTime.');
  }
  const notes = bodyField(body, 'summaryNotes');
  if (typeof notes !== 'string' || notes.trim() === '') errors.push('Missing Required Field: summaryNotes.');
  else if (notes.length > SUMMARY_NOTES_MAX) errors.push(`summaryNotes exceeds the maximum length of ${SUMMARY_NOTES_MAX}.`);
  if (errors.length > 0 || ticketId === undefined || resourceId === undefined || roleId === undefined || startAt === undefined || endAt === undefined || hours === undefined || typeof notes !== 'string') {
    return { errors };
  }
  return { ticketId, memberId: resourceId, roleId, startAt, endAt, hours, notes, via: 'autotask' };
}

export function autotaskTimeEntryRoutes(context: TSimContext): TRoute[] {
  const base = `${AT_API_PREFIX}/TimeEntries`;
  const source = (): TAtSource<TSimTimeEntry> => ({ rows: context.store.timeEntries.all(), id: (entry) => entry.id, present: presentAtTimeEntry });
  return [
    ...(['query', 'query/next', 'query/prev'] as const).flatMap((suffix) => [
      route('POST', `${base}/${suffix}`, (request) => querySourceResponse(request, 'TimeEntries', TIME_ENTRY_FIELDS, source())),
      route('GET', `${base}/${suffix}`, (request) => querySourceResponse(request, 'TimeEntries', TIME_ENTRY_FIELDS, source())),
    ]),
    route('POST', `${base}/query/count`, (request) => countQuerySourceResponse(request, 'TimeEntries', TIME_ENTRY_FIELDS, source())),
    route('GET', `${base}/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, TIME_ENTRY_FIELDS))),
    route('GET', `${base}/{id}`, (_request, params) => {
      const entry = context.store.timeEntries.get(idParam(params));
      return json(200, { item: entry ? presentAtTimeEntry(entry) : null });
    }),
    route('POST', base, (request) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const id = bodyField(request.body, 'id');
      if (id !== undefined && id !== null && id !== 0) return atErrors(500, 'id must not be set when creating a TimeEntry.');
      const result = readTimeEntry(context, request.body);
      if ('errors' in result) return atErrors(500, ...result.errors);
      const entry = context.store.timeEntries.insert({ ...result, createdAt: context.store.now() });
      countCreate(context);
      return json(200, { itemId: entry.id });
    }),
  ];
}
