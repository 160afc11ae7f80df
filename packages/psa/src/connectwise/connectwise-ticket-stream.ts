import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';
import type { TPsaTicketRecord, TStreamOptions, TStreamTicketsFilter } from '../psa-client';
import { Condition, eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import { ticketOf, ZTicket } from './connectwise-mappers';

// The ticket's own fields and the names and dates the stream carries, checked in one pass (one parse per row: the
// batch sync maps every row of every page, issue #7).
const ZTicketRecord = ZTicket.extend({
  closedDate: z.string().nullish(),
  _info: z.object({ dateEntered: z.string().nullish(), lastUpdated: z.string().nullish() }).nullish(),
});

const nameOf = (ref: { name?: string | null } | null | undefined): string | null => ref?.name ?? null;

/** A ConnectWise ticket row with the names it carries; initial description and resolution are notes there, not ticket fields. */
export const toTicketRecord = (row: unknown): TPsaTicketRecord => {
  const ticket = parsePsaPayload(ZTicketRecord, row, 'ticket');
  return {
    ...ticketOf(ticket),
    boardName: nameOf(ticket.board),
    typeName: nameOf(ticket.type),
    subtypeName: nameOf(ticket.subType),
    itemName: nameOf(ticket.item),
    priorityName: nameOf(ticket.priority),
    companyName: nameOf(ticket.company),
    contactName: nameOf(ticket.contact),
    ownerName: nameOf(ticket.owner),
    description: null,
    resolution: null,
    createdAt: ticket._info?.dateEntered ?? null,
    updatedAt: ticket._info?.lastUpdated ?? null,
    closedAt: ticket.closedDate ?? null,
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
