import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute } from '../http';
import type { SimStore, TSimTimeEntry } from '../store';
import { CW_API_PREFIX, cwDate, cwError, cwInfo, cwInvalidObject, cwNotFound, itemResponse, listResponse, readObjectBody } from './common';
import type { TCwRecord, TCwValidationError } from './common';

// Time entries (`time/entries`, model TimeEntry) charged to a service ticket; ConnectWise derives actualHours itself.

const NOTES_MAX = 4000;
const MAX_ENTRY_HOURS = 24;

export function presentTimeEntry(store: SimStore, entry: TSimTimeEntry): TCwRecord {
  const member = store.members.get(entry.memberId);
  const ticket = store.tickets.get(entry.ticketId);
  const company = ticket ? store.companies.get(ticket.companyId) : undefined;
  const presented: TCwRecord = {
    id: entry.id,
    chargeToId: entry.ticketId,
    chargeToType: 'ServiceTicket',
    timeStart: cwDate(entry.startAt),
    timeEnd: cwDate(entry.endAt),
    actualHours: entry.hours,
    hoursDeduct: 0,
    billableOption: 'Billable',
    notes: entry.notes,
    addToDetailDescriptionFlag: false,
    addToInternalAnalysisFlag: false,
    addToResolutionFlag: false,
    _info: cwInfo(entry.createdAt, entry.createdAt),
  };
  if (member) presented.member = { id: member.id, identifier: member.identifier, name: `${member.firstName} ${member.lastName}` };
  if (ticket) presented.ticket = { id: ticket.id, summary: ticket.summary };
  if (company) presented.company = { id: company.id, identifier: company.identifier, name: company.name };
  return presented;
}

function readTime(value: unknown, field: string, errors: TCwValidationError[]): number | undefined {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    errors.push({ code: value === undefined ? 'MissingRequiredField' : 'InvalidField', message: `${field} must be an ISO 8601 date.`, resource: 'timeEntry', field });
    return undefined;
  }
  // ConnectWise keeps time entries to the second.
  return Math.floor(time / 1000) * 1000;
}

function readTimeEntry(store: SimStore, body: Record<string, unknown>): Omit<TSimTimeEntry, 'id' | 'createdAt'> | { errors: TCwValidationError[] } {
  const errors: TCwValidationError[] = [];
  if (body.chargeToType !== 'ServiceTicket') {
    errors.push({ code: 'InvalidField', message: 'The simulator takes time entries with chargeToType ServiceTicket only.', resource: 'timeEntry', field: 'chargeToType' });
  }
  const ticket = typeof body.chargeToId === 'number' ? store.tickets.get(body.chargeToId) : undefined;
  if (!ticket) errors.push({ code: 'InvalidObject', message: `Ticket ${JSON.stringify(body.chargeToId)} was not found.`, resource: 'timeEntry', field: 'chargeToId' });
  const reference = isRecord(body.member) ? body.member : undefined;
  const member = reference
    ? typeof reference.id === 'number'
      ? store.members.get(reference.id)
      : [...store.members.all()].find((candidate) => typeof reference.identifier === 'string' && candidate.identifier.toLowerCase() === reference.identifier.toLowerCase())
    : undefined;
  if (!member) errors.push({ code: reference ? 'InvalidObject' : 'MissingRequiredField', message: `Member ${JSON.stringify(body.member)} was not found.`, resource: 'timeEntry', field: 'member' });
  const startAt = readTime(body.timeStart, 'timeStart', errors);
  const endAt = readTime(body.timeEnd, 'timeEnd', errors);
  if (startAt !== undefined && endAt !== undefined) {
    if (endAt <= startAt) errors.push({ code: 'InvalidField', message: 'timeEnd must be after timeStart.', resource: 'timeEntry', field: 'timeEnd' });
    else if (endAt - startAt > MAX_ENTRY_HOURS * 3_600_000) errors.push({ code: 'InvalidField', message: `A time entry cannot be longer than ${MAX_ENTRY_HOURS} hours.`, resource: 'timeEntry', field: 'timeEnd' });
  }
  const notes = body.notes === undefined || body.notes === null ? '' : body.notes;
  if (typeof notes !== 'string') errors.push({ code: 'InvalidField', message: 'notes must be a string.', resource: 'timeEntry', field: 'notes' });
  else if (notes.length > NOTES_MAX) errors.push({ code: 'InvalidField', message: `notes must be at most ${NOTES_MAX} characters.`, resource: 'timeEntry', field: 'notes' });
  if (errors.length > 0 || !ticket || !member || startAt === undefined || endAt === undefined || typeof notes !== 'string') return { errors };
  const hours = Math.round(((endAt - startAt) / 3_600_000) * 100) / 100;
  return { ticketId: ticket.id, memberId: member.id, roleId: null, startAt, endAt, hours, notes, via: 'connectwise' };
}

export function connectWiseTimeRoutes(context: TSimContext): TRoute[] {
  const base = `${CW_API_PREFIX}/time/entries`;
  return [
    route('GET', base, (request) => listResponse(request, [...context.store.timeEntries.all()].map((entry) => presentTimeEntry(context.store, entry)))),
    route('GET', `${base}/{id}`, (request, params) => {
      const entry = context.store.timeEntries.get(idParam(params));
      return entry ? itemResponse(request, presentTimeEntry(context.store, entry)) : cwNotFound('TimeEntry', idParam(params));
    }),
    route('POST', base, (request) => {
      const parsed = readObjectBody(request, 'timeEntry');
      if ('response' in parsed) return parsed.response;
      const result = readTimeEntry(context.store, parsed.body);
      if ('errors' in result) return cwInvalidObject('timeEntry', result.errors);
      const entry = context.store.timeEntries.insert({ ...result, createdAt: context.store.now() });
      countCreate(context);
      return json(201, presentTimeEntry(context.store, entry));
    }),
    route('DELETE', `${base}/{id}`, (_request, params) => {
      if (!context.store.timeEntries.delete(idParam(params))) return cwNotFound('TimeEntry', idParam(params));
      return { status: 204 };
    }),
    route('PUT', `${base}/{id}`, () => cwError(405, 'MethodNotAllowed', 'The simulator does not change time entries.')),
  ];
}
