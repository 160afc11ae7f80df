import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';
import type { TPsaTicketRecord, TStreamOptions, TStreamTicketsFilter } from '../psa-client';
import type { AutotaskApi } from './autotask-api';
import { ZTicketRow } from './autotask-mappers';
import { atFilter, type TAutotaskFilter } from './filters';
import { ticketFromRow } from './autotask-tickets';
import { isClosedStatus, type TPicklistValue } from './picklists';

const ZTicketRecordRow = ZTicketRow.extend({
  description: z.string().nullish(),
  resolution: z.string().nullish(),
  createDate: z.string().nullish(),
  lastActivityDate: z.string().nullish(),
  completedDate: z.string().nullish(),
});

/** The query filter for a ticket stream; Autotask needs at least one item, so an empty filter matches every id. */
export function ticketFilter(filter: TStreamTicketsFilter, closedStatusValues: readonly number[]): TAutotaskFilter[] {
  const parts: TAutotaskFilter[] = [];
  if (filter.boardIds && filter.boardIds.length > 0) parts.push(atFilter.in('queueID', [...filter.boardIds]));
  if (filter.createdFrom) parts.push(atFilter.compare('gte', 'createDate', filter.createdFrom.toISOString()));
  if (filter.createdBefore) parts.push(atFilter.compare('lt', 'createDate', filter.createdBefore.toISOString()));
  if (filter.updatedSince) parts.push(atFilter.compare('gte', 'lastActivityDate', filter.updatedSince.toISOString()));
  if (filter.afterId !== undefined && filter.afterId > 0) parts.push(atFilter.compare('gt', 'id', filter.afterId));
  if (filter.ticketIds && filter.ticketIds.length > 0) parts.push(atFilter.in('id', [...filter.ticketIds]));
  if (filter.openOnly && closedStatusValues.length > 0) parts.push({ op: 'notIn', field: 'status', value: [...closedStatusValues] });
  return parts.length === 0 ? [atFilter.all()] : parts;
}

const labelIn = (values: readonly TPicklistValue[]) => {
  const labels = new Map(values.map((value) => [value.value, value.label]));
  return (id: number | null | undefined): string | null => (id === null || id === undefined ? null : (labels.get(id) ?? null));
};

/** Autotask rows carry ids; queue, status, priority and (sub-)issue type names come from the Tickets picklists (one cached read). */
export async function* streamTickets(api: AutotaskApi, filter: TStreamTicketsFilter, options: TStreamOptions = {}): AsyncGenerator<TPsaTicketRecord> {
  const statuses = await api.ticketPicklist('status');
  const closedValues = statuses.filter(isClosedStatus).map((status) => status.value);
  const closed = new Set(closedValues);
  const queueName = labelIn(await api.ticketPicklist('queueID'));
  const statusName = labelIn(statuses);
  const priorityName = labelIn(await api.ticketPicklist('priority'));
  const typeName = labelIn(await api.ticketPicklist('issueType'));
  const subtypeName = labelIn(await api.ticketPicklist('subIssueType'));
  const toRecord = (raw: unknown): TPsaTicketRecord => {
    const row = parsePsaPayload(ZTicketRecordRow, raw, 'ticket');
    return {
      ...ticketFromRow(row, statusName(row.status), row.status !== null && row.status !== undefined && closed.has(row.status)),
      boardName: queueName(row.queueID),
      typeName: typeName(row.issueType),
      subtypeName: subtypeName(row.subIssueType),
      itemName: null,
      priorityName: priorityName(row.priority),
      companyName: null,
      contactName: null,
      ownerName: null,
      description: row.description ?? null,
      resolution: row.resolution ?? null,
      createdAt: row.createDate ?? null,
      updatedAt: row.lastActivityDate ?? null,
      closedAt: row.completedDate ?? null,
    };
  };
  yield* api.stream('Tickets', ticketFilter(filter, closedValues), toRecord, options);
}
