import { lookUpFirst } from '../http/create-options';
import { isSameTimeEntry, timeEntrySpan } from '../time-entry-span';
import { PsaError } from '../errors';
import { parsePsaPayload } from '../http/parse';
import type { TAddPsaTimeEntry, TPsaTimeEntry } from '../psa-client';
import { checkId } from '../record-id';
import type { AutotaskApi } from './autotask-api';
import * as map from './autotask-mappers';
import { itemOf } from './autotask-records';
import { atFilter } from './filters';

const toTimeEntry = (row: unknown): TPsaTimeEntry => {
  const entry = parsePsaPayload(map.ZTimeEntryRow, row, 'time entry');
  return {
    id: entry.id,
    ticketId: entry.ticketID ?? 0,
    memberId: entry.resourceID,
    startAt: entry.startDateTime ?? entry.dateWorked,
    endAt: entry.endDateTime ?? null,
    hours: entry.hoursWorked ?? 0,
    notes: entry.summaryNotes ?? '',
  };
};

function entriesOf(api: AutotaskApi, ticketId: number, resourceId?: number): Promise<TPsaTimeEntry[]> {
  const filter = [atFilter.eq('ticketID', checkId(ticketId))];
  if (resourceId !== undefined) filter.push(atFilter.eq('resourceID', checkId(resourceId)));
  return api.query('TimeEntries', filter, toTimeEntry);
}

/**
 * `POST TimeEntries` for the ticket: resource and role (Autotask needs both), the day worked, start and end, the
 * hours between them and the notes as summaryNotes. A time entry has no external reference, so an unknown outcome is
 * resolved by ticket, resource and start second.
 */
export async function addTimeEntry(api: AutotaskApi, input: TAddPsaTimeEntry): Promise<TPsaTimeEntry> {
  const span = timeEntrySpan(input);
  const ticketId = checkId(input.ticketId);
  const resourceId = checkId(input.memberId);
  const roleId = input.roleId ?? (await api.get(`/Resources/${resourceId}`, (body) => parsePsaPayload(map.ZResourceRole, itemOf(body), 'resource'))).defaultServiceDeskRoleID;
  if (roleId === null || roleId === undefined) {
    throw new PsaError('validation', 'The Autotask resource has no default service-desk role to enter time in.', { fieldMessages: [{ field: 'roleId', message: 'Required.' }] });
  }
  const body = {
    ticketID: ticketId,
    resourceID: resourceId,
    roleID: roleId,
    dateWorked: `${span.startAt.slice(0, 10)}T00:00:00Z`,
    startDateTime: span.startAt,
    endDateTime: span.endAt,
    hoursWorked: span.hours,
    summaryNotes: input.notes,
  };
  const entryId = await api.create('/TimeEntries', body, async () => {
    const entries = await entriesOf(api, ticketId, resourceId);
    return entries.find((entry) => isSameTimeEntry(entry, { ...span, notes: input.notes }))?.id ?? null;
  }, lookUpFirst);
  return api.get(`/TimeEntries/${entryId}`, (response) => toTimeEntry(itemOf(response)));
}

export async function listTimeEntries(api: AutotaskApi, ticketId: number): Promise<TPsaTimeEntry[]> {
  return (await entriesOf(api, ticketId)).sort((a, b) => Date.parse(a.startAt) - Date.parse(b.startAt) || a.id - b.id);
}
