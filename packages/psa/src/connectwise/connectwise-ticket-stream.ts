import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';
import type { TPsaTicketRecord, TStreamOptions, TStreamTicketsFilter } from '../psa-client';
import { Condition, eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import { toTicket } from './connectwise-mappers';

const ZName = z.object({ name: z.string().nullish() }).nullish();
const ZTicketNames = z.object({
  board: ZName,
  type: ZName,
  subType: ZName,
  item: ZName,
  priority: ZName,
  company: ZName,
  contact: ZName,
  owner: ZName,
  closedDate: z.string().nullish(),
  _info: z.object({ dateEntered: z.string().nullish(), lastUpdated: z.string().nullish() }).nullish(),
});

const nameOf = (ref: { name?: string | null } | null | undefined): string | null => ref?.name ?? null;

/** A ConnectWise ticket row with the names it carries; initial description and resolution are notes there, not ticket fields. */
export const toTicketRecord = (row: unknown): TPsaTicketRecord => {
  const names = parsePsaPayload(ZTicketNames, row, 'ticket');
  return {
    ...toTicket(row),
    boardName: nameOf(names.board),
    typeName: nameOf(names.type),
    subtypeName: nameOf(names.subType),
    itemName: nameOf(names.item),
    priorityName: nameOf(names.priority),
    companyName: nameOf(names.company),
    contactName: nameOf(names.contact),
    ownerName: nameOf(names.owner),
    description: null,
    resolution: null,
    createdAt: names._info?.dateEntered ?? null,
    updatedAt: names._info?.lastUpdated ?? null,
    closedAt: names.closedDate ?? null,
  };
};

/** The `conditions` string for a ticket stream; the PSA filters, so only matching pages travel. */
export function ticketConditions(filter: TStreamTicketsFilter): Condition | undefined {
  const parts: Condition[] = [];
  if (filter.boardIds && filter.boardIds.length > 0) parts.push(Condition.in('board/id', filter.boardIds));
  if (filter.createdFrom) parts.push(Condition.compare('dateEntered', '>=', filter.createdFrom));
  if (filter.createdBefore) parts.push(Condition.compare('dateEntered', '<', filter.createdBefore));
  if (filter.updatedSince) parts.push(Condition.compare('lastUpdated', '>=', filter.updatedSince));
  if (filter.openOnly) parts.push(eq('closedFlag', false));
  if (filter.afterId !== undefined && filter.afterId > 0) parts.push(Condition.compare('id', '>', filter.afterId));
  if (filter.ticketIds && filter.ticketIds.length > 0) parts.push(Condition.in('id', filter.ticketIds));
  return parts.length === 0 ? undefined : Condition.and(...parts);
}

export function streamTickets(api: ConnectWiseApi, filter: TStreamTicketsFilter, options: TStreamOptions = {}): AsyncGenerator<TPsaTicketRecord> {
  const conditions = ticketConditions(filter);
  return api.stream('/service/tickets', toTicketRecord, conditions ? { conditions } : {}, options);
}
