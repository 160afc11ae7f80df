import type { SimStore, TSimCompany, TSimContact, TSimTicket } from '../store';
import { SLOW_FIELD, cwDate } from './common';
import type { TCwSource } from './common';
import { presentCompany, presentContact, presentTicket } from './presenters';

// Condition paths answered straight from rows; each must equal what the presenter renders (fast-fields.test.ts checks this).

type TAccessor<TRow> = (store: SimStore, row: TRow) => unknown;

export const TICKET_FAST_FIELDS: Record<string, TAccessor<TSimTicket>> = {
  id: (_store, ticket) => ticket.id,
  summary: (_store, ticket) => ticket.summary,
  'board/id': (_store, ticket) => ticket.boardId,
  'board/name': (store, ticket) => store.boards.get(ticket.boardId)?.name,
  'status/id': (_store, ticket) => ticket.statusId,
  'status/name': (store, ticket) => store.statuses.get(ticket.statusId)?.name,
  'company/id': (_store, ticket) => ticket.companyId,
  'company/identifier': (store, ticket) => store.companies.get(ticket.companyId)?.identifier,
  'company/name': (store, ticket) => store.companies.get(ticket.companyId)?.name,
  'contact/id': (_store, ticket) => ticket.contactId ?? undefined,
  'owner/id': (_store, ticket) => ticket.ownerId ?? undefined,
  'team/id': (_store, ticket) => ticket.teamId ?? undefined,
  'owner/identifier': (store, ticket) => (ticket.ownerId === null ? undefined : store.members.get(ticket.ownerId)?.identifier),
  'type/id': (_store, ticket) => ticket.typeId ?? undefined,
  'subtype/id': (_store, ticket) => ticket.subTypeId ?? undefined,
  'priority/id': (_store, ticket) => ticket.priorityId ?? undefined,
  closedflag: (_store, ticket) => ticket.closedAt !== null,
  closeddate: (_store, ticket) => cwDate(ticket.closedAt),
  externalxref: (_store, ticket) => (ticket.externalReference === '' ? undefined : ticket.externalReference),
  lastupdated: (_store, ticket) => cwDate(ticket.updatedAt),
  '_info/lastupdated': (_store, ticket) => cwDate(ticket.updatedAt),
  dateentered: (_store, ticket) => cwDate(ticket.createdAt),
  '_info/dateentered': (_store, ticket) => cwDate(ticket.createdAt),
};

export const CONTACT_FAST_FIELDS: Record<string, TAccessor<TSimContact>> = {
  id: (_store, contact) => contact.id,
  firstname: (_store, contact) => contact.firstName,
  lastname: (_store, contact) => contact.lastName,
  title: (_store, contact) => contact.title,
  'company/id': (store, contact) => (store.companies.get(contact.companyId) ? contact.companyId : undefined),
  inactiveflag: (_store, contact) => !contact.isActive,
  defaultflag: (_store, contact) => contact.isPrimary,
  lastupdated: (_store, contact) => cwDate(contact.updatedAt),
  '_info/lastupdated': (_store, contact) => cwDate(contact.updatedAt),
};

export const COMPANY_FAST_FIELDS: Record<string, TAccessor<TSimCompany>> = {
  id: (_store, company) => company.id,
  identifier: (_store, company) => company.identifier,
  name: (_store, company) => company.name,
  deletedflag: (_store, company) => !company.isActive,
  city: (_store, company) => company.city,
  state: (_store, company) => company.state,
  lastupdated: (_store, company) => cwDate(company.updatedAt),
  '_info/lastupdated': (_store, company) => cwDate(company.updatedAt),
};

function fastFieldOf<TRow>(store: SimStore, accessors: Record<string, TAccessor<TRow>>): (row: TRow, lowerPath: string) => unknown {
  return (row, lowerPath) => {
    const accessor = accessors[lowerPath];
    return accessor ? accessor(store, row) : SLOW_FIELD;
  };
}

export function ticketSource(store: SimStore, rows: Iterable<TSimTicket> = store.tickets.all()): TCwSource<TSimTicket> {
  return { rows, present: (ticket) => presentTicket(store, ticket), fastField: fastFieldOf(store, TICKET_FAST_FIELDS) };
}

export function contactSource(store: SimStore): TCwSource<TSimContact> {
  return { rows: store.contacts.all(), present: (contact) => presentContact(store, contact), fastField: fastFieldOf(store, CONTACT_FAST_FIELDS) };
}

export function companySource(store: SimStore): TCwSource<TSimCompany> {
  return { rows: store.companies.all(), present: (company) => presentCompany(store, company), fastField: fastFieldOf(store, COMPANY_FAST_FIELDS) };
}
